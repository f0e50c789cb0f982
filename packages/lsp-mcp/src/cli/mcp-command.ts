import { parseArgs } from 'node:util'

import { otelSignals } from '../telemetry-settings.js'
import { loadToolManifest } from '../tool-manifest.js'
import { globalFlags, serverOptions, parseError, UsageError, type GlobalFlags } from './arguments.js'
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
  let parsed
  try {
    parsed = parseArgs({
      args: [...args],
      options,
      strict: true,
      allowPositionals: false,
    })
  } catch (error) {
    throw parseError(error, 'mcp', Object.keys(options))
  }
  const values = parsed.values
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
  if (daemon === 'auto') {
    const server = await startProxyOrNull(args, values, globals, io, idleTimeoutMs)
    if (server !== undefined) {
      const reason = await server.closed
      io.stderr.write(`codeseam mcp: stopped (${reason})\n`)
      return exitCodes.ok
    }
  }
  // In this process (not in a relay: the daemon exports its own): before the server, flushed after it stops.
  const telemetry =
    otelSignals(globals.otel, io.env) === undefined
      ? undefined
      : await (await import('../telemetry-export.js')).startTelemetryExport({ ...globals.otel, env: io.env })
  try {
    return await serveInProcess(values, globals, io)
  } finally {
    await telemetry?.shutdown()
  }
}

async function serveInProcess(
  values: { readonly 'read-only'?: boolean; readonly 'allow-edits'?: boolean; readonly 'disable-tool'?: string[] },
  globals: GlobalFlags,
  io: CliIo,
): Promise<number> {
  // Loaded on demand: one-shot commands never pay for the MCP SDK.
  const { startMcpServer } = await import('../stdio-server.js')
  const server = await startMcpServer({
    // Without --root: the client's roots (MCP roots/list), or the working folder when it has none.
    ...(globals.roots.length > 0 ? { roots: globals.roots } : {}),
    cwd: io.cwd,
    ...(globals.config === undefined ? {} : { configFile: globals.config }),
    ...(globals.trust === undefined ? {} : { trust: globals.trust }),
    limits: globals.limits,
    envAllow: globals.envAllow,
    readOnly: values['read-only'] === true,
    allowEdits: values['allow-edits'] === true,
    ...(values['disable-tool'] === undefined ? {} : { disable: values['disable-tool'] }),
  })
  const reason = await server.closed
  io.stderr.write(`codeseam mcp: stopped (${reason})\n`)
  return exitCodes.ok
}

/** The flags that set limits, as given (passed on to a daemon this command starts). */
function limitFlags(args: ReadonlyArray<string>): string[] {
  const names = ['--max-servers', '--server-memory-mb', '--node-heap-mb', '--max-open-documents', '--max-file-bytes', '--max-line-length']
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
 * `--daemon auto`: the stdio proxy to the user's daemon. When the daemon cannot be reached or started (a
 * refused runtime folder, a failed start), says why on stderr and returns undefined: the caller serves in
 * this process instead, so a client is never left without a server.
 */
async function startProxyOrNull(
  args: ReadonlyArray<string>,
  values: { readonly 'read-only'?: boolean; readonly 'allow-edits'?: boolean; readonly 'disable-tool'?: string[] },
  globals: GlobalFlags,
  io: CliIo,
  idleTimeoutMs: number,
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
      },
      idleTimeoutMs,
    })
  } catch (error) {
    io.stderr.write(
      `codeseam mcp: the shared daemon is not available (${error instanceof Error ? error.message : String(error)}); serving in this process\n`,
    )
    return undefined
  }
}
