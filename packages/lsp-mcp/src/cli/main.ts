import { realpathSync } from 'node:fs'

import { projectRootMarkers } from '@codeseam/lsp-local'
import { callTool, toolContext, type ToolOutcome } from '@codeseam/tool-lsp'
import { MutationSession, type ApprovalPolicy } from '@codeseam/tool-lsp-mutate'

import { followCallProgress } from '../progress.js'
import { serverInfo } from '../server-info.js'
import { openSession } from '../session.js'
import { otelSignals } from '../telemetry-settings.js'
import { collectTools } from '../tool-set.js'
import { parseCommand, UsageError, type GlobalFlags } from './arguments.js'
import { reportCliError, type CliIo } from './io.js'
import { commandName, toolCommand, type ToolCommand } from './flags.js'
import { commandHelp, exitCodes, mainHelp } from './help.js'
import { daemonLine, runDaemon } from './daemon-command.js'
import { runDoctor, runInstall } from './languages-command.js'
import { runIndex } from './index-command.js'
import { runMcp } from './mcp-command.js'
import { runServe } from './serve-command.js'
import { humanOutcome, jsonOutcome, note, useColor } from './output.js'
import { progressLine } from './progress-line.js'
import { commandLinePath, discoverRoot, rootNote } from './root-discovery.js'
import { forOneShot, inCliWords, isUsageFailure } from './cli-words.js'

/**
 * The `codeseam` command line. Thin on purpose: it maps flags to a tool's input, runs the tool through the
 * same `callTool` the MCP server uses, and renders the outcome. It has no code intelligence of its own.
 */

export type { CliIo } from './io.js'

/**
 * The exit code of an outcome. Mutating tools report a change that was not written (denied, refused,
 * conflict, failed) as a failure carrying its receipt, so "not ok" covers those too.
 */
export function exitCodeOf(outcome: ToolOutcome): number {
  if (outcome.ok) return introducedErrors(outcome.structured) ? exitCodes.introducedErrors : exitCodes.ok
  if (isUsageFailure(outcome)) return exitCodes.usage
  return outcome.error.code === 'CANCELLED' ? exitCodes.interrupted : exitCodes.failed
}

/** Whether a mutating tool's result is a written change whose after-edit diagnostics hold introduced errors. */
function introducedErrors(structured: unknown): boolean {
  const receipt = (
    structured as { receipt?: { status?: unknown; diagnostics?: { introduced?: ReadonlyArray<{ severity?: unknown }> } } } | null
  )?.receipt
  return receipt?.status === 'applied' && (receipt.diagnostics?.introduced ?? []).some((d) => d.severity === 'error')
}

/** The CLI's approval policy: the person typed the command, so previewable changes apply; explicit ones need --yes. */
export function cliApprovalPolicy(yes: boolean): ApprovalPolicy {
  return {
    autoApprove: true,
    approve: () =>
      yes
        ? 'approve'
        : { decision: 'deny', reason: 'this change needs an explicit yes: run it again with --yes (or --dry-run to preview)' },
  }
}

async function runToolCommand(command: ToolCommand, globals: GlobalFlags, input: Record<string, unknown>, io: CliIo): Promise<number> {
  const color = useColor(io.stdout, globals.color, io.env)
  const errorColor = useColor(io.stderr, globals.color, io.env)
  // Before the session, so its server spans are exported too; flushed after it is disposed (nothing lost at exit).
  const telemetry = await startCommandTelemetry(globals, io)
  try {
    return await runWithSession(command, globals, input, io, color, errorColor)
  } finally {
    await telemetry?.shutdown()
  }
}

/** Export for one command, when asked for (the SDK is loaded only then). */
async function startCommandTelemetry(globals: GlobalFlags, io: CliIo) {
  if (otelSignals(globals.otel, io.env) === undefined) return undefined
  const { startTelemetryExport } = await import('../telemetry-export.js')
  return startTelemetryExport({ ...globals.otel, env: io.env })
}

async function runWithSession(
  command: ToolCommand,
  globals: GlobalFlags,
  input: Record<string, unknown>,
  io: CliIo,
  color: boolean,
  errorColor: boolean,
): Promise<number> {
  // Without --root: the enclosing repository or project, as an editor opens it (root-discovery.ts).
  const discovered = globals.roots.length > 0 ? undefined : discoverRoot(io.cwd, projectRootMarkers())
  const session = await openSession({
    roots: discovered === undefined ? globals.roots : [discovered.root],
    ...(globals.config === undefined ? {} : { configFile: globals.config }),
    ...(globals.trust === undefined ? {} : { trust: globals.trust }),
    limits: globals.limits,
    envAllow: globals.envAllow,
    index: globals.index,
  })
  const said = discovered === undefined ? undefined : rootNote(discovered, io.cwd)
  if (said !== undefined && !globals.quiet && !globals.json) io.stderr.write(note(said, errorColor))
  const workspaceRoot = session.roots[0]?.root
  const positional = command.positional?.path
  if (workspaceRoot !== undefined && positional !== undefined)
    rewritePath(input, positional, (path) => commandLinePath(path, canonical(io.cwd), workspaceRoot))
  const line = progressLine(io.stderr, { quiet: globals.quiet || globals.json })
  const progress = followCallProgress(session.lsp, session.roots, (report) => line.report(report))
  const controller = new AbortController()
  const onInterrupt = () => controller.abort(new Error('interrupted'))
  io.interrupt?.addEventListener('abort', onInterrupt, { once: true })
  try {
    // The command's tool bound to a session with the CLI's approval policy (the listed one only describes it).
    const tool =
      collectTools({ mutations: new MutationSession(cliApprovalPolicy(globals.yes)) }).find((t) => t.name === command.tool.name) ??
      command.tool
    const context = toolContext(session.lsp, {
      signal: controller.signal,
      roots: session.roots.map((r) => r.root),
      onProgress: progress.onProgress,
    })
    const outcome = await callTool(tool, input, context)
    line.done()
    if (globals.json) io.stdout.write(jsonOutcome(outcome))
    else {
      const root = session.roots[0]?.root ?? io.cwd
      // A failure's words name the flags; an answer's text is the code's own (never rewritten) but for the receipt's hint.
      const said = outcome.ok
        ? { ...outcome, text: forOneShot(outcome.text) }
        : { ...outcome, text: forOneShot(inCliWords(outcome.text, command)) }
      if (said.ok) io.stdout.write(humanOutcome(said, root, io.cwd, color))
      else io.stderr.write(humanOutcome(said, root, io.cwd, errorColor))
      if (isUsageFailure(outcome)) io.stderr.write(note(`Run \`codeseam ${command.name} --help\` for usage.`, errorColor))
      if (outcome.ok && command.tool.name === 'code_status') io.stdout.write(`${await daemonLine(io)}\n`)
    }
    if (!outcome.ok && outcome.error.code === 'UNTRUSTED' && !globals.json) {
      io.stderr.write(
        note('hint: the workspace is untrusted (the default); if you have vetted it, run again with --trust trusted', errorColor),
      )
    }
    const code = exitCodeOf(outcome)
    io.exitCode?.(code)
    return code
  } finally {
    line.done()
    progress.dispose()
    io.interrupt?.removeEventListener('abort', onInterrupt)
    await session.dispose()
  }
}

function canonical(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** Rewrites the string at `path` in a tool input, when there is one. */
function rewritePath(input: Record<string, unknown>, path: ReadonlyArray<string>, rewrite: (value: string) => string): void {
  let at: Record<string, unknown> | undefined = input
  for (const key of path.slice(0, -1)) at = at?.[key] as Record<string, unknown> | undefined
  const last = path[path.length - 1]
  if (at !== undefined && last !== undefined && typeof at[last] === 'string') at[last] = rewrite(at[last] as string)
}

/** Runs one command line (without the `node` and script arguments); resolves to the exit code. */
export async function runCli(argv: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const tools = collectTools()
  const [name, ...rest] = argv
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(`${mainHelp(tools.map((t) => ({ command: commandName(t), title: t.title, readOnly: t.hints.readOnly })))}\n`)
      return name === undefined ? exitCodes.usage : exitCodes.ok
    }
    if (name === '--version' || name === '-v') {
      io.stdout.write(`${serverInfo.version}\n`)
      return exitCodes.ok
    }
    if (name === 'mcp')
      return await runMcp(
        rest,
        io,
        tools.map((t) => t.name),
      )
    if (name === 'serve') return await runServe(rest, io)
    if (name === 'doctor') return await runDoctor(rest, io)
    if (name === 'install') return await runInstall(rest, io)
    if (name === 'index') return await runIndex(rest, io)
    if (name === 'daemon') return await runDaemon(rest, io)
    const tool = tools.find((t) => commandName(t) === name || t.name === name)
    if (tool === undefined)
      throw new UsageError(
        `unknown command "${name}" (commands: mcp, serve, daemon, doctor, install, index, ${tools.map(commandName).join(', ')})`,
      )
    // Flags come from the tool's input schema, derived only for the command that runs.
    const command = toolCommand(tool)
    const { globals, input } = parseCommand(command, rest)
    if (globals.help) {
      io.stdout.write(`${commandHelp(command)}\n`)
      return exitCodes.ok
    }
    return await runToolCommand(command, globals, input, io)
  } catch (error) {
    return reportCliError(error, io, argv)
  }
}
