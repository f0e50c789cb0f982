import type { McpProxyOptions } from '../daemon/proxy.js'
import type { McpServerOptions, RunningMcpServer } from '../stdio-server.js'
import type { TelemetryExport } from '../telemetry-export.js'
import { otelSignals } from '../telemetry-settings.js'
import { loadToolManifest } from '../tool-manifest.js'
import { globalFlags, parseFlags, serverOptions, UsageError, type GlobalFlags } from './arguments.js'
import { exitCodes, mcpHelp } from './help.js'
import type { CliIo } from './io.js'
import { idleTimeoutFlag } from './serve-command.js'

/**
 * `codeseam mcp`: its flags, then the server. Light on purpose: the tools, effect and the language-server
 * host load in the background once the server is connected (see stdio-server.ts), never before `initialize`.
 */

/** Runs `codeseam mcp ARGS` until the server stops; resolves to the exit code (usage and start errors throw). */
export async function runMcp(args: ReadonlyArray<string>, io: CliIo, toolNames?: ReadonlyArray<string>): Promise<number> {
  const options = {
    ...serverOptions,
    'disable-tool': { type: 'string', multiple: true },
    daemon: { type: 'string' },
    'idle-timeout': { type: 'string' },
  } as const
  const values = parseFlags('mcp', args, options).values
  if (values.help === true) {
    io.stdout.write(`${mcpHelp(toolNames ?? (await loadToolManifest()).map((t) => t.name))}\n`)
    return exitCodes.ok
  }
  const globals = globalFlags(values, 'mcp')
  const daemon = values.daemon ?? 'auto'
  if (daemon !== 'auto' && daemon !== 'never') throw new UsageError(`--daemon must be "auto" or "never", got "${daemon}"`, 'mcp')
  if (values['read-only'] === true && values['allow-edits'] === true)
    throw new UsageError('--read-only and --allow-edits exclude each other', 'mcp')
  const idleTimeoutMs = idleTimeoutFlag(values['idle-timeout'], 600_000, 'mcp')
  // In this process (not in a relay: the daemon exports its own): before the server, flushed after it stops.
  let telemetry: Promise<TelemetryExport | undefined> | undefined
  const startTelemetry = () =>
    (telemetry ??=
      otelSignals(globals.otel, io.env) === undefined
        ? Promise.resolve(undefined)
        : import('../telemetry-export.js').then(({ startTelemetryExport }) => startTelemetryExport({ ...globals.otel, env: io.env })))
  try {
    if (daemon === 'auto') {
      // When the daemon cannot be had, the relay serves the session with the server `--daemon never` runs.
      const inProcess: InProcessServer = async (streams) => {
        await startTelemetry()
        return startInProcess(values, globals, io, { ...streams, handleSignals: false })
      }
      const server = await startProxyOrNull(args, values, globals, io, idleTimeoutMs, inProcess)
      if (server !== undefined) {
        const reason = await server.closed
        io.stderr.write(`codeseam mcp: stopped (${reason})\n`)
        return exitCodes.ok
      }
    }
    await startTelemetry()
    const server = await startInProcess(values, globals, io)
    const reason = await server.closed
    io.stderr.write(`codeseam mcp: stopped (${reason})\n`)
    return exitCodes.ok
  } finally {
    await (await telemetry)?.shutdown()
  }
}

type McpValues = { readonly 'read-only'?: boolean; readonly 'allow-edits'?: boolean; readonly 'disable-tool'?: string[] }

/** What `--daemon auto` serves in this process when the daemon cannot be had (see daemon/proxy.ts). */
type InProcessServer = NonNullable<McpProxyOptions['inProcess']>

/** The server of `--daemon never`, on the process's stdio or on the streams given. */
async function startInProcess(
  values: McpValues,
  globals: GlobalFlags,
  io: CliIo,
  streams: Pick<McpServerOptions, 'stdin' | 'stdout' | 'handleSignals'> = {},
): Promise<RunningMcpServer> {
  // Loaded on demand: one-shot commands never pay for the MCP SDK.
  const { startMcpServer } = await import('../stdio-server.js')
  return startMcpServer({
    // Without --root: the client's roots (MCP roots/list), or the working folder when it has none.
    ...(globals.roots.length > 0 ? { roots: globals.roots } : {}),
    cwd: io.cwd,
    ...(globals.config === undefined ? {} : { configFile: globals.config }),
    ...(globals.trust === undefined ? {} : { trust: globals.trust }),
    limits: globals.limits,
    envAllow: globals.envAllow,
    index: globals.index,
    readOnly: values['read-only'] === true,
    allowEdits: values['allow-edits'] === true,
    ...(values['disable-tool'] === undefined ? {} : { disable: values['disable-tool'] }),
    ...streams,
  })
}

/** The flags that set limits, as given (passed on to a daemon this command starts). */
function limitFlags(args: ReadonlyArray<string>): string[] {
  const names = [
    '--max-servers',
    '--server-memory-mb',
    '--memory-budget-mb',
    '--node-heap-mb',
    '--max-open-documents',
    '--max-file-bytes',
    '--max-line-length',
  ]
  const out: string[] = []
  args.forEach((arg, index) => {
    const name = names.find((n) => arg === n || arg.startsWith(`${n}=`))
    if (name === undefined) return
    if (arg === name) out.push(name, args[index + 1] ?? '')
    else out.push(arg)
  })
  return out
}

/**
 * `--daemon auto`: the stdio proxy to the user's daemon. It answers `initialize` and `tools/list` at once and
 * finds or starts the daemon in the background; when the daemon cannot be reached or started (a refused
 * runtime folder, a failed start, another daemon on the socket), it says why on stderr and serves the session
 * with `inProcess`, so a client is never left without a server. When the proxy itself cannot start (its
 * configuration cannot be read), says why and returns undefined: the caller serves in this process instead.
 */
async function startProxyOrNull(
  args: ReadonlyArray<string>,
  values: McpValues,
  globals: GlobalFlags,
  io: CliIo,
  idleTimeoutMs: number,
  inProcess: InProcessServer,
) {
  const [{ startMcpProxy }, { checkRootFolder }, { loadToolManifest: manifest, selectFromManifest }] = await Promise.all([
    import('../daemon/proxy.js'),
    import('../roots.js'),
    import('../tool-manifest.js'),
  ])
  // The checks that refuse to start come first, as in-process: bad roots, unknown tool names.
  const roots = globals.roots.map((root) => checkRootFolder(root))
  selectFromManifest(await manifest(), { ...(values['disable-tool'] === undefined ? {} : { disable: values['disable-tool'] }) })
  try {
    return await startMcpProxy({
      session: {
        ...(roots.length === 0 ? { cwd: io.cwd } : { roots }),
        trust: globals.trust ?? 'untrusted',
        edits: values['read-only'] === true ? 'read-only' : values['allow-edits'] === true ? 'allow' : 'ask',
        disable: values['disable-tool'] ?? [],
      },
      daemon: {
        ...(globals.config === undefined ? {} : { configFile: globals.config }),
        envAllow: globals.envAllow,
        limits: globals.limits,
        limitFlags: limitFlags(args),
        otel: globals.otel,
        ...(globals.index ? {} : { index: false }),
      },
      idleTimeoutMs,
      inProcess,
    })
  } catch (error) {
    io.stderr.write(
      `codeseam mcp: the shared daemon is not available (${error instanceof Error ? error.message : String(error)}); serving in this process\n`,
    )
    return undefined
  }
}
