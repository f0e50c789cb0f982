import { LspError, toModelPosition, toModelRange, type LspResultMeta } from '@codeseam/lsp'
import { Schema } from 'effect'

import { clampLimit, paginate, queryFingerprint } from './budget.js'
import { defineTool, type ToolContext } from './definition.js'
import { completeAnswer, pageAnswer, type Computed } from './kept-answers.js'
import { searchAnswer } from './symbol-search.js'
import { at, lines, plural, renderNotice, renderPage, renderReadiness } from './render.js'
import { readableOutline, type ReadableSymbol } from './readable-outline.js'
import { KeptCursorInput, NonNegativeInt, PageOutput, PositiveInt, ReadinessOutput, SymbolKind } from './schemas.js'
import {
  busyServersReason,
  joinNotices,
  noticeFor,
  noticeForRoots,
  readinessOf,
  requireProvider,
  resolveToolFile,
  shown,
  worstReadiness,
} from './targeting.js'

/** Limits of `code_symbols`. */
export const symbolsLimits = { defaultLimit: 200, maxLimit: 1000 } as const

/** Outline depth when none is asked for: top level and members. */
export const defaultOutlineDepth = 2

/** An outline's kinds: the protocol's, and a type alias (TypeScript `type`), which the protocol has no kind for. */
const OutlineKind = Schema.Literals([...SymbolKind.literals, 'typeAlias'])

const SymbolsInput = Schema.Struct({
  path: Schema.optional(Schema.String).annotate({
    description:
      'A file: returns its outline (classes, functions, members, nested) with line ranges. Omit to search the workspace with query.',
  }),
  query: Schema.optional(Schema.String).annotate({
    description:
      'Workspace symbol search: part of a name ("parseConf" finds parseConfig). Required when path is omitted; must not be empty.',
  }),
  rootId: Schema.optional(Schema.String).annotate({ description: 'Limit to one open workspace (by id).' }),
  kind: Schema.optional(OutlineKind).annotate({
    description: 'Only symbols of this kind (e.g. "class", "function", "method"; "typeAlias" for a TypeScript type alias in an outline).',
  }),
  depth: Schema.optional(PositiveInt.check(Schema.isLessThanOrEqualTo(10))).annotate({
    description: 'Outline nesting shown (1 = top level only; default 2 = top level and members; max 10).',
  }),
  limit: Schema.optional(PositiveInt).annotate({ description: 'Symbols per page (default 200, max 1000).' }),
  cursor: KeptCursorInput,
})

interface OutlineNode {
  readonly name: string
  readonly kind: typeof OutlineKind.Type
  readonly detail?: string | undefined
  /** 1-based line and column of the name. */
  readonly line: number
  readonly column: number
  /** 1-based first and last line of the whole declaration. */
  readonly startLine: number
  readonly endLine: number
  /**
   * Qualified name of the parent, when the parent is not on this page; or the container the server names without
   * nesting the symbol in it (a Go method's receiver type): `container.name` targets the symbol.
   */
  readonly container?: string | undefined
  /** Children below the depth limit (or the kind filter), not shown. */
  readonly hiddenChildren?: number | undefined
  readonly children?: ReadonlyArray<OutlineNode> | undefined
}

const OutlineNodeSchema: Schema.Codec<OutlineNode> = Schema.Struct({
  name: Schema.String,
  kind: OutlineKind,
  detail: Schema.optional(Schema.String),
  line: PositiveInt,
  column: PositiveInt,
  startLine: PositiveInt,
  endLine: PositiveInt,
  container: Schema.optional(Schema.String),
  hiddenChildren: Schema.optional(PositiveInt),
  children: Schema.optional(Schema.Array(Schema.suspend((): Schema.Codec<OutlineNode> => OutlineNodeSchema))),
}).annotate({ identifier: 'OutlineNode' })

const MatchOutput = Schema.Struct({
  name: Schema.String,
  kind: SymbolKind,
  container: Schema.optional(Schema.String),
  path: Schema.String,
  rootId: Schema.String,
  line: PositiveInt,
  column: PositiveInt,
})

const SymbolsOutput = Schema.Struct({
  mode: Schema.Literals(['outline', 'search']),
  /** outline: the file; search: the query. */
  path: Schema.optional(Schema.String),
  query: Schema.optional(Schema.String),
  outline: Schema.optional(Schema.Array(OutlineNodeSchema)),
  matches: Schema.optional(Schema.Array(MatchOutput)),
  /** Symbols in the whole answer (outline: within the depth and kind filter). */
  totalFound: NonNegativeInt,
  page: PageOutput,
  readiness: ReadinessOutput,
  notice: Schema.optional(Schema.String),
})

/** The decoded result of `code_symbols`. */
export type SymbolsResult = typeof SymbolsOutput.Type

interface FlatOutlineEntry {
  readonly symbol: ReadableSymbol
  readonly depth: number
  readonly qualified: string
  readonly parent?: string
  readonly hidden: number
}

/** Pre-order walk within the depth limit, keeping symbols of `kind` (and the containers leading to them). */
function walk(symbols: ReadonlyArray<ReadableSymbol>, maxDepth: number, kind: string | undefined): FlatOutlineEntry[] {
  const out: FlatOutlineEntry[] = []
  const visit = (list: ReadonlyArray<ReadableSymbol>, depth: number, parent: string | undefined) => {
    for (const symbol of list) {
      const own = symbol.containerName === undefined ? symbol.name : `${symbol.containerName}.${symbol.name}`
      const qualified = parent === undefined ? own : `${parent}.${own}`
      const below = depth >= maxDepth ? symbol.children.length : 0
      if (kind === undefined || symbol.kind === kind) {
        out.push({ symbol, depth, qualified, ...(parent === undefined ? {} : { parent }), hidden: below })
      }
      if (depth < maxDepth) visit(symbol.children, depth + 1, qualified)
    }
  }
  visit(symbols, 1, undefined)
  return out
}

/** Rebuilds a nested forest from a page of pre-order entries; a node whose parent is off the page names it. */
function nest(entries: ReadonlyArray<FlatOutlineEntry>): OutlineNode[] {
  const roots: OutlineNode[] = []
  const byQualified = new Map<string, { children: OutlineNode[] }>()
  for (const entry of entries) {
    const { symbol } = entry
    const name = toModelPosition(symbol.selectionRange.start)
    const extent = toModelRange(symbol.range)
    const children: OutlineNode[] = []
    const parentHolder = entry.parent === undefined ? undefined : byQualified.get(entry.parent)
    // The container a symbol is named in: its parent's qualified name when the parent is off the page, and the
    // container the outline names without nesting (a Go method's receiver type) in any case.
    const offPage = entry.parent !== undefined && parentHolder === undefined ? entry.parent : undefined
    const own = symbol.containerName
    const container = own === undefined ? offPage : entry.parent === undefined ? own : `${entry.parent}.${own}`
    const node: OutlineNode = {
      name: symbol.name,
      kind: symbol.kind,
      ...(symbol.detail === undefined || symbol.detail === '' ? {} : { detail: symbol.detail }),
      line: name.line,
      column: name.column,
      startLine: extent.start.line,
      endLine: extent.end.line,
      ...(container === undefined ? {} : { container }),
      ...(entry.hidden > 0 ? { hiddenChildren: entry.hidden } : {}),
      children,
    }
    ;(parentHolder === undefined ? roots : parentHolder.children).push(node)
    byQualified.set(entry.qualified, { children })
  }
  const prune = (nodes: OutlineNode[]): OutlineNode[] =>
    nodes.map(({ children, ...rest }) =>
      children === undefined || children.length === 0 ? rest : { ...rest, children: prune([...children]) },
    )
  return prune(roots)
}

/** A file's whole outline, as kept between pages (RFC 0026). */
interface OutlineAnswer {
  readonly entries: ReturnType<typeof walk>
  readonly meta: LspResultMeta
  readonly topLevel: number
  readonly imports: number
  readonly parameters: number
}

async function outlineOf(input: typeof SymbolsInput.Type, path: string, context: ToolContext): Promise<SymbolsResult> {
  const file = await resolveToolFile(context, path, input.rootId)
  requireProvider(context, file.path, file.displayPath)
  const depth = input.depth ?? defaultOutlineDepth
  const limit = clampLimit(input.limit, symbolsLimits)
  // Read to tell imports, parameters and type aliases apart, when the text is the one the outline was computed for.
  const document = await file.workspace.readFile(file.path, context.signal)
  const fingerprint = queryFingerprint([
    'code_symbols',
    'outline',
    file.workspace.id,
    file.displayPath,
    depth,
    input.kind ?? null,
    document.hash,
  ])
  // A later page of a kept outline asks no server (RFC 0026).
  const answer = await pageAnswer(context, {
    roots: [file.workspace.root],
    fingerprint,
    cursor: input.cursor,
    async compute(keepable): Promise<Computed<OutlineAnswer>> {
      const result = await context.lsp.query({ operation: 'documentSymbols', root: file.workspace.root, path: file.path }, context.signal)
      const readable =
        result.meta.contentHash === undefined || result.meta.contentHash === document.hash
          ? readableOutline(result.symbols, document.text)
          : { symbols: result.symbols, imports: 0, parameters: 0 }
      const entries = walk(readable.symbols, depth, input.kind)
      const value = {
        entries,
        meta: result.meta,
        topLevel: result.symbols.length,
        imports: readable.imports,
        parameters: readable.parameters,
      }
      return { value, keep: keepable && entries.length > limit && completeAnswer(result.meta) }
    },
  })
  const { entries, meta, topLevel, imports, parameters } = answer.value
  const { items, page } = paginate(entries, { limit, cursor: input.cursor, fingerprint, mark: answer.mark })
  const notice = joinNotices(
    noticeFor(meta, entries.length === 0, 'symbols', file.workspace.id),
    entries.length === 0 && topLevel > 0 && input.kind !== undefined
      ? `no ${input.kind} within depth ${depth}; ${topLevel} top-level symbols of other kinds exist`
      : undefined,
    imports + parameters > 0
      ? `left out of the outline: ${[imports > 0 ? plural(imports, 'import binding') : '', parameters > 0 ? plural(parameters, 'parameter') : ''].filter((x) => x !== '').join(' and ')}`
      : undefined,
  )
  return {
    mode: 'outline',
    path: file.displayPath,
    outline: nest(items),
    totalFound: entries.length,
    page,
    readiness: readinessOf(meta),
    ...(notice === undefined ? {} : { notice }),
  }
}

async function search(input: typeof SymbolsInput.Type, query: string, context: ToolContext): Promise<SymbolsResult> {
  const roots = input.rootId === undefined ? context.roots : context.roots.filter((r) => r.id === input.rootId)
  if (roots.length === 0) {
    throw new LspError('NOT_FOUND', `no workspace "${input.rootId}" is available (available: ${context.roots.map((r) => r.id).join(', ')})`)
  }
  const limit = clampLimit(input.limit, symbolsLimits)
  const fingerprint = queryFingerprint(['code_symbols', 'search', query, input.kind ?? null, roots.map((r) => r.id)])
  // A later page of a kept search asks no server (RFC 0026).
  const answer = await pageAnswer(context, {
    roots: roots.map((r) => r.root),
    fingerprint,
    cursor: input.cursor,
    compute: (keepable) => searchAnswer(context, roots, query, input.kind, keepable ? limit : undefined),
  })
  const { matches, answers, gaps } = answer.value
  const { items, page } = paginate(matches, { limit, cursor: input.cursor, fingerprint, mark: answer.mark })
  const readiness = worstReadiness([
    ...answers.map((a) => readinessOf(a.meta)),
    ...(gaps.length > 0 ? [{ status: 'degraded' as const, warm: true, provider: answers[0]?.meta.providerId ?? 'none' }] : []),
  ])
  const rootAnswers = answers.map((a) => ({ meta: a.meta, rootId: a.rootId, empty: !matches.some((m) => m.root.id === a.rootId) }))
  const notice = noticeForRoots(rootAnswers, matches.length === 0, 'symbols', gaps)
  // Roots left out because every server was busy: one root asked on its own gets a server.
  const askOne = roots.length > 1 && notice !== undefined && notice.includes(busyServersReason)
  return {
    mode: 'search',
    query,
    matches: items.map(({ symbol, root }) => {
      const position = toModelPosition((symbol.location.targetSelectionRange ?? symbol.location.range).start)
      return {
        name: symbol.name,
        kind: symbol.kind,
        ...(symbol.containerName === undefined || symbol.containerName === '' ? {} : { container: symbol.containerName }),
        path: shown(root.root, symbol.location.path),
        rootId: root.id,
        line: position.line,
        column: position.column,
      }
    }),
    totalFound: matches.length,
    page,
    readiness,
    ...(notice === undefined ? {} : { notice: askOne ? `${notice} To search one root, pass its rootId.` : notice }),
  }
}

function renderOutline(nodes: ReadonlyArray<OutlineNode>, depth: number, out: string[]): void {
  for (const node of nodes) {
    const span = node.endLine > node.startLine ? `${node.startLine}-${node.endLine}` : `${node.startLine}`
    const detail = node.detail === undefined ? '' : `  ${node.detail}`
    const from = node.container === undefined ? '' : `  (in ${node.container})`
    const hidden = node.hiddenChildren === undefined ? '' : `  (+${node.hiddenChildren} nested)`
    out.push(`${'  '.repeat(depth)}${node.kind} ${node.name}  ${node.line}:${node.column} [${span}]${detail}${from}${hidden}`)
    if (node.children !== undefined) renderOutline(node.children, depth + 1, out)
  }
}

/** `code_symbols`: a file's outline, or workspace symbol search by name. */
export const codeSymbols = defineTool({
  name: 'code_symbols',
  title: 'Code symbols',
  description: [
    'List the symbols of a file as a nested outline (classes, functions, methods, with 1-based line ranges and name columns), or search symbols by name across the workspace.',
    'Use the outline instead of reading a whole file to see its structure, and the search instead of grep to find where a class or function is declared.',
    'Give path for an outline, or query (non-empty, part of a name) for a search. Results are capped with a cursor for more.',
  ].join(' '),
  input: SymbolsInput,
  output: SymbolsOutput,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },

  async execute(input, context) {
    if (input.path !== undefined) return outlineOf(input, input.path, context)
    if (input.query === undefined) {
      throw new LspError(
        'INVALID_ARGUMENT',
        'code_symbols needs path (a file outline) or query (a workspace search for part of a symbol name)',
      )
    }
    const query = input.query.trim()
    if (query.length === 0) {
      throw new LspError(
        'INVALID_ARGUMENT',
        'query is empty: give part of a symbol name (e.g. "parse"), or pass path to list one file\'s symbols',
      )
    }
    return search(input, query, context)
  },

  summary(result) {
    return result.mode === 'outline'
      ? `${plural(result.totalFound, 'symbol')} in ${result.path}`
      : `${plural(result.totalFound, 'match', 'matches')} for "${result.query}"`
  },

  render(result) {
    const body: string[] = []
    if (result.outline !== undefined) renderOutline(result.outline, 0, body)
    // Matches from several roots name their root: the same relative path may exist in each.
    const severalRoots = new Set((result.matches ?? []).map((m) => m.rootId)).size > 1
    for (const match of result.matches ?? []) {
      const root = severalRoots ? `  (root ${match.rootId})` : ''
      body.push(
        `${match.kind} ${match.container === undefined ? '' : `${match.container}.`}${match.name}  ${at(match.path, match.line, match.column)}${root}`,
      )
    }
    return lines(
      result.mode === 'outline'
        ? `outline of ${result.path}: ${plural(result.totalFound, 'symbol')}`
        : `symbols matching "${result.query}": ${result.totalFound}`,
      renderReadiness(result.readiness),
      renderNotice(result.notice),
      body,
      renderPage(result.page, 'symbols'),
    )
  },
})
