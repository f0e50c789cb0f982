import { otelSignals } from '../telemetry-settings.js'
import { globalFlags, parseFlags, serverOptions, UsageError, type GlobalFlags } from './arguments.js'
import { exitCodes, serveHelp } from './help.js'
import type { CliIo } from './io.js'

/**
 * `codeseam serve`: the shared daemon (src/daemon/serve.ts) with its flags. Started by hand, its flags are a
 * ceiling for every session (trust, edits, roots); started by `codeseam mcp --daemon auto` (the internal
 * `--auto` flag) it sets none, says `ready` on stdout once it listens, and exits after its idle period.
 */

/** `--idle-timeout SECONDS` → ms (0: never). */
export function idleTimeoutFlag(text: string | undefined, fallbackMs: number, command: string): number {
  if (text === undefined) return fallbackMs
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) {
    throw new UsageError(`--idle-timeout must be a number of seconds (0: never), got "${text}"`, command)
  }
  return Math.round(value * 1000)
}

function hostPort(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(text) ?? /^()()(\d+)$/.exec(text)
  const port = Number(match?.[3])
  if (match === null || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--http must be HOST:PORT or PORT (e.g. 127.0.0.1:7777), got "${text}"`, 'serve')
  }
  const host = match[1] ?? match[2] ?? ''
  return { host: host === '' ? '127.0.0.1' : host, port }
}

/** Runs `codeseam serve ARGS` until the daemon stops; resolves to the exit code. */
export async function runServe(args: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const options = {
    ...serverOptions,
    socket: { type: 'string' },
    'no-socket': { type: 'boolean' },
    http: { type: 'string' },
    'token-file': { type: 'string' },
    'allowed-origin': { type: 'string', multiple: true },
    'allowed-host': { type: 'string', multiple: true },
    'idle-timeout': { type: 'string' },
    auto: { type: 'boolean' },
  } as const
  const values = parseFlags('serve', args, options).values
  if (values.help === true) {
    io.stdout.write(`${serveHelp()}\n`)
    return exitCodes.ok
  }
  const globals = globalFlags(values, 'serve')
  const auto = values.auto === true
  if (values['read-only'] === true && values['allow-edits'] === true)
    throw new UsageError('--read-only and --allow-edits exclude each other', 'serve')
  if (values['no-socket'] === true && values.http === undefined)
    throw new UsageError('--no-socket needs --http: the daemon must listen somewhere', 'serve')
  if (values['token-file'] !== undefined && values.http === undefined) throw new UsageError('--token-file is for --http', 'serve')
  const { checkRootFolder } = await import('../roots.js')
  const roots = globals.roots.map((root) => checkRootFolder(root))
  // Before the daemon, so every session's spans are exported; flushed once it has stopped.
  const telemetry =
    otelSignals(globals.otel, io.env) === undefined
      ? undefined
      : await (await import('../telemetry-export.js')).startTelemetryExport({ ...globals.otel, env: io.env })
  try {
    return await serveDaemon(values, globals, roots, auto, io)
  } finally {
    await telemetry?.shutdown()
  }
}

async function serveDaemon(
  values: {
    readonly 'no-socket'?: boolean
    readonly socket?: string
    readonly http?: string
    readonly 'token-file'?: string
    readonly 'allowed-origin'?: string[]
    readonly 'allowed-host'?: string[]
    readonly 'idle-timeout'?: string
    readonly 'read-only'?: boolean
    readonly 'allow-edits'?: boolean
  },
  globals: GlobalFlags,
  roots: ReadonlyArray<string>,
  auto: boolean,
  io: CliIo,
): Promise<number> {
  const { startDaemon } = await import('../daemon/serve.js')
  const daemon = await startDaemon({
    ...(values['no-socket'] === true ? { socket: false as const } : values.socket === undefined ? {} : { socket: values.socket }),
    ...(values.http === undefined ? {} : { http: hostPort(values.http) }),
    ...(values['token-file'] === undefined ? {} : { tokenFile: values['token-file'] }),
    ...(values['allowed-origin'] === undefined ? {} : { allowedOrigins: values['allowed-origin'] }),
    ...(values['allowed-host'] === undefined ? {} : { allowedHosts: values['allowed-host'] }),
    idleTimeoutMs: idleTimeoutFlag(values['idle-timeout'], 0, 'serve'),
    ...(globals.config === undefined ? {} : { configFile: globals.config }),
    limits: globals.limits,
    envAllow: globals.envAllow,
    otel: globals.otel,
    ...(globals.index ? {} : { index: false }),
    // By hand, the flags are the most any session gets; auto-started, the sessions' own flags decide.
    ...(auto
      ? {}
      : {
          ceiling: {
            trust: globals.trust ?? 'untrusted',
            edits: values['read-only'] === true ? 'read-only' : values['allow-edits'] === true ? 'allow' : 'ask',
            ...(roots.length === 0 ? {} : { roots }),
          },
        }),
    ...(roots.length === 0 ? {} : { defaultRoots: roots }),
  })
  if (auto) {
    // The relay that started this daemon may be gone already (its client left at once): a closed pipe must not end it.
    process.stdout.on('error', () => {})
    io.stdout.write(`ready ${daemon.socketPath ?? daemon.url ?? ''}\n`)
  }
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
  const onSignal = (signal: NodeJS.Signals) => void daemon.close(`received ${signal}`)
  for (const signal of signals) process.on(signal, onSignal)
  const reason = await daemon.closed
  for (const signal of signals) process.off(signal, onSignal)
  io.stderr.write(`codeseam serve: stopped (${reason})\n`)
  return exitCodes.ok
}
