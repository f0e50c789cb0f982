import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest'

import {
  callTool,
  daemonPidIn,
  errorCodeOf,
  languageServersUnder,
  privateRuntimeDir,
  removeDir,
  startProxy,
  startServe,
  textOf,
  waitUntilGone,
  type ProxyProcess,
} from './support/daemon.js'
import { requireBuiltCli, withDeadline } from './support/mcp-process.js'
import { unixSocketFetch } from './support/unix-fetch.js'
import { commandLineOf, isRunning } from './support/processes.js'
import { copyFixture, removeWorkspace } from './support/workspace.js'

// `codeseam mcp --daemon auto` (the stdio proxy) as MCP clients run it: each test has its own runtime folder,
// so its proxies start and share their own daemon; real language servers (native TypeScript 7).

type Json = any

let root: string
let runtime: string
const proxies: ProxyProcess[] = []

async function proxy(args: ReadonlyArray<string>, options: Parameters<typeof startProxy>[2] = {}): Promise<ProxyProcess> {
  const started = await startProxy(args, runtime, options)
  proxies.push(started)
  onTestFailed(() => console.error(`codeseam mcp ${args.join(' ')} stderr:\n${started.stderr()}\ndaemon log:\n${daemonLog()}`))
  return started
}

function daemonLog(): string {
  if (!existsSync(runtime)) return ''
  return readdirSync(runtime)
    .filter((name) => name.endsWith('.log'))
    .map((name) => readFileSync(nodePath.join(runtime, name), 'utf8'))
    .join('\n')
}

/** A promise and its resolver. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {}
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/** The health endpoint's answer of the daemon serving a runtime folder. */
async function healthIn(dir: string): Promise<Json> {
  const socket = readdirSync(dir).find((name) => name.endsWith('.sock'))
  if (socket === undefined) throw new Error(`no daemon socket in ${dir}`)
  return (await unixSocketFetch(nodePath.join(dir, socket))('http://codeseam/codeseam/health')).json()
}

/** VmRSS of one process, bytes, read here from /proc. */
const vmRss = (pid: number): number => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024

const typescriptServers = (pid: number) => languageServersUnder(pid).filter((p) => /tsc|typescript/.test(commandLineOf(p)))
const references = (symbol: string) => ({ target: { path: 'src/shapes.ts', symbol }, kind: 'references' })
const accept: ElicitResult = { action: 'accept', content: { approveAll: false } }

beforeAll(async () => {
  root = await copyFixture()
})

let daemonPid: number | undefined
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close().catch(() => {})))
  // Each test's daemon stops with its runtime folder: SIGTERM it (it stops its servers) and wait.
  if (existsSync(runtime) && readdirSync(runtime).some((name) => name.endsWith('.sock'))) {
    const pid = await daemonPidIn(runtime).catch(() => undefined)
    if (pid !== undefined && isRunning(pid)) {
      process.kill(pid, 'SIGTERM')
      await waitUntilGone([pid])
    }
  }
  if (daemonPid !== undefined && isRunning(daemonPid)) process.kill(daemonPid, 'SIGKILL')
  daemonPid = undefined
  removeDir(runtime)
})

afterAll(async () => {
  await removeWorkspace(root)
})

// Issue 32: no command listed or stopped the daemons.
describe('codeseam daemon status, logs, stop', () => {
  it('lists the daemon `codeseam mcp` started, prints its log, and stops it', async () => {
    runtime = privateRuntimeDir()
    const client = await proxy(['--root', root])
    expect((await callTool(client.client, 'code_navigate', references('Square'))).isError).toBe(false)
    const pid = await daemonPidIn(runtime)
    const cli = (args: ReadonlyArray<string>) =>
      spawnSync(process.execPath, [requireBuiltCli(), 'daemon', ...args], {
        encoding: 'utf8',
        env: { ...process.env, CODESEAM_RUNTIME_DIR: runtime },
      })
    const status = cli(['status', '--json'])
    expect(status.status, status.stderr).toBe(0)
    const listed = JSON.parse(status.stdout) as { daemons: Array<{ key: string; health?: { pid: number; sessions: number } }> }
    expect(listed.daemons).toHaveLength(1)
    expect(listed.daemons[0]?.health).toMatchObject({ pid, sessions: 1 })
    const key = listed.daemons[0]?.key ?? ''
    const human = cli(['status'])
    expect(human.stdout).toContain(`running  ${key}  pid ${pid}`)
    // `codeseam status` says a daemon runs (issue 32: it never mentioned one).
    const status2 = spawnSync(process.execPath, [requireBuiltCli(), 'status', '--root', root, '-q'], {
      encoding: 'utf8',
      env: { ...process.env, CODESEAM_RUNTIME_DIR: runtime },
    })
    expect(status2.stdout).toContain(
      'daemon: 1 running, 1 session (this command ran its own language servers; see `codeseam daemon status`)',
    )
    // Issue 51: the daemon's language servers' memory, a sample taken off the questions' path (RFC 0030), in both.
    const [server] = typescriptServers(pid)
    if (server === undefined) throw new Error('the daemon runs no TypeScript server')
    const memory = (listed.daemons[0]?.health as { memory?: Json } | undefined)?.memory
    expect(memory.ownRssBytes).toBeGreaterThan(10 * 1024 * 1024)
    expect(memory.servers).toEqual([
      { trust: 'untrusted', server: 'typescript', rssBytes: expect.any(Number), sampledAt: expect.any(Number) },
    ])
    expect(memory.serversRssBytes).toBe(memory.servers[0].rssBytes)
    // The figure is the server's tree: a sample taken after this test read the server process's own VmRSS holds at
    // least that (an idle server; the daemon samples every few seconds, so this waits for the next one).
    const read = Date.now()
    const own = vmRss(server)
    const later = await vi.waitFor(
      async () => {
        const found = (await healthIn(runtime)).memory?.servers[0]
        expect(found?.sampledAt).toBeGreaterThanOrEqual(read)
        return found as { rssBytes: number }
      },
      { timeout: 30_000, interval: 200 },
    )
    expect(own).toBeGreaterThan(10 * 1024 * 1024)
    expect(later.rssBytes).toBeGreaterThanOrEqual(own * 0.9)
    expect(memory.perServerCeilingBytes).toBeGreaterThanOrEqual(512 * 1024 * 1024)
    expect(memory.budgetBytes).toBeGreaterThanOrEqual(1024 * 1024 * 1024) // half of RAM, at least 1 GiB (RFC 0033)
    expect(status2.stdout).toMatch(
      /\ndaemon memory: language servers \d+ MB resident across 1 running server, sampled up to \d+s ago; each restarted above its \d+ MB per-server ceiling; \d+ of \d+ MB budget \(every server of both trust levels: above it, idle ones stop\); the daemon itself \d+ MB\n/,
    )
    expect(human.stdout).toMatch(
      / {9}memory: language servers \d+ MB resident across 1 running server: typescript \(untrusted\) \d+ MB sampled \d+s ago; each restarted above its \d+ MB per-server ceiling; \d+ of \d+ MB budget \(every server of both trust levels: above it, idle ones stop\); the daemon itself \d+ MB\n/,
    )
    const logs = cli(['logs', key.slice(0, 6)])
    expect(logs.status, logs.stderr).toBe(0)
    expect(logs.stdout).toMatch(/listening/)
    // A line per session opened and per call: the tool, how it ended, how long; no path, root or symbol.
    expect(logs.stdout).toMatch(/session \S+ opened over a relay \(untrusted, 1 root, 1 open\)/)
    expect(logs.stdout).toMatch(/session \S+: code_navigate ok in \d+ ms/)
    expect(logs.stdout).not.toContain(root)
    expect(logs.stdout).not.toContain('Square')
    const stop = cli(['stop'])
    expect(stop.status, stop.stderr).toBe(0)
    expect(stop.stdout).toContain(`stopped ${key} (pid ${pid})`)
    expect(isRunning(pid)).toBe(false)
    const after = cli(['status'])
    expect(after.stdout).toContain('no codeseam daemon is running')
    const unknown = cli(['restart'])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('unknown daemon command "restart" (status, stop, logs)')
  })
})

describe('codeseam mcp --daemon auto', () => {
  it('two stdio clients share one daemon and one TypeScript server; an edit approved through elicitation is seen by the other', async () => {
    runtime = privateRuntimeDir()
    const asked: ElicitRequest[] = []
    const a = await proxy(['--root', root], {
      elicit: (request) => {
        asked.push(request)
        return accept
      },
    })
    const b = await proxy(['--root', root])
    for (const client of [a.client, b.client]) expect((await callTool(client, 'code_navigate', references('Square'))).isError).toBe(false)
    daemonPid = await daemonPidIn(runtime)
    expect(typescriptServers(daemonPid)).toHaveLength(1)
    expect(a.stderr()).toContain('started the codeseam daemon')
    expect(b.stderr()).not.toContain('started the codeseam daemon')

    const renamed = await callTool(a.client, 'code_rename', { target: { path: 'src/shapes.ts', symbol: 'Square' }, newName: 'Quad' })
    expect(renamed.isError, textOf(renamed)).toBe(false)
    expect((renamed.structuredContent as Json).receipt.status).toBe('applied')
    expect(asked).toHaveLength(1)
    expect(asked[0]?.params.message).toContain('Quad')
    expect(await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')).toContain('export class Quad')
    // B never saw the edit happen; its next question sees it.
    const seen = await callTool(b.client, 'code_navigate', references('Quad'))
    expect(seen.isError, textOf(seen)).toBe(false)
    expect((seen.structuredContent as Json).totalFound).toBeGreaterThan(1)
    expect(typescriptServers(daemonPid)).toHaveLength(1)
  })

  it('a client killed mid-call leaves the other sessions answering, and its change is not applied', async () => {
    runtime = privateRuntimeDir()
    const killed = deferred()
    let victim: ProxyProcess | undefined
    victim = await proxy(['--root', root], {
      elicit: () => {
        // Mid-call: the daemon waits on this client's approval. The client dies instead of answering.
        if (victim !== undefined) process.kill(victim.pid, 'SIGKILL')
        killed.resolve()
        return new Promise<ElicitResult>(() => {})
      },
    })
    const survivor = await proxy(['--root', root])
    // The relay answers initialize itself; a call waits until its session is open on the daemon.
    expect((await callTool(survivor.client, 'code_status', {})).isError).toBe(false)
    daemonPid = await daemonPidIn(runtime)
    const before = await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')
    const call = callTool(victim.client, 'code_rename', {
      target: { path: 'src/shapes.ts', symbol: 'totalArea' },
      newName: 'sumAll',
    }).catch((error: unknown) => error)
    await withDeadline(killed.promise, 120_000, 'the approval request to reach the client')
    await call
    const answer = await callTool(survivor.client, 'code_navigate', references('totalArea'))
    expect(answer.isError, textOf(answer)).toBe(false)
    expect(await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')).toBe(before)
    expect(isRunning(daemonPid)).toBe(true)
    // The daemon closed the dead client's session when its connection closed (polling its log: no event reaches the test).
    const deadline = Date.now() + 30_000
    while (!daemonLog().includes('closed: its client went away') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(daemonLog()).toContain('closed: its client went away')
  })

  it('kill -9 of the daemon: its servers die, every waiting client gets a typed error, and the next call starts a new daemon', async () => {
    runtime = privateRuntimeDir()
    // B works on another root: mutations of one root take turns (its lock), and both must be mid-call at once.
    const second = await copyFixture()
    try {
      const bWaiting = deferred()
      const aAsked = deferred()
      const a = await proxy(['--root', root], {
        elicit: () => {
          aAsked.resolve()
          return new Promise<ElicitResult>(() => {})
        },
      })
      const b = await proxy(['--root', second], {
        elicit: () => {
          bWaiting.resolve()
          return new Promise<ElicitResult>(() => {})
        },
      })
      for (const client of [a.client, b.client]) expect((await callTool(client, 'code_navigate', references('Circle'))).isError).toBe(false)
      const firstDaemon = await daemonPidIn(runtime)
      const servers = typescriptServers(firstDaemon)
      expect(servers).toHaveLength(2)

      // Both sessions mid-call (each waiting on its user's approval) when the daemon is killed.
      const rename = { target: { path: 'src/shapes.ts', symbol: 'Circle' }, newName: 'Ring' }
      const bCall = callTool(b.client, 'code_rename', rename)
      const aCall = callTool(a.client, 'code_rename', rename)
      await withDeadline(Promise.all([aAsked.promise, bWaiting.promise]), 120_000, 'both approval requests')
      process.kill(firstDaemon, 'SIGKILL')
      for (const answer of await withDeadline(Promise.all([aCall, bCall]), 60_000, 'both calls to answer after the daemon died')) {
        expect(answer.isError).toBe(true)
        expect(errorCodeOf(answer)).toBe('UNAVAILABLE')
        expect(textOf(answer)).toContain('the codeseam daemon stopped')
      }
      await waitUntilGone(servers)

      // Both relays reconnect at once: two new daemons race for the dead one's socket, one wins, both join it.
      const again = await Promise.all([a.client, b.client].map((client) => callTool(client, 'code_navigate', references('Circle'))))
      for (const answer of again) expect(answer.isError, textOf(answer)).toBe(false)
      daemonPid = await daemonPidIn(runtime)
      expect(daemonPid).not.toBe(firstDaemon)
      expect(typescriptServers(daemonPid)).toHaveLength(2)
      for (const folder of [root, second])
        expect(await readFile(nodePath.join(folder, 'src/shapes.ts'), 'utf8')).toContain('export class Circle')
    } finally {
      await removeWorkspace(second)
    }
  })

  it('two relays started at once in a fresh runtime folder start one daemon between them', async () => {
    runtime = privateRuntimeDir()
    const [a, b] = await Promise.all([proxy(['--root', root]), proxy(['--root', root])])
    for (const client of [a.client, b.client]) expect((await callTool(client, 'code_navigate', references('Circle'))).isError).toBe(false)
    daemonPid = await daemonPidIn(runtime)
    expect(typescriptServers(daemonPid)).toHaveLength(1)
    expect(readdirSync(runtime).filter((name) => name.endsWith('.sock'))).toHaveLength(1)
    const { descendantsOf } = await import('./support/processes.js')
    const daemons = descendantsOf(1)
      .filter(isRunning)
      .filter((pid) => commandLineOf(pid).includes(`serve --auto --socket ${runtime}`))
    expect(daemons).toEqual([daemonPid])
  })

  it('a client with another configuration (here --env-allow) does not join: it starts a daemon of its own', async () => {
    runtime = privateRuntimeDir()
    const plain = await proxy(['--root', root])
    const other = await proxy(['--root', root, '--env-allow', 'CODESEAM_E2E_VARIABLE'])
    for (const client of [plain.client, other.client])
      expect((await callTool(client, 'code_navigate', references('Circle'))).isError).toBe(false)
    expect(other.stderr()).toContain('started the codeseam daemon')
    expect(readdirSync(runtime).filter((name) => name.endsWith('.sock'))).toHaveLength(2)
    // afterEach stops one daemon by its socket; stop the other here.
    const { unixSocketFetch } = await import('./support/unix-fetch.js')
    const pids = await Promise.all(
      readdirSync(runtime)
        .filter((name) => name.endsWith('.sock'))
        .map(
          async (name) =>
            ((await (await unixSocketFetch(nodePath.join(runtime, name))('http://codeseam/codeseam/health')).json()) as Json).pid as number,
        ),
    )
    expect(new Set(pids).size).toBe(2)
    for (const pid of pids) expect(typescriptServers(pid)).toHaveLength(1)
    await Promise.all(proxies.splice(0).map((p) => p.close()))
    for (const pid of pids) process.kill(pid, 'SIGTERM')
    await waitUntilGone(pids)
  })

  it("a daemon started by hand on the user's socket is joined, and its ceiling refuses a relay asking for more", async () => {
    runtime = privateRuntimeDir()
    // No --socket: it listens where `codeseam mcp` with the same configuration looks.
    const daemon = await startServe(['--root', root], runtime)
    try {
      const joined = await proxy(['--root', root])
      expect((await callTool(joined.client, 'code_navigate', references('Circle'))).isError).toBe(false)
      expect(joined.stderr()).not.toContain('started the codeseam daemon')
      expect(typescriptServers(daemon.pid)).toHaveLength(1)
      // The relay answers initialize and tools/list itself; the daemon's refusal comes at each call, with its code and words.
      const refused = await proxy(['--root', root, '--trust', 'trusted'])
      expect((await refused.client.listTools()).tools.length).toBeGreaterThan(0)
      for (const symbol of ['Circle', 'Square']) {
        const answer = await callTool(refused.client, 'code_navigate', references(symbol))
        expect(answer.isError).toBe(true)
        expect(errorCodeOf(answer)).toBe('UNTRUSTED')
        expect(textOf(answer)).toMatch(/refused the session: this codeseam daemon serves untrusted sessions only[\s\S]*--trust trusted/)
      }
      expect(daemon.stderr()).toContain('a session was refused')
    } finally {
      await Promise.all(proxies.splice(0).map((p) => p.close().catch(() => {})))
      await daemon.stop()
    }
  })

  it("without --root, the daemon's session takes the client's roots through the proxy and follows list_changed", async () => {
    runtime = privateRuntimeDir()
    const second = await copyFixture()
    try {
      let roots = [root]
      const listed: number[] = []
      const started = await startProxyWithRoots(
        () => roots,
        () => listed.push(1),
      )
      const ids = async () =>
        ((await callTool(started.client, 'code_status', {})).structuredContent as Json).workspaces.map((w: Json) => w.id)
      expect(await ids()).toEqual([nodePath.basename(root)])
      roots = [second]
      const before = listed.length
      await started.client.sendRootsListChanged()
      // The daemon asks again (through the proxy); then the new root is served.
      let current: string[] = []
      for (let attempt = 0; attempt < 200; attempt++) {
        current = await ids()
        if (listed.length > before && current[0] === nodePath.basename(second)) break
      }
      expect(current).toEqual([nodePath.basename(second)])
    } finally {
      await removeWorkspace(second)
    }
  })

  it('an auto-started daemon exits after its idle period without sessions, and its servers with it', async () => {
    runtime = privateRuntimeDir()
    const only = await proxy(['--root', root, '--idle-timeout', '1'])
    expect((await callTool(only.client, 'code_navigate', references('Circle'))).isError).toBe(false)
    const pid = await daemonPidIn(runtime)
    const servers = typescriptServers(pid)
    expect(servers).toHaveLength(1)
    await only.close()
    proxies.splice(0)
    await waitUntilGone([pid, ...servers], 60_000)
    expect(daemonLog()).toContain('no session for 1 s')
    expect(readdirSync(runtime).filter((name) => name.endsWith('.sock'))).toEqual([])
  })
})

async function startProxyWithRoots(roots: () => string[], onList: () => void): Promise<ProxyProcess> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js')
  const { requireBuiltCli } = await import('./support/mcp-process.js')
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [requireBuiltCli(), 'mcp', '--daemon', 'auto'],
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), CODESEAM_RUNTIME_DIR: runtime },
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const client = new Client({ name: 'roots-proxy-e2e', version: '1' }, { capabilities: { roots: { listChanged: true } } })
  client.setRequestHandler(ListRootsRequestSchema, () => {
    onList()
    return { roots: roots().map((path) => ({ uri: pathToFileURL(path).href, name: nodePath.basename(path) })) }
  })
  await client.connect(transport)
  const started: ProxyProcess = { client, pid: transport.pid ?? 0, stderr: () => stderr, close: () => client.close() }
  proxies.push(started)
  onTestFailed(() => console.error(`codeseam mcp stderr:\n${stderr}\ndaemon log:\n${daemonLog()}`))
  return started
}

describe('who may connect', () => {
  const isRoot = process.getuid?.() === 0
  const tools = ['useradd', 'setpriv'].every((tool) => spawnSync('which', [tool]).status === 0)

  it.skipIf(!isRoot || !tools)(
    'another local user is refused on the socket (skipped unless run as root with useradd and setpriv)',
    async () => {
      runtime = privateRuntimeDir()
      const daemon = await startServe(['--socket', nodePath.join(runtime, 'd.sock'), '--root', root], runtime)
      try {
        const user = 'codeseam-e2e-other'
        if (spawnSync('id', [user]).status !== 0)
          execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', user])
        const uid = execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim()
        const gid = execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim()
        const probe = `require('node:net').connect(${JSON.stringify(daemon.socket)}).on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',(e)=>{console.log(e.code);process.exit(0)})`
        const asOther = spawnSync('setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', process.execPath, '-e', probe], {
          encoding: 'utf8',
        })
        expect(asOther.stdout.trim(), asOther.stderr).toBe('EACCES')
        // The same probe as this user connects: the refusal is the folder's and socket's permissions, not a broken socket.
        expect(spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' }).stdout.trim()).toBe('CONNECTED')

        // A runtime folder another user created first is refused, as is one open to others.
        const foreign = nodePath.join(runtime, 'foreign')
        mkdirSync(foreign, { mode: 0o700 })
        chownSync(foreign, Number(uid), Number(gid))
        const refusedForeign = spawnSync(process.execPath, [await cli(), 'serve', '--socket', nodePath.join(foreign, 'd.sock')], {
          encoding: 'utf8',
        })
        expect(refusedForeign.status).not.toBe(0)
        expect(refusedForeign.stderr).toMatch(/UNTRUSTED[\s\S]*owned by uid/)
      } finally {
        await daemon.stop()
      }
    },
  )

  it('a runtime folder open to group or others is refused', async () => {
    runtime = privateRuntimeDir()
    const open = nodePath.join(runtime, 'open')
    mkdirSync(open)
    chmodSync(open, 0o777)
    const refused = spawnSync(process.execPath, [await cli(), 'serve', '--socket', nodePath.join(open, 'd.sock')], { encoding: 'utf8' })
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toMatch(/UNTRUSTED[\s\S]*mode is 777/)
    expect(readdirSync(open)).toEqual([])
  })
})

async function cli(): Promise<string> {
  const { requireBuiltCli } = await import('./support/mcp-process.js')
  return requireBuiltCli()
}
