import { cp, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ListRootsRequestSchema, type CallToolResult, type Root } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest'

import { requireBuiltCli, startMcp, withDeadline } from './support/mcp-process.js'
import { positionOf } from './support/workspace.js'

// `codeseam mcp` without --root serves its client's roots (MCP roots/list, followed through
// roots/list_changed): the built CLI as a child process, the official SDK client declaring roots, real
// language servers on small temp workspaces. Waits on events (the client's roots/list handler being asked,
// answers), never on time.

type Json = any

const multiRootFixture = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), '../../lsp-local/test/fixtures/multi-root-ts')

/** A temp workspace with one TypeScript file exporting `symbol`; its folder name (the root id) starts with `name`. */
async function workspace(name: string, symbol: string): Promise<string> {
  const dir = await realpath(await mkdtemp(nodePath.join(tmpdir(), `codeseam-roots-${name}-`)))
  await mkdir(nodePath.join(dir, 'src'))
  await writeFile(nodePath.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }))
  await writeFile(
    nodePath.join(dir, 'src', `${name}.ts`),
    `export function ${symbol}(count: number): string {\n  return String(count)\n}\n`,
  )
  return dir
}

let alpha: string
let beta: string
let gamma: string

beforeAll(async () => {
  alpha = await workspace('alpha', 'alphaLabel')
  beta = await workspace('beta', 'betaLabel')
  gamma = await workspace('gamma', 'gammaLabel')
})

afterAll(async () => {
  for (const dir of [alpha, beta, gamma]) await rm(dir, { recursive: true, force: true })
})

const rootOf = (dir: string): Root => ({ uri: pathToFileURL(dir).href, name: nodePath.basename(dir) })
const idOf = (dir: string) => nodePath.basename(dir)

/** A client that declares roots (with listChanged) and answers roots/list with whatever it is given now. */
interface RootsClient {
  readonly client: Client
  setRoots(roots: ReadonlyArray<Root>): void
  /** How many times the server asked roots/list. */
  listed(): number
  /** Resolves once the server has asked roots/list `times` times in all. */
  listedTimes(times: number): Promise<void>
  stderr(): string
}

const clients: Client[] = []

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

async function connectWithRoots(args: ReadonlyArray<string>, roots: ReadonlyArray<Root>): Promise<RootsClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [requireBuiltCli(), 'mcp', '--daemon', 'never', ...args],
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  onTestFailed(() => console.error(`codeseam mcp ${args.join(' ')} stderr:\n${stderr}`))
  const client = new Client({ name: 'codeseam-roots-e2e', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } })
  let current = [...roots]
  let calls = 0
  const waiters: Array<{ times: number; resolve: () => void }> = []
  client.setRequestHandler(ListRootsRequestSchema, () => {
    calls++
    for (const waiter of waiters.splice(0)) {
      if (calls >= waiter.times) waiter.resolve()
      else waiters.push(waiter)
    }
    return { roots: current }
  })
  await client.connect(transport)
  clients.push(client)
  return {
    client,
    setRoots(next) {
      current = [...next]
    },
    listed: () => calls,
    listedTimes(times) {
      if (calls >= times) return Promise.resolve()
      return withDeadline(new Promise<void>((resolve) => waiters.push({ times, resolve })), 60_000, `roots/list asked ${times} times`)
    },
    stderr: () => stderr,
  }
}

async function callRaw(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Json> {
  const result = await callRaw(client, name, args)
  if (result.isError === true) throw new Error(`${name} failed: ${result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')}`)
  return result.structuredContent
}

async function workspaceIds(client: Client): Promise<string[]> {
  const status = await call(client, 'code_status', {})
  return (status.workspaces as Json[]).map((w) => w.id as string)
}

/** Asks code_status until its workspaces are `expected` (the change is applied after roots/list is answered), at most `tries` times. */
async function untilWorkspaces(client: Client, expected: ReadonlyArray<string>, tries = 200): Promise<string[]> {
  let ids: string[] = []
  for (let n = 0; n < tries; n++) {
    ids = await workspaceIds(client)
    if (ids.length === expected.length && expected.every((id) => ids.includes(id))) return ids
  }
  return ids
}

async function hover(client: Client, dir: string, symbol: string): Promise<Json> {
  const name = idOf(dir).split('-')[2] ?? ''
  const result = await call(client, 'code_hover', { target: { path: `src/${name}.ts`, symbol } })
  expect(result.signature).toContain(`${symbol}(count: number): string`)
  expect(result.target).toMatchObject(await positionOf(dir, `src/${name}.ts`, `${symbol}(count`))
  return result
}

describe('codeseam mcp without --root, a client with roots', () => {
  it("serves the client's roots, follows list_changed: the new root opens, the old one closes", async () => {
    const mcp = await connectWithRoots([], [rootOf(alpha), rootOf(beta)])
    expect((await workspaceIds(mcp.client)).sort()).toEqual([idOf(alpha), idOf(beta)].sort())
    expect(mcp.listed()).toBe(1)
    await hover(mcp.client, alpha, 'alphaLabel')

    mcp.setRoots([rootOf(beta), rootOf(gamma)])
    await mcp.client.sendRootsListChanged()
    await mcp.listedTimes(2)
    expect((await untilWorkspaces(mcp.client, [idOf(beta), idOf(gamma)])).sort()).toEqual([idOf(beta), idOf(gamma)].sort())
    await hover(mcp.client, gamma, 'gammaLabel')

    // The closed root is no longer served: typed errors, not answers.
    const closed = await callRaw(mcp.client, 'code_hover', { target: { path: 'src/alpha.ts', symbol: 'alphaLabel' } })
    expect(closed.isError).toBe(true)
    expect(closed._meta?.['codeseam/error']).toMatchObject({ code: 'NOT_FOUND', data: { path: 'src/alpha.ts' } })
    const named = await callRaw(mcp.client, 'code_diagnostics', { rootId: idOf(alpha) })
    expect(named.isError).toBe(true)
    expect(named._meta?.['codeseam/error']).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining(`no workspace "${idOf(alpha)}"`),
    })
  })

  it('skips a root that is not a folder and opens the others', async () => {
    const file = nodePath.join(alpha, 'src', 'alpha.ts')
    const mcp = await connectWithRoots([], [{ uri: pathToFileURL(file).href }, rootOf(beta)])
    expect(await workspaceIds(mcp.client)).toEqual([idOf(beta)])
    expect(mcp.stderr()).toContain(`skipped the client's root ${pathToFileURL(file).href}`)
    await hover(mcp.client, beta, 'betaLabel')
  })

  it('--root given: serves exactly that root and never asks the client for its roots', async () => {
    const mcp = await connectWithRoots(['--root', beta], [rootOf(alpha)])
    expect(await workspaceIds(mcp.client)).toEqual([idOf(beta)])
    await hover(mcp.client, beta, 'betaLabel')
    await mcp.client.sendRootsListChanged()
    expect(await workspaceIds(mcp.client)).toEqual([idOf(beta)])
    expect(mcp.listed()).toBe(0)
  })
})

describe('two client roots, one importing the other (RFC 0025)', () => {
  it('answers across the roots with one TypeScript server, naming the other root of each location', async () => {
    const parent = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-roots-pair-')))
    try {
      await cp(multiRootFixture, parent, { recursive: true })
      const [lib, app] = [nodePath.join(parent, 'lib'), nodePath.join(parent, 'app')]
      const mcp = await connectWithRoots([], [rootOf(lib), rootOf(app)])
      const references = await call(mcp.client, 'code_navigate', {
        kind: 'references',
        target: { path: 'src/shapes.ts', rootId: 'lib', symbol: 'totalArea' },
      })
      expect(references.files.filter((f: Json) => f.rootId === 'app').map((f: Json) => f.path)).toEqual(['src/main.ts'])
      const definition = await call(mcp.client, 'code_navigate', {
        kind: 'definition',
        target: { path: 'src/main.ts', rootId: 'app', symbol: 'mixedArea' },
      })
      expect(definition.files.map((f: Json) => f.path)).toEqual(['src/main.ts'])
      const across = await call(mcp.client, 'code_navigate', {
        kind: 'definition',
        target: { ...(await positionOf(app, 'src/main.ts', 'totalArea([')), path: 'src/main.ts', rootId: 'app' },
      })
      expect(across.files.map((f: Json) => [f.rootId, f.path])).toEqual([['lib', 'src/shapes.ts']])
      expect(across.notice ?? '').not.toContain('outside the workspace')
      const status = await call(mcp.client, 'code_status', {})
      const typescript = (status.servers as Json[]).filter((s) => s.provider === 'local:typescript' && s.state !== 'not-started')
      expect(typescript.map((s) => [s.rootId, ...(s.sharedRootIds ?? [])])).toEqual([['app', 'lib']])
    } finally {
      await rm(parent, { recursive: true, force: true })
    }
  })
})

describe('codeseam mcp without --root, a client without roots', () => {
  it('serves the folder it was started in', async () => {
    const mcp = await startMcp([], { cwd: gamma })
    clients.push(mcp.client)
    onTestFailed(() => console.error(`codeseam mcp stderr:\n${mcp.stderr()}`))
    expect(await workspaceIds(mcp.client)).toEqual([idOf(gamma)])
    await hover(mcp.client, gamma, 'gammaLabel')
    expect(mcp.stderr()).toContain('the client does not announce roots')
  })
})
