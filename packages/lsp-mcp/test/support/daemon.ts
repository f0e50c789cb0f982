import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js'

import { unixSocketFetch } from './unix-fetch.js'
import { requireBuiltCli, withDeadline } from './mcp-process.js'
import { commandLineOf, descendantsOf, isRunning } from './processes.js'

/**
 * The shared daemon as tests meet it: a private runtime folder per test file (never the user's daemons),
 * `codeseam serve` as a real child process, SDK clients over its Unix socket or TCP, and `codeseam mcp`
 * stdio proxies with the same runtime folder.
 */

/** A fresh 0700 folder for daemon sockets, tokens and logs. */
export function privateRuntimeDir(): string {
  const dir = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-rt-'))
  chmodSync(dir, 0o700)
  return dir
}

/** A running `codeseam serve`. */
export interface DaemonProcess {
  readonly child: ChildProcess
  readonly pid: number
  readonly socket?: string
  readonly url?: string
  readonly tokenFile?: string
  stderr(): string
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>
  readonly exited: Promise<number | null>
}

/** Starts `codeseam serve ARGS` with `CODESEAM_RUNTIME_DIR=runtime` and waits for its "listening" line. */
export async function startServe(args: ReadonlyArray<string>, runtime: string): Promise<DaemonProcess> {
  const child = spawn(process.execPath, [requireBuiltCli(), 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CODESEAM_RUNTIME_DIR: runtime },
  })
  let stderr = ''
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const listening = new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk
      const line = /codeseam serve: listening[^\n]*\n/.exec(stderr)
      if (line !== null) resolve(line[0])
    })
    void exited.then((code) => reject(new Error(`codeseam serve exited (${code}) before listening:\n${stderr}`)))
  })
  child.stdout.resume()
  const line = await withDeadline(listening, 60_000, 'codeseam serve to listen')
  const socket = /on unix:(\S+?)(?:;| and|\n)/.exec(line)?.[1]
  const url = /(http:\/\/\S+\/mcp)/.exec(line)?.[1]
  const tokenFile = /bearer token in ([^)]+)\)/.exec(line)?.[1]
  const pid = child.pid
  if (pid === undefined) throw new Error('codeseam serve has no pid')
  return {
    child,
    pid,
    ...(socket === undefined ? {} : { socket }),
    ...(url === undefined ? {} : { url }),
    ...(tokenFile === undefined ? {} : { tokenFile }),
    stderr: () => stderr,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await withDeadline(exited, 30_000, 'codeseam serve to stop')
    },
  }
}

/** Options of a test client. */
export interface ClientOptions {
  readonly elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>
  readonly name?: string
}

function newClient(options: ClientOptions): Client {
  const client = new Client(
    { name: options.name ?? 'codeseam-daemon-e2e', version: '1.0.0' },
    { capabilities: options.elicit === undefined ? {} : { elicitation: { form: {} } } },
  )
  if (options.elicit !== undefined) {
    const elicit = options.elicit
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request))
  }
  return client
}

/** An SDK client connected straight to the daemon's socket, with session parameters in the URL query. */
export async function socketClient(socket: string, query: Record<string, string | string[]>, options: ClientOptions = {}): Promise<Client> {
  const client = newClient(options)
  await client.connect(new StreamableHTTPClientTransport(endpoint('http://codeseam/mcp', query), { fetch: unixSocketFetch(socket) }))
  return client
}

/** The endpoint URL with session parameters. */
export function endpoint(base: string, query: Record<string, string | string[]>): URL {
  const url = new URL(base)
  for (const [name, value] of Object.entries(query))
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, one)
  return url
}

/** The bearer token a daemon wrote. */
export function tokenOf(daemon: DaemonProcess): string {
  if (daemon.tokenFile === undefined) throw new Error('the daemon serves no TCP')
  return readFileSync(daemon.tokenFile, 'utf8').trim()
}

/** A `codeseam mcp` stdio proxy (`--daemon auto`) in the runtime folder, connected. */
export interface ProxyProcess {
  readonly client: Client
  readonly pid: number
  stderr(): string
  close(): Promise<void>
}

export async function startProxy(args: ReadonlyArray<string>, runtime: string, options: ClientOptions = {}): Promise<ProxyProcess> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [requireBuiltCli(), 'mcp', '--daemon', 'auto', ...args],
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), CODESEAM_RUNTIME_DIR: runtime },
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const client = newClient(options)
  try {
    await client.connect(transport)
  } catch (error) {
    await transport.close().catch(() => {})
    throw new Error(`codeseam mcp --daemon auto did not start: ${(error as Error).message}\nstderr:\n${stderr}`, { cause: error })
  }
  const pid = transport.pid
  if (pid === null) throw new Error('the proxy has no pid')
  return { client, pid, stderr: () => stderr, close: () => client.close() }
}

/** Calls a tool with a generous timeout (language servers start cold). */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 })) as CallToolResult
}

/** The text of a result. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
}

/** The codeseam error code of a failed result. */
export function errorCodeOf(result: CallToolResult): string | undefined {
  return (result._meta?.['codeseam/error'] as { code?: string } | undefined)?.code
}

/** The language-server processes below a pid (TypeScript's native server, typescript-language-server, pyright). */
export function languageServersUnder(pid: number): number[] {
  return descendantsOf(pid).filter((child) => /--lsp|--stdio|langserver|pyright/.test(commandLineOf(child)) && isRunning(child))
}

/** The pid of the daemon serving a runtime folder's sockets, from its health endpoint. */
export async function daemonPidIn(runtime: string): Promise<number> {
  const { readdirSync } = await import('node:fs')
  const socket = readdirSync(runtime).find((name) => name.endsWith('.sock'))
  if (socket === undefined) throw new Error(`no daemon socket in ${runtime}`)
  const response = await unixSocketFetch(nodePath.join(runtime, socket))('http://codeseam/codeseam/health')
  return ((await response.json()) as { pid: number }).pid
}

/** Waits until none of these processes runs: polls /proc every 20 ms for at most `ms` (a pid that is not our child has no exit event). */
export async function waitUntilGone(pids: ReadonlyArray<number>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms
  while (pids.some(isRunning)) {
    if (Date.now() > deadline) throw new Error(`still running after ${ms} ms: ${pids.filter(isRunning).map(commandLineOf).join('; ')}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
