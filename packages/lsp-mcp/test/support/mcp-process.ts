import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js'

/**
 * Starts the built `codeseam` CLI (`dist/cli.js`) as an MCP server child process and connects the official
 * SDK client to it over stdio, exactly as an MCP client application would.
 */

/** The built CLI; `pnpm build` (or `npx tsup` in packages/lsp-mcp) makes it. */
export const cliPath = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

/** Fails with what to run when the CLI has not been built. */
export function requireBuiltCli(): string {
  if (!existsSync(cliPath)) {
    throw new Error(`${cliPath} does not exist: run \`pnpm build\` at the repository root (or \`npx tsup\` in packages/lsp-mcp) first`)
  }
  return cliPath
}

/** Options for {@link startMcp}. */
export interface StartMcpOptions {
  /** Declare form elicitation and answer each request with this handler. */
  readonly elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>
  readonly cwd?: string
  /** Extra environment variables for the server (the SDK passes only a minimal environment otherwise). */
  readonly env?: Readonly<Record<string, string>>
}

/** A connected server process. */
export interface McpProcess {
  readonly client: Client
  readonly transport: StdioClientTransport
  readonly pid: number
  /** Everything the server wrote to stderr so far. */
  stderr(): string
  /** Resolves when the server process has exited. */
  readonly exited: Promise<void>
  /** Closes the client (stdin end, then the SDK's SIGTERM/SIGKILL fallbacks). */
  close(): Promise<void>
}

/** Starts `codeseam mcp <args>` and connects. */
export async function startMcp(args: ReadonlyArray<string>, options: StartMcpOptions = {}): Promise<McpProcess> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [requireBuiltCli(), 'mcp', ...(args.includes('--daemon') ? [] : ['--daemon', 'never']), ...args],
    stderr: 'pipe',
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: { ...getDefaultEnvironment(), ...options.env } }),
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const client = new Client(
    { name: 'codeseam-e2e', version: '1.0.0' },
    { capabilities: options.elicit === undefined ? {} : { elicitation: { form: {} } } },
  )
  if (options.elicit !== undefined) {
    const elicit = options.elicit
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request))
  }
  let markExited: () => void = () => {}
  const exited = new Promise<void>((resolve) => {
    markExited = resolve
  })
  const previous = transport.onclose
  try {
    await client.connect(transport)
  } catch (error) {
    throw new Error(`codeseam mcp ${args.join(' ')} did not start: ${(error as Error).message}\nstderr:\n${stderr}`, { cause: error })
  }
  const sdkOnClose = transport.onclose
  transport.onclose = () => {
    sdkOnClose?.()
    previous?.()
    markExited()
  }
  const pid = transport.pid
  if (pid === null) throw new Error('the MCP server process has no pid')
  return {
    client,
    transport,
    pid,
    stderr: () => stderr,
    exited,
    close: () => client.close(),
  }
}

/** Rejects with what was awaited when the deadline passes first. Never a sleep: the promise settles it. */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`deadline of ${ms} ms passed waiting for ${what}`)), ms)
  })
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer))
}

/** What one run of the built `codeseam` bin printed, and its exit code. */
export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs the built `codeseam` bin once (no terminal), within a deadline. */
export function runBuiltCli(
  args: ReadonlyArray<string>,
  options: {
    readonly cwd: string
    readonly env: NodeJS.ProcessEnv
    readonly started?: (pid: number) => void
    readonly deadlineMs?: number
  },
): Promise<CliRun> {
  const child = spawn(process.execPath, [requireBuiltCli(), ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (child.pid !== undefined) options.started?.(child.pid)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
  return withDeadline(done, options.deadlineMs ?? 120_000, `codeseam ${args.join(' ')}`)
}
