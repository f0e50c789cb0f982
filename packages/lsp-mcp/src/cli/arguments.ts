import { parseArgs, type ParseArgsConfig } from 'node:util'

import type { HostConfig } from '@codeseam/lsp-local'

import { checkOtelEndpoint, type OtelFlags } from '../telemetry-settings.js'
import type { FlagSpec, ToolCommand } from './flags.js'

/** The resource limits a command line can set (lsp-local's `limits` config). */
export type LimitFlags = NonNullable<HostConfig['limits']>

/**
 * Turns a command line into a tool input: `node:util` parseArgs with the flags derived from the tool's
 * schema plus the global flags, then each flag's text converted to the JSON type the schema names. Anything
 * that does not parse is a {@link UsageError} (exit code 2); whether the values make sense is the tool's call.
 */

/** A command line that cannot be understood: wrong flag, missing value, bad number. Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
  constructor(
    message: string,
    /** The command whose help to point at. */
    readonly command?: string,
  ) {
    super(message)
  }
}

/**
 * Node's argument-parser error, said in the CLI's words: which flag, and what to do (the closest flag for a
 * misspelt one).
 */
export function parseError(error: unknown, command: string, flags: ReadonlyArray<string>): UsageError {
  const { code, message } = error as { code?: string; message: string }
  const quoted = /'(-{1,2}[^' ]+)/.exec(message)?.[1]
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) {
    const name = quoted.replace(/^-+/, '').split('=')[0] ?? ''
    const closest = flags
      .map((flag) => ({ flag, distance: editDistance(name, flag) }))
      .filter((f) => f.distance <= Math.max(1, Math.floor(name.length / 3)))
      .sort((a, b) => a.distance - b.distance)[0]
    return new UsageError(`unknown flag ${quoted}${closest === undefined ? '' : ` (did you mean --${closest.flag}?)`}`, command)
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
    return new UsageError(/does not take an argument/.test(message) ? `${quoted} takes no value` : `${quoted} needs a value`, command)
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const argument = /'([^']*)'/.exec(message)?.[1]
    return new UsageError(`unexpected argument${argument === undefined ? '' : ` "${argument}"`}: ${command} takes only flags`, command)
  }
  return new UsageError(message.replace(/^TypeError \[[A-Z_]+\]: /, ''), command)
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length] ?? 0
}

/** Flags every command takes. */
export interface GlobalFlags {
  readonly roots: ReadonlyArray<string>
  readonly config?: string
  readonly trust?: 'trusted' | 'untrusted'
  /** Resource limits from --max-servers, --server-memory-mb, --memory-budget-mb, --node-heap-mb, --max-open-documents, --max-file-bytes, --max-line-length. */
  readonly limits: LimitFlags
  /** Host environment variables servers may see (--env-allow, repeatable). */
  readonly envAllow: ReadonlyArray<string>
  /** Answer from a stored index of the root when there is one (RFC 0034); false with --no-index. */
  readonly index: boolean
  readonly json: boolean
  readonly help: boolean
  /** Approve changes that need an explicit yes (deletes, overwrites, server commands). */
  readonly yes: boolean
  /** No progress lines on stderr. */
  readonly quiet: boolean
  readonly color?: boolean
  /** OpenTelemetry export: --otel-endpoint, --otel-include-paths. */
  readonly otel: OtelFlags
}

type FlagOptions = NonNullable<ParseArgsConfig['options']>

/** A parseArgs call with `options`, strict, without positional arguments. */
type FlagsOnly<O extends FlagOptions> = { args: string[]; options: O; strict: true; allowPositionals: false }

/** A command's flags parsed strictly, with no positional arguments; a parse error is the CLI's usage error. */
export function parseFlags<O extends FlagOptions>(
  command: string,
  args: ReadonlyArray<string>,
  options: O,
): ReturnType<typeof parseArgs<FlagsOnly<O>>> {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false })
  } catch (error) {
    throw parseError(error, command, Object.keys(options))
  }
}

/** The global flags' parseArgs options (shared with `codeseam mcp`). */
export const globalOptions = {
  root: { type: 'string', multiple: true },
  config: { type: 'string' },
  trust: { type: 'string' },
  'max-servers': { type: 'string' },
  'server-memory-mb': { type: 'string' },
  'memory-budget-mb': { type: 'string' },
  'node-heap-mb': { type: 'string' },
  'max-open-documents': { type: 'string' },
  'max-file-bytes': { type: 'string' },
  'max-line-length': { type: 'string' },
  'env-allow': { type: 'string', multiple: true },
  'no-index': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  yes: { type: 'boolean', short: 'y' },
  quiet: { type: 'boolean', short: 'q' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  'otel-endpoint': { type: 'string' },
  'otel-include-paths': { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>

/** The flags of the commands that serve (`mcp`, `serve`): the roots, trust, limits and edit mode of what they serve. */
export const serverOptions = {
  root: globalOptions.root,
  config: globalOptions.config,
  trust: globalOptions.trust,
  'max-servers': globalOptions['max-servers'],
  'server-memory-mb': globalOptions['server-memory-mb'],
  'memory-budget-mb': globalOptions['memory-budget-mb'],
  'node-heap-mb': globalOptions['node-heap-mb'],
  'max-open-documents': globalOptions['max-open-documents'],
  'max-file-bytes': globalOptions['max-file-bytes'],
  'max-line-length': globalOptions['max-line-length'],
  'env-allow': globalOptions['env-allow'],
  'no-index': globalOptions['no-index'],
  'otel-endpoint': globalOptions['otel-endpoint'],
  'otel-include-paths': globalOptions['otel-include-paths'],
  help: globalOptions.help,
  'read-only': { type: 'boolean' },
  'allow-edits': { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>

type ParsedValues = Record<string, string | boolean | Array<string | boolean> | undefined>

/** Reads the global flags out of parsed values. */
export function globalFlags(values: ParsedValues, command?: string): GlobalFlags {
  const trust = values.trust
  if (trust !== undefined && trust !== 'trusted' && trust !== 'untrusted') {
    throw new UsageError(`--trust must be "trusted" or "untrusted", got "${String(trust)}"`, command)
  }
  const roots = (values.root as string[] | undefined) ?? []
  const count = (flag: string, min: number): number | undefined => {
    const text = values[flag]
    if (text === undefined) return undefined
    const value = Number(text)
    if (typeof text !== 'string' || !Number.isInteger(value) || value < min) {
      throw new UsageError(`--${flag} must be a whole number of at least ${min}, got "${String(text)}"`, command)
    }
    return value
  }
  const maxServers = count('max-servers', 1)
  const memoryMb = count('server-memory-mb', 0)
  const budgetMb = count('memory-budget-mb', 0)
  const heapMb = count('node-heap-mb', 0)
  const maxOpenDocuments = count('max-open-documents', 1)
  const maxFileBytes = count('max-file-bytes', 0)
  const maxLineLength = count('max-line-length', 0)
  const limits: LimitFlags = {
    ...(maxServers === undefined ? {} : { maxServers }),
    ...(memoryMb === undefined ? {} : { maxServerMemoryBytes: memoryMb * 1024 * 1024 }),
    ...(budgetMb === undefined ? {} : { memoryBudgetBytes: budgetMb * 1024 * 1024 }),
    ...(heapMb === undefined ? {} : { nodeHeapMb: heapMb }),
    ...(maxOpenDocuments === undefined ? {} : { maxOpenDocuments }),
    ...(maxFileBytes === undefined ? {} : { maxFileBytes }),
    ...(maxLineLength === undefined ? {} : { maxLineLength }),
  }
  const endpoint = values['otel-endpoint']
  if (endpoint !== undefined) {
    const wrong = checkOtelEndpoint(String(endpoint))
    if (wrong !== undefined) throw new UsageError(wrong, command)
  }
  return {
    roots,
    ...(typeof values.config === 'string' ? { config: values.config } : {}),
    ...(trust === undefined ? {} : { trust }),
    limits,
    envAllow: (values['env-allow'] as string[] | undefined) ?? [],
    index: values['no-index'] !== true,
    json: values.json === true,
    help: values.help === true,
    yes: values.yes === true,
    quiet: values.quiet === true,
    ...(values['no-color'] === true ? { color: false } : values.color === true ? { color: true } : {}),
    otel: {
      ...(typeof endpoint === 'string' ? { endpoint } : {}),
      ...(values['otel-include-paths'] === true ? { includePaths: true } : {}),
    },
  }
}

function convert(spec: FlagSpec, text: string, command: string): unknown {
  switch (spec.type) {
    case 'string':
      if (spec.choices !== undefined && !spec.choices.includes(text)) {
        throw new UsageError(`--${spec.flag} must be one of ${spec.choices.join(', ')}; got "${text}"`, command)
      }
      return text
    case 'integer':
    case 'number': {
      const value = Number(text)
      if (text.trim() === '' || !Number.isFinite(value) || (spec.type === 'integer' && !Number.isInteger(value))) {
        throw new UsageError(`--${spec.flag} needs ${spec.type === 'integer' ? 'a whole number' : 'a number'}; got "${text}"`, command)
      }
      return value
    }
    case 'json':
      try {
        return JSON.parse(text) as unknown
      } catch {
        throw new UsageError(
          `--${spec.flag} needs JSON (e.g. '{"start":{"line":1,"column":1},"end":{"line":2,"column":1}}'); got ${text}`,
          command,
        )
      }
    default:
      return text
  }
}

function setPath(target: Record<string, unknown>, path: ReadonlyArray<string>, value: unknown): void {
  let node = target
  for (const key of path.slice(0, -1)) {
    const next = node[key]
    if (next === null || typeof next !== 'object') node[key] = {}
    node = node[key] as Record<string, unknown>
  }
  const last = path[path.length - 1]
  if (last !== undefined) node[last] = value
}

/** What parsing one command line gives. */
export interface ParsedCommand {
  readonly globals: GlobalFlags
  /** The tool input built from the flags (not yet decoded by the tool). */
  readonly input: Record<string, unknown>
}

/** Parses the arguments after the command name. */
export function parseCommand(command: ToolCommand, args: ReadonlyArray<string>): ParsedCommand {
  const options: NonNullable<ParseArgsConfig['options']> = { ...globalOptions }
  for (const spec of command.flags) {
    if (spec.flag in options) continue
    options[spec.flag] = spec.type === 'boolean' ? { type: 'boolean' } : { type: 'string', multiple: spec.type === 'strings' }
  }
  let parsed
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true })
  } catch (error) {
    throw parseError(error, command.name, Object.keys(options))
  }
  const values = parsed.values as ParsedValues
  const globals = globalFlags(values, command.name)
  const input: Record<string, unknown> = {}
  const positionals = parsed.positionals
  if (positionals.length > (command.positional === undefined ? 0 : 1)) {
    throw new UsageError(`unexpected argument "${positionals[command.positional === undefined ? 0 : 1]}"`, command.name)
  }
  if (command.positional !== undefined && positionals[0] !== undefined) setPath(input, command.positional.path, positionals[0])
  for (const spec of command.flags) {
    const raw = values[spec.flag]
    if (raw === undefined) continue
    if (spec.type === 'boolean') setPath(input, spec.path, raw === true)
    else if (spec.type === 'strings') setPath(input, spec.path, raw)
    else setPath(input, spec.path, convert(spec, String(raw), command.name))
  }
  if (!globals.help) {
    if (command.positional?.required === true && positionals[0] === undefined) {
      throw new UsageError(`${command.positional.label} is required`, command.name)
    }
    const missing = command.flags.filter((s) => s.required && values[s.flag] === undefined).map((s) => `--${s.flag}`)
    if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}`, command.name)
  }
  return { globals, input }
}
