import { readFile } from 'node:fs/promises'
import { request } from 'node:http'
import { createConnection } from 'node:net'
import * as nodePath from 'node:path'

import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest'

import {
  callTool,
  errorCodeOf,
  languageServersUnder,
  privateRuntimeDir,
  removeDir,
  socketClient,
  startServe,
  textOf,
  type DaemonProcess,
} from './support/daemon.js'
import { startMcp } from './support/mcp-process.js'
import { commandLineOf } from './support/processes.js'
import { copyFixture, removeWorkspace } from './support/workspace.js'

// `codeseam serve` as a real child process with real language servers (native TypeScript 7), SDK clients
// speaking Streamable HTTP over its Unix socket and over TCP.

type Json = any

let root: string
let other: string
let runtime: string
const daemons: DaemonProcess[] = []
const clients: Client[] = []

async function serve(args: ReadonlyArray<string>): Promise<DaemonProcess> {
  const daemon = await startServe(['--socket', nodePath.join(runtime, `d${daemons.length}.sock`), ...args], runtime)
  daemons.push(daemon)
  onTestFailed(() => console.error(`codeseam serve ${args.join(' ')} stderr:\n${daemon.stderr()}`))
  return daemon
}

async function connect(daemon: DaemonProcess, query: Record<string, string | string[]>): Promise<Client> {
  if (daemon.socket === undefined) throw new Error('the daemon has no socket')
  const client = await socketClient(daemon.socket, query)
  clients.push(client)
  return client
}

const typescriptServers = (pid: number) => languageServersUnder(pid).filter((p) => /tsc|typescript/.test(commandLineOf(p)))

const references = { target: { path: 'src/shapes.ts', symbol: 'Circle' }, kind: 'references' }

beforeAll(async () => {
  root = await copyFixture()
  other = await copyFixture()
  runtime = privateRuntimeDir()
})

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await Promise.all(daemons.splice(0).map((daemon) => daemon.stop()))
})

afterAll(async () => {
  await removeWorkspace(root)
  await removeWorkspace(other)
  removeDir(runtime)
})

describe('servers shared by (root, profile, trust)', () => {
  it('8 concurrent sessions on one root share one TypeScript server, and each answers what a session of its own answers', async () => {
    // The oracle: one in-process session (no daemon) on the same root.
    const alone = await startMcp(['--root', root, '--read-only'])
    let expected: Json
    try {
      expected = (await alone.client.callTool({ name: 'code_navigate', arguments: references }, undefined, { timeout: 180_000 }))
        .structuredContent
    } finally {
      await alone.close()
    }
    expect(expected.totalFound).toBeGreaterThan(2)

    const daemon = await serve([])
    const sessions = await Promise.all(Array.from({ length: 8 }, () => connect(daemon, { root })))
    const answers = await Promise.all(sessions.map((client) => callTool(client, 'code_navigate', references)))
    for (const answer of answers) {
      expect(answer.isError, textOf(answer)).toBe(false)
      const structured = answer.structuredContent as Json
      expect(structured.totalFound).toBe(expected.totalFound)
      expect(structured.files).toEqual(expected.files)
    }
    expect(typescriptServers(daemon.pid).map(commandLineOf)).toHaveLength(1)
  })

  it('a trusted and an untrusted session on one root each keep their own server while both are busy', async () => {
    const daemon = await serve(['--trust', 'trusted'])
    const trusted = await connect(daemon, { root, trust: 'trusted' })
    const untrusted = await connect(daemon, { root, trust: 'untrusted' })
    expect((await callTool(trusted, 'code_navigate', references)).isError).toBe(false)
    expect((await callTool(untrusted, 'code_navigate', references)).isError).toBe(false)
    const servers = typescriptServers(daemon.pid).sort()
    expect(servers).toHaveLength(2)
    // Interleaved calls of both sessions: with trust per workspace, each session's start would stop the other's server.
    const rounds = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        callTool(index % 2 === 0 ? trusted : untrusted, 'code_navigate', {
          ...references,
          kind: index % 3 === 0 ? 'definition' : 'references',
        }),
      ),
    )
    for (const round of rounds) expect(round.isError, textOf(round)).toBe(false)
    expect(typescriptServers(daemon.pid).sort()).toEqual(servers)
    for (const client of [trusted, untrusted]) {
      const status = (await callTool(client, 'code_status', {})).structuredContent as Json
      const typescript = status.servers.find((s: Json) => s.server === 'typescript')
      expect(typescript.state).toBe('ready')
      expect(typescript.restarts ?? 0).toBe(0)
    }
  })
})

describe('session isolation', () => {
  it("a session cannot reach another session's root, nor see it in code_status", async () => {
    const daemon = await serve([])
    const a = await connect(daemon, { root })
    const b = await connect(daemon, { root: other })
    expect((await callTool(a, 'code_navigate', references)).isError).toBe(false)
    const aStatus = (await callTool(a, 'code_status', {})).structuredContent as Json
    const aId = aStatus.workspaces[0].id as string

    const absolute = await callTool(b, 'code_navigate', {
      ...references,
      target: { path: nodePath.join(root, 'src/shapes.ts'), symbol: 'Circle' },
    })
    expect(absolute.isError).toBe(true)
    expect(errorCodeOf(absolute)).toBe('OUTSIDE_WORKSPACE')
    const byId = await callTool(b, 'code_navigate', { ...references, target: { ...references.target, rootId: aId } })
    expect(byId.isError).toBe(true)
    expect(textOf(byId)).not.toContain(root)

    const bStatus = (await callTool(b, 'code_status', {})).structuredContent as Json
    expect(bStatus.workspaces.map((w: Json) => w.id)).toEqual([nodePath.basename(other)])
    expect(JSON.stringify(bStatus)).not.toContain(aId)
    // B's view of the TypeScript server is of its own root only, though A's server runs in the same daemon.
    expect(bStatus.servers.every((s: Json) => s.rootId === undefined || s.rootId === nodePath.basename(other))).toBe(true)
  })

  it('a daemon started with flags refuses a session asking for more: another root, more trust, edits without asking', async () => {
    const daemon = await serve(['--root', root])
    const refused = async (query: Record<string, string>, code: string) => {
      const attempt = connect(daemon, query)
      await expect(attempt).rejects.toThrow(new RegExp(`"code":"${code}"`))
    }
    await refused({ root: other }, 'OUTSIDE_WORKSPACE')
    await refused({ root, trust: 'trusted' }, 'UNTRUSTED')
    await refused({ root, edits: 'allow' }, 'APPROVAL_DENIED')
    // Within the ceiling: served, and a session without a root gets the daemon's.
    const within = await connect(daemon, {})
    const status = (await callTool(within, 'code_status', {})).structuredContent as Json
    expect(status.workspaces.map((w: Json) => w.id)).toEqual([nodePath.basename(root)])
    expect(daemon.stderr()).toContain('a session was refused')
  })
})

function rawRequest(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
      },
    )
    req.once('error', reject)
    req.end(body)
  })
}

/** A raw connection to the daemon's socket: sends `text`, resolves with everything it answers until it closes. */
function rawSocket(socket: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket)
    let answer = ''
    connection.setEncoding('utf8')
    connection.on('data', (chunk: string) => (answer += chunk))
    connection.once('error', reject)
    connection.once('close', () => resolve(answer))
    connection.write(text)
  })
}

describe("a relay's connection", () => {
  it('is refused, with a code, for a hello that is not one or that asks for too much; the daemon keeps serving', async () => {
    const daemon = await serve(['--root', root])
    const socket = daemon.socket ?? ''
    const refusal = (answer: string) => JSON.parse(answer.split('\n')[0] ?? '') as Json
    const notHello = refusal(await rawSocket(socket, '{"codeseam":"hello"}\n'))
    expect(notHello).toMatchObject({ codeseam: 'refused', code: 'INVALID_ARGUMENT' })
    const notJson = refusal(await rawSocket(socket, '{not json\n'))
    expect(notJson).toMatchObject({ codeseam: 'refused', code: 'INVALID_ARGUMENT' })
    const tooLong = refusal(await rawSocket(socket, `{"codeseam":"session","query":"${'x'.repeat(70_000)}`))
    expect(tooLong).toMatchObject({ codeseam: 'refused', code: 'INVALID_ARGUMENT' })
    const outside = refusal(
      await rawSocket(socket, `${JSON.stringify({ codeseam: 'session', query: `root=${encodeURIComponent(other)}` })}\n`),
    )
    expect(outside).toMatchObject({ codeseam: 'refused', code: 'OUTSIDE_WORKSPACE' })
    const client = await connect(daemon, { root })
    expect((await callTool(client, 'code_navigate', references)).isError).toBe(false)
  })
})

describe('HTTP', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  })

  // Issue 32: these answered 401 with a Bearer challenge, and OAuth-capable clients started a login.
  it('answers the OAuth discovery and registration paths 404 without a challenge, naming the bearer token', async () => {
    const daemon = await serve(['--no-socket', '--http', '127.0.0.1:0'])
    const base = new URL(daemon.url ?? '')
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/register',
    ]) {
      const answer = await fetch(new URL(path, base), { method: path === '/register' ? 'POST' : 'GET' })
      expect(answer.status, path).toBe(404)
      expect(answer.headers.get('www-authenticate'), path).toBeNull()
      expect(await answer.text()).toContain('codeseam has no OAuth: send its bearer token')
    }
    // MCP itself still needs the token, and says so.
    const mcp = await rawRequest(`${daemon.url}?root=${encodeURIComponent(root)}`, {}, initialize)
    expect(mcp.status).toBe(401)
    expect(mcp.body).toContain('a bearer token is required')
  })

  it('needs the bearer token, refuses a foreign Origin and Host, and serves a client with the token', async () => {
    const daemon = await serve(['--no-socket', '--http', '127.0.0.1:0'])
    expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    const url = `${daemon.url}?root=${encodeURIComponent(root)}`
    const token = (await readFile(daemon.tokenFile ?? '', 'utf8')).trim()
    expect(token.length).toBeGreaterThanOrEqual(32)

    const none = await rawRequest(url, {}, initialize)
    expect(none.status).toBe(401)
    expect(none.headers['www-authenticate']).toContain('Bearer')
    const wrong = await rawRequest(url, { authorization: `Bearer ${token.slice(1)}x` }, initialize)
    expect(wrong.status).toBe(401)
    const origin = await rawRequest(url, { authorization: `Bearer ${token}`, origin: 'http://evil.example' }, initialize)
    expect(origin.status).toBe(403)
    expect(origin.body).toContain('origin http://evil.example')
    const host = await rawRequest(url, { authorization: `Bearer ${token}`, host: 'evil.example' }, initialize)
    expect(host.status).toBe(403)
    const good = await rawRequest(url, { authorization: `Bearer ${token}` }, initialize)
    expect(good.status).toBe(200)
    expect(good.headers['mcp-session-id']).toBeTypeOf('string')

    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
    const { Client: SdkClient } = await import('@modelcontextprotocol/sdk/client/index.js')
    const client = new SdkClient({ name: 'http-e2e', version: '1' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    )
    clients.push(client)
    const answer = await callTool(client, 'code_navigate', references)
    expect(answer.isError, textOf(answer)).toBe(false)
    // Paths in answers are relative to the root: an agent elsewhere needs no path mapping.
    expect(textOf(answer)).toContain('src/shapes.ts')
    expect(textOf(answer)).not.toContain(root)
    // A receipt too names its workspace by id, not by the server's absolute root (issue 32).
    const preview = await callTool(client, 'code_rename', {
      target: { path: 'src/shapes.ts', symbol: 'totalArea' },
      newName: 'sumArea',
      dryRun: true,
    })
    expect(preview.isError, textOf(preview)).toBe(false)
    const receipt = (preview.structuredContent as { receipt: Record<string, unknown> }).receipt
    expect(receipt['rootId']).toBe(nodePath.basename(root))
    expect(JSON.stringify(preview.structuredContent)).not.toContain(root)
  })
})
