import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { JSONRPCMessage, ListToolsResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest'

import {
  callTool,
  daemonPidIn,
  languageServersUnder,
  privateRuntimeDir,
  removeDir,
  socketClient,
  textOf,
  waitUntilGone,
} from './support/daemon.js'
import { requireBuiltCli, withDeadline } from './support/mcp-process.js'
import { commandLineOf, isRunning } from './support/processes.js'
import { copyFixture, removeWorkspace } from './support/workspace.js'

// Issue 53: under the default `--daemon auto`, the stdio relay answers `initialize` and `tools/list` itself, at
// once, while it finds or starts the daemon; what it answers is what `--daemon never` answers and what the
// daemon lists for the same flags. When the daemon cannot be had, the relay serves in this process.
// Real processes: the built CLI, the SDK client, a private runtime folder per test.

type Json = any

/** Holds back (or fails) the daemon a relay starts: see the file. */
const gateHook = fileURLToPath(new URL('support/daemon-gate.mjs', import.meta.url))

let root: string
let runtime: string
let scratch: string
const started: Cli[] = []
/** Daemons held back by the gate, killed after each test (they never bound a socket when the test failed first). */
const held: number[] = []

/** `codeseam mcp ARGS` as an MCP client runs it, with the raw answer it gave to `initialize`. */
interface Cli {
  readonly client: Client
  readonly pid: number
  /** The `result` of the server's answer to `initialize`, as it came on stdout. */
  readonly initialize: Json
  stderr(): string
  readonly exited: Promise<void>
  close(): Promise<void>
}

async function cli(args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Cli> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [requireBuiltCli(), 'mcp', ...args],
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), CODESEAM_RUNTIME_DIR: runtime, ...env },
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  // Every message from the server, as it arrives, before the SDK client reads it.
  const received: JSONRPCMessage[] = []
  let handler: ((message: JSONRPCMessage, extra?: unknown) => void) | undefined
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (next: typeof handler) => {
      handler =
        next === undefined
          ? undefined
          : (message, extra) => {
              received.push(message)
              next(message, extra)
            }
    },
  })
  let markExited: () => void = () => {}
  const exited = new Promise<void>((resolve) => (markExited = resolve))
  const client = new Client({ name: 'codeseam-start-e2e', version: '1.0.0' })
  onTestFailed(() => console.error(`codeseam mcp ${args.join(' ')} stderr:\n${stderr}\ndaemon log:\n${daemonLog()}`))
  try {
    await client.connect(transport)
  } catch (error) {
    await transport.close().catch(() => {})
    throw new Error(`codeseam mcp ${args.join(' ')} did not start: ${(error as Error).message}\nstderr:\n${stderr}`, { cause: error })
  }
  const sdkOnClose = transport.onclose
  transport.onclose = () => {
    sdkOnClose?.()
    markExited()
  }
  const pid = transport.pid
  if (pid === null) throw new Error('codeseam mcp has no pid')
  const answer = received.find((message) => 'result' in message && 'protocolVersion' in (message.result as object)) as Json
  const one: Cli = { client, pid, initialize: answer?.result, stderr: () => stderr, exited, close: () => client.close() }
  started.push(one)
  return one
}

/** What `--daemon never` answers with these flags: `initialize` and `tools/list`; the process is closed again. */
async function inProcessAnswers(flags: ReadonlyArray<string>): Promise<{ initialize: Json; tools: ListToolsResult }> {
  const never = await cli(['--daemon', 'never', '--root', root, ...flags])
  const tools = await never.client.listTools()
  await never.close()
  return { initialize: never.initialize, tools }
}

function daemonLog(): string {
  if (runtime === undefined || !existsSync(runtime)) return ''
  return readdirSync(runtime)
    .filter((name) => name.endsWith('.log'))
    .map((name) => readFileSync(nodePath.join(runtime, name), 'utf8'))
    .join('\n')
}

const sockets = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.sock'))

/** The content of a file once something has written it: waits on file-system events, never a timer. */
function writtenFile(path: string, ms = 60_000): Promise<string> {
  const content = () => (existsSync(path) ? readFileSync(path, 'utf8') : '')
  return withDeadline(
    new Promise<string>((resolve) => {
      const watcher = watch(nodePath.dirname(path), () => {
        if (content() !== '') {
          watcher.close()
          resolve(content())
        }
      })
      if (content() !== '') {
        watcher.close()
        resolve(content())
      }
    }),
    ms,
    `${path} to be written`,
  )
}

const typescriptServers = (pid: number) => languageServersUnder(pid).filter((p) => /tsc|typescript/.test(commandLineOf(p)))
const references = (symbol: string) => ({ target: { path: 'src/shapes.ts', symbol }, kind: 'references' })

beforeAll(async () => {
  root = await copyFixture()
})

afterEach(async () => {
  await Promise.all(started.splice(0).map((one) => one.close().catch(() => {})))
  // A daemon still held back (the test failed before opening the gate) has written its pid and waits.
  if (scratch !== undefined && existsSync(nodePath.join(scratch, 'gate.waiting')))
    held.push(Number(readFileSync(nodePath.join(scratch, 'gate.waiting'), 'utf8')))
  for (const pid of held.splice(0)) if (pid > 0 && isRunning(pid)) process.kill(pid, 'SIGKILL')
  // Each test's daemon stops with its runtime folder: SIGTERM it (it stops its servers) and wait.
  if (runtime !== undefined && existsSync(runtime) && sockets(runtime).length > 0) {
    const pid = await daemonPidIn(runtime).catch(() => undefined)
    if (pid !== undefined && isRunning(pid)) {
      process.kill(pid, 'SIGTERM')
      await waitUntilGone([pid])
    }
  }
  if (runtime !== undefined) removeDir(runtime)
  if (scratch !== undefined) removeDir(scratch)
})

afterAll(async () => {
  await removeWorkspace(root)
})

describe('codeseam mcp --daemon auto: initialize and tools/list', () => {
  it.each([
    ['default flags', [] as string[]],
    ['--read-only --disable-tool code_hover', ['--read-only', '--disable-tool', 'code_hover']],
  ])('with %s: the same answers as --daemon never, and the list the daemon gives such a session', async (_, flags) => {
    runtime = privateRuntimeDir()
    const never = await inProcessAnswers(flags)
    const auto = await cli(['--daemon', 'auto', '--root', root, ...flags])
    expect(auto.initialize).toBeDefined()
    expect(auto.initialize).toEqual(never.initialize)
    const tools = await auto.client.listTools()
    expect(tools).toEqual(never.tools)
    const names = tools.tools.map((tool) => tool.name)
    if (flags.includes('--read-only')) {
      expect(names).not.toContain('code_rename')
      expect(names).not.toContain('code_hover')
    } else expect(names).toEqual(expect.arrayContaining(['code_rename', 'code_hover']))

    // A call opens the daemon's session; a client of the daemon's own with the same parameters lists the same.
    const status = await callTool(auto.client, 'code_status', {})
    expect(status.isError, textOf(status)).toBe(false)
    const [socket] = sockets(runtime)
    expect(socket).toBeDefined()
    const direct = await socketClient(nodePath.join(runtime, socket!), {
      root,
      trust: 'untrusted',
      edits: flags.includes('--read-only') ? 'read-only' : 'ask',
      'disable-tool': flags.includes('--disable-tool') ? ['code_hover'] : [],
    })
    try {
      expect(await direct.listTools()).toEqual(tools)
      expect(direct.getServerCapabilities()).toEqual(auto.initialize.capabilities)
      expect(direct.getServerVersion()).toEqual(auto.initialize.serverInfo)
      expect(direct.getInstructions()).toBe(auto.initialize.instructions)
    } finally {
      await direct.close()
    }
  })

  it('answers them while the daemon it started is still starting; the first call waits for the daemon', async () => {
    runtime = privateRuntimeDir()
    scratch = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-gate-'))
    const gate = nodePath.join(scratch, 'gate')
    const never = await inProcessAnswers([])
    // The daemon this relay starts waits for the gate file before it runs: it cannot answer anything until then.
    const auto = await withDeadline(
      cli(['--daemon', 'auto', '--root', root], { NODE_OPTIONS: `--import ${gateHook}`, CODESEAM_DAEMON_GATE: gate }),
      30_000,
      'initialize while the daemon is held back',
    )
    const tools = await withDeadline(auto.client.listTools(), 30_000, 'tools/list while the daemon is held back')
    expect(auto.initialize).toEqual(never.initialize)
    expect(tools).toEqual(never.tools)
    const daemon = Number(await writtenFile(`${gate}.waiting`))
    held.push(daemon)
    // Still held back: the daemon runs, and nothing listens in the runtime folder yet.
    expect(isRunning(daemon)).toBe(true)
    expect(commandLineOf(daemon)).toContain(`serve --auto --socket ${runtime}`)
    expect(sockets(runtime)).toEqual([])
    expect(existsSync(gate)).toBe(false)

    const call = callTool(auto.client, 'code_status', {})
    writeFileSync(gate, '')
    const answer = await call
    expect(answer.isError, textOf(answer)).toBe(false)
    expect(await daemonPidIn(runtime)).toBe(daemon)
    expect(auto.stderr()).toContain(`started the codeseam daemon (pid ${daemon}`)
  })
})

describe('codeseam mcp --daemon auto when the daemon cannot be had', () => {
  it('a runtime folder it must refuse: the session is served in this process, as --daemon never serves it', async () => {
    runtime = privateRuntimeDir()
    const open = nodePath.join(runtime, 'open')
    mkdirSync(open)
    chmodSync(open, 0o777)
    const never = await inProcessAnswers([])
    const auto = await cli(['--daemon', 'auto', '--root', root], { CODESEAM_RUNTIME_DIR: open })
    expect(auto.initialize).toEqual(never.initialize)
    expect(await auto.client.listTools()).toEqual(never.tools)
    const answer = await callTool(auto.client, 'code_navigate', references('Circle'))
    expect(answer.isError, textOf(answer)).toBe(false)
    expect((answer.structuredContent as Json).totalFound).toBeGreaterThan(1)
    expect(auto.stderr()).toMatch(
      /codeseam mcp: the shared daemon is not available \(refusing the daemon folder [^\n]*its mode is 777[^\n]*\); serving in this process\n/,
    )
    // The language server is this process's own; no daemon was started.
    const servers = typescriptServers(auto.pid)
    expect(servers).toHaveLength(1)
    expect(readdirSync(open)).toEqual([])
    // It stops with the client, and its language servers with it.
    await auto.close()
    await withDeadline(auto.exited, 30_000, 'codeseam mcp to exit')
    await waitUntilGone(servers)
    expect(auto.stderr()).toMatch(/codeseam mcp: stopped \([^\n]*language servers stopped in \d+ ms\)/)
  })

  it('a daemon that does not start: the session is served in this process', async () => {
    runtime = privateRuntimeDir()
    const never = await inProcessAnswers([])
    const auto = await cli(['--daemon', 'auto', '--root', root], { NODE_OPTIONS: `--import ${gateHook}`, CODESEAM_DAEMON_FAIL: '1' })
    expect(auto.initialize).toEqual(never.initialize)
    expect(await auto.client.listTools()).toEqual(never.tools)
    const answer = await callTool(auto.client, 'code_navigate', references('Circle'))
    expect(answer.isError, textOf(answer)).toBe(false)
    expect(auto.stderr()).toMatch(
      /codeseam mcp: the shared daemon is not available \(the codeseam daemon did not start \(exit code 3\); see [^\n]*\); serving in this process\n/,
    )
    expect(daemonLog()).toContain('this daemon fails to start, on purpose')
    expect(sockets(runtime)).toEqual([])
    expect(typescriptServers(auto.pid)).toHaveLength(1)
  })

  it('a daemon whose relay left before it said ready keeps running (a closed pipe does not end it)', async () => {
    runtime = privateRuntimeDir()
    const socket = nodePath.join(runtime, 'daemon-left.sock')
    const child = spawn(process.execPath, [requireBuiltCli(), 'serve', '--auto', '--socket', socket, '--idle-timeout', '60'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CODESEAM_RUNTIME_DIR: runtime },
    })
    // The relay is gone: nobody reads the line the daemon writes when it is ready.
    child.stdout.destroy()
    let stderr = ''
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const listening = new Promise<void>((resolve, reject) => {
      child.stderr.setEncoding('utf8')
      child.stderr.on('data', (chunk: string) => {
        stderr += chunk
        if (stderr.includes('codeseam serve: listening')) resolve()
      })
      void exited.then((code) => reject(new Error(`codeseam serve exited (${code}):\n${stderr}`)))
    })
    await withDeadline(listening, 60_000, 'codeseam serve to listen')
    // It still opens sessions after its ready line found no reader.
    const client = await socketClient(socket, { root, trust: 'untrusted', edits: 'ask', 'disable-tool': [] })
    expect((await client.listTools()).tools.length).toBeGreaterThan(0)
    await client.close()
    expect(child.exitCode).toBeNull()
    child.kill('SIGTERM')
    expect(await withDeadline(exited, 30_000, 'codeseam serve to stop')).toBe(0)
    expect(stderr).not.toContain('EPIPE')
    expect(stderr).toMatch(/codeseam serve: stopped \(/)
  })
})
