import { LspError, type LspService, type LspWorkspaceInfo } from '@codeseam/lsp'
import { Schema, SchemaIssue } from 'effect'

/**
 * The neutral tool-definition format: one description of a model-facing tool that every harness format
 * (MCP, OpenAI, Anthropic, plain JSON Schema) is exported from. Tools never see a harness; harnesses never
 * see the seam's protocol shapes.
 */

/** Progress a long-running tool reports (hierarchy walks, workspace diagnostics). */
export interface ToolProgress {
  readonly message: string
  /** Work done so far and the total, when known. */
  readonly done?: number
  readonly total?: number
}

/** What a tool runs with: the seam, cancellation, the workspace roots it may use, and a progress sink. */
export interface ToolContext {
  readonly lsp: LspService
  /** Aborts when the harness cancels the call. */
  readonly signal: AbortSignal
  /** Workspace roots the tool may use (a subset of the open workspaces). Everything else is refused. */
  readonly roots: ReadonlyArray<LspWorkspaceInfo>
  readonly onProgress?: (progress: ToolProgress) => void
}

/** Options for {@link toolContext}. */
export interface ToolContextOptions {
  readonly signal?: AbortSignal
  /** Root paths or workspace ids to allow; default: every workspace open in `lsp` when the tool runs. */
  readonly roots?: ReadonlyArray<string>
  readonly onProgress?: (progress: ToolProgress) => void
}

/** Builds a {@link ToolContext}. Unknown roots fail with NOT_FOUND so a typo is not a silent empty scope. */
export function toolContext(lsp: LspService, options: ToolContextOptions = {}): ToolContext {
  const open = lsp.workspaces()
  const fixed = options.roots?.map((wanted) => {
    const workspace = lsp.workspace(wanted)
    if (workspace === undefined) {
      throw new LspError(
        'NOT_FOUND',
        `no open workspace is "${wanted}" (open: ${open.map((w) => `${w.id} (${w.root})`).join(', ') || 'none'})`,
      )
    }
    return { id: workspace.id, root: workspace.root }
  })
  return {
    lsp,
    signal: options.signal ?? new AbortController().signal,
    // Without an explicit list, a workspace opened after the context was made is still usable.
    get roots() {
      return fixed ?? lsp.workspaces()
    },
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  }
}

/** Hints harnesses use to decide on approval and parallelism (MCP tool annotations use the same words). */
export interface ToolHints {
  /** The tool never changes anything. */
  readonly readOnly: boolean
  /** The tool may destroy or overwrite something (deleting files, rewriting code). */
  readonly destructive: boolean
  /** Calling it twice with the same arguments has no further effect. */
  readonly idempotent: boolean
  /** The tool reaches outside the workspace (network, other systems). */
  readonly openWorld: boolean
}

/**
 * A model-facing tool. `input` and `output` are Effect Schemas of plain JSON data; exporters derive every
 * harness format from them.
 */
export interface ToolDefinition<I = unknown, O = unknown> {
  /** Stable name models call, `^[a-z][a-z0-9_]{0,63}$` (valid for MCP, OpenAI and Anthropic alike). */
  readonly name: string
  /** A short human title for UIs. */
  readonly title: string
  /** Written for a model: what it answers, when to use it instead of grep or reading files, what comes back. */
  readonly description: string
  readonly input: Schema.Codec<I, unknown>
  readonly output: Schema.Codec<O, unknown>
  readonly hints: ToolHints
  /** Runs the tool on decoded arguments. Throws LspError for every failure; never returns a failure as data. */
  execute(input: I, context: ToolContext): Promise<O>
  /** One line for UIs: "12 references · 4 files", "2 errors, 1 warning". */
  summary(result: O): string
  /** The rendered text form for harnesses that pass text to the model. Budgeting happens in the envelope. */
  render(result: O): string
}

/** Any tool, for collections. */
// Tools of different shapes live in one list; each is precisely typed where it is defined.
export type AnyTool = ToolDefinition<any, any>

const toolNamePattern = /^[a-z][a-z0-9_]{0,63}$/

/** Checks a definition once and returns it: a bad name or empty description fails at module load, not in a harness. */
export function defineTool<I, O>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> {
  if (!toolNamePattern.test(tool.name)) {
    throw new LspError('INVALID_ARGUMENT', `tool name "${tool.name}" must match ${toolNamePattern.source}`)
  }
  if (tool.title.trim().length === 0 || tool.description.trim().length === 0) {
    throw new LspError('INVALID_ARGUMENT', `tool "${tool.name}" needs a title and a description written for a model`)
  }
  if (tool.hints.readOnly && tool.hints.destructive) {
    throw new LspError('INVALID_ARGUMENT', `tool "${tool.name}" cannot be both readOnly and destructive`)
  }
  return Object.freeze({ ...tool })
}

// ---------------------------------------------------------------------------------------------------------
// Argument decoding

/** One problem with the arguments a model sent. `path` is dotted (`target.line`, `items[2].name`). */
export interface ArgumentIssue {
  readonly path: string
  readonly message: string
}

const issueFormatter = SchemaIssue.makeFormatterStandardSchemaV1()
const jsonCodecs = new WeakMap<object, Schema.Codec<unknown, unknown>>()

function jsonCodecOf<I>(schema: Schema.Codec<I, unknown>): Schema.Codec<I, unknown> {
  let codec = jsonCodecs.get(schema)
  if (codec === undefined) {
    // The JSON codec accepts null for optional fields, which OpenAI strict mode sends for "absent".
    codec = Schema.toCodecJson(schema) as Schema.Codec<unknown, unknown>
    jsonCodecs.set(schema, codec)
  }
  return codec as Schema.Codec<I, unknown>
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out.length === 0 ? String(key) : `.${String(key)}`
  }
  return out
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): { found: boolean; value?: unknown } {
  let current: unknown = input
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !(key in current)) return { found: false }
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return { found: true, value: current }
}

function describeValue(value: unknown): string {
  const json = JSON.stringify(value)
  if (json === undefined) return String(value)
  return json.length > 60 ? `${json.slice(0, 57)}...` : json
}

function propertyNames(schema: Schema.Top): ReadonlyArray<string> {
  const ast = schema.ast
  return ast._tag === 'Objects' ? ast.propertySignatures.map((p) => String(p.name)) : []
}

/** Rewrites the schema library's phrasing into a sentence a model acts on. */
function explainIssue(
  toolName: string,
  schema: Schema.Top,
  input: unknown,
  path: ReadonlyArray<PropertyKey>,
  message: string,
): ArgumentIssue {
  const where = formatPath(path)
  if (message === 'Missing key') return { path: where, message: `${where} is required` }
  if (message === 'Expected no excess property') {
    const parent = path.length <= 1 ? propertyNames(schema) : []
    const known = parent.length > 0 ? ` (${toolName} takes: ${parent.join(', ')})` : ''
    return { path: where, message: `${where} is not a parameter${known}` }
  }
  const received = valueAt(input, path)
  const expected = message.replace(/^Expected /, 'expected ')
  const got = received.found ? `, got ${describeValue(received.value)}` : ''
  return { path: where, message: `${where === '' ? 'arguments' : where}: ${expected}${got}` }
}

/**
 * Decodes raw arguments from a model (JSON) into a tool's input. Failures are INVALID_ARGUMENT with one
 * line per problem naming the field and what was expected; `data.issues` has them structured.
 */
export function decodeToolInput<I>(tool: Pick<ToolDefinition<I, unknown>, 'name' | 'input'>, args: unknown): I {
  // Harnesses send `undefined` or `null` for a tool without arguments.
  const raw = args === undefined || args === null ? {} : args
  const invalid = (issues: ArgumentIssue[]) =>
    new LspError('INVALID_ARGUMENT', `invalid arguments for ${tool.name}:\n${issues.map((i) => `- ${i.message}`).join('\n')}`, {
      data: { tool: tool.name, issues },
    })
  // Tool arguments are always a JSON object (MCP, OpenAI and Anthropic all send one).
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalid([{ path: '', message: `arguments must be a JSON object, got ${describeValue(raw)}` }])
  }
  // The schema library reads an empty struct as "any object", so excess properties need this check.
  const ast = tool.input.ast
  if (ast._tag === 'Objects' && ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    const extra = Object.keys(raw)
    if (extra.length > 0) throw invalid(extra.map((key) => ({ path: key, message: `${key} is not a parameter (${tool.name} takes none)` })))
  }
  const exit = Schema.decodeUnknownExit(jsonCodecOf(tool.input))(raw, { errors: 'all', onExcessProperty: 'error' })
  if (exit._tag === 'Success') return exit.value
  const error = exit.cause.reasons.flatMap((reason) => (reason._tag === 'Fail' ? [reason.error] : []))[0]
  const issues: ArgumentIssue[] =
    error === undefined
      ? [{ path: '', message: 'the arguments could not be decoded' }]
      : issueFormatter(error.issue).issues.map((issue) =>
          explainIssue(
            tool.name,
            tool.input,
            raw,
            (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)),
            issue.message,
          ),
        )
  throw invalid(issues)
}

// ---------------------------------------------------------------------------------------------------------
// Tool sets

/** Which tools a harness exposes. `enable` keeps only those names; `disable` removes names. */
export interface ToolSelection {
  readonly enable?: ReadonlyArray<string>
  readonly disable?: ReadonlyArray<string>
}

/**
 * Filters a tool set by name, keeping the set's order. An unknown name fails with NOT_FOUND (a typo in a
 * harness config must not silently expose or hide tools).
 */
export function selectTools<T extends AnyTool>(tools: ReadonlyArray<T>, selection: ToolSelection = {}): T[] {
  const names = new Set(tools.map((t) => t.name))
  for (const name of [...(selection.enable ?? []), ...(selection.disable ?? [])]) {
    if (!names.has(name)) {
      throw new LspError('NOT_FOUND', `no tool is named "${name}" (tools: ${[...names].join(', ')})`, { data: { nearest: [...names] } })
    }
  }
  const enabled = selection.enable === undefined ? undefined : new Set(selection.enable)
  const disabled = new Set(selection.disable ?? [])
  return tools.filter((t) => (enabled === undefined || enabled.has(t.name)) && !disabled.has(t.name))
}
