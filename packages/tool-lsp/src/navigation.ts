import { comparePositions, rangeContains, toModelPosition, type LspLocation, type LspResultMeta, type ResolvedTarget } from '@codeseam/lsp'
import { Schema } from 'effect'

import { clampLimit, paginate, queryFingerprint } from './budget.js'
import { defineTool, type ToolContext } from './definition.js'
import {
  declaredAt,
  enclosingSymbol,
  keptOutlines,
  outlineFailureNotice,
  outlinesFor,
  outlinesToKeep,
  type KeptOutlines,
} from './enclosing.js'
import { completeAnswer, pageAnswer, type Computed } from './kept-answers.js'
import { at, indent, lines, plural, renderNotice, renderPage, renderReadiness, renderTarget } from './render.js'
import {
  FirstMatchInput,
  KeptCursorInput,
  NonNegativeInt,
  PageOutput,
  PositiveInt,
  ReadinessOutput,
  ResolvedTargetOutput,
  SymbolKind,
  TargetInput,
} from './schemas.js'
import { snippetLine, snippetWindow, sourceReader, type SourceReader } from './sources.js'
import { placed, placedText, OtherRootField } from './placement.js'
import { joinNotices, noticeFor, readinessOf, resolveToolTarget, targetOutput } from './targeting.js'

/** Navigation kinds a model picks from, each a seam operation. */
export const navigationKinds = ['definition', 'typeDefinition', 'declaration', 'implementation', 'references'] as const

/** Limits of `code_navigate`. */
export const navigateLimits = { defaultLimit: 100, maxLimit: 500 } as const

/** Longest body `includeBody` returns. */
export const maxBodyLines = 200

/** Snippet lines one page may carry; context windows beyond it are dropped. */
export const maxSnippetLinesPerPage = 600

/** Definitions whose body is returned at most. */
const maxBodies = 3

const NavigateInput = Schema.Struct({
  target: TargetInput,
  kind: Schema.Literals(navigationKinds).annotate({
    description:
      'definition: where it is defined; typeDefinition: the definition of its type; declaration: its declaration (headers, .d.ts); implementation: concrete implementations of an interface/abstract member; references: every use, including the declaration.',
  }),
  includeBody: Schema.optional(Schema.Boolean).annotate({
    description: 'For definition-like kinds: also return the full source of the definition (up to 200 lines), so no file read is needed.',
  }),
  context: Schema.optional(NonNegativeInt.check(Schema.isLessThanOrEqualTo(3))).annotate({
    description: 'Lines of source shown around each location (0–3, default 0: just the line).',
  }),
  limit: Schema.optional(PositiveInt).annotate({ description: 'Locations per page (default 100, max 500).' }),
  cursor: KeptCursorInput,
  firstMatch: FirstMatchInput,
})

const LocationOutput = Schema.Struct({
  line: PositiveInt,
  column: PositiveInt,
  endLine: PositiveInt,
  endColumn: PositiveInt,
  /** The source line (or a numbered window of lines with `context`). */
  snippet: Schema.String,
  /** The symbol declared here (for definitions), when the outline says so. */
  symbol: Schema.optional(Schema.String),
  kind: Schema.optional(SymbolKind),
  /** The function/class/module the location sits in. */
  container: Schema.optional(Schema.String),
  /** This location is the target's own declaration. */
  isDeclaration: Schema.optional(Schema.Boolean),
})

const FileGroupOutput = Schema.Struct({
  path: Schema.String,
  rootId: OtherRootField,
  /** Locations in this file in the whole answer (not just this page). */
  count: NonNegativeInt,
  locations: Schema.Array(LocationOutput),
})

const BodyOutput = Schema.Struct({
  path: Schema.String,
  rootId: OtherRootField,
  line: PositiveInt,
  endLine: PositiveInt,
  symbol: Schema.optional(Schema.String),
  text: Schema.String,
  /** The definition is longer than the cap; `endLine` is where the text stops. */
  truncated: Schema.Boolean,
})

const NavigateOutput = Schema.Struct({
  kind: Schema.Literals(navigationKinds),
  target: ResolvedTargetOutput,
  /** Locations found in total (after de-duplication). */
  totalFound: NonNegativeInt,
  /** Files with at least one location, in total. */
  fileCount: NonNegativeInt,
  /** This page's locations, grouped by file, in path order. */
  files: Schema.Array(FileGroupOutput),
  /** Every file with its count (up to 200 files), so the spread is visible even when the page is short. */
  fileCounts: Schema.Array(Schema.Struct({ path: Schema.String, rootId: OtherRootField, count: NonNegativeInt })),
  bodies: Schema.optional(Schema.Array(BodyOutput)),
  page: PageOutput,
  readiness: ReadinessOutput,
  notice: Schema.optional(Schema.String),
})

/** The decoded result of `code_navigate`. */
export type NavigateResult = typeof NavigateOutput.Type

function dedupeAndSort(locations: ReadonlyArray<LspLocation>): LspLocation[] {
  const seen = new Set<string>()
  const unique: LspLocation[] = []
  for (const location of locations) {
    const key = `${location.path}\0${location.range.start.line}:${location.range.start.character}`
    if (seen.has(key)) continue
    seen.add(key)
    unique.push(location)
  }
  return unique.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : comparePositions(a.range.start, b.range.start)))
}

/** The whole answer of one navigation query, as kept between pages (RFC 0026). */
interface NavigationAnswer {
  readonly all: ReadonlyArray<LspLocation>
  readonly meta: LspResultMeta
  /** Outlines of the answer's files, when it is kept: later pages show their context without asking a server. */
  readonly outlines?: KeptOutlines
}

/**
 * Runs the query. With `keepLimit` (the answer can be kept), a complete answer longer than one page is kept,
 * with the outlines of its files.
 */
async function computeNavigation(
  context: ToolContext,
  kind: (typeof navigationKinds)[number],
  resolved: ResolvedTarget,
  reader: SourceReader,
  keepLimit: number | undefined,
  askedAt: number,
): Promise<Computed<NavigationAnswer>> {
  const result = await context.lsp.query(
    // The snapshot read while resolving the target goes along: the provider neither resolves nor reads it again.
    { operation: kind, root: resolved.root, path: resolved.path, position: resolved.position, document: resolved.document, askedAt },
    context.signal,
  )
  const all = dedupeAndSort(result.locations)
  if (keepLimit === undefined || all.length <= keepLimit || !completeAnswer(result.meta))
    return { value: { all, meta: result.meta }, keep: false }
  const outlines = await outlinesToKeep(
    context,
    resolved.root,
    reader,
    all.map((l) => l.path),
  )
  return { value: { all, meta: result.meta, outlines }, keep: true }
}

/** Where a location points for display: the name when the server gave a link, else the range start. */
function focus(location: LspLocation) {
  return location.targetSelectionRange ?? location.range
}

const noun: Record<(typeof navigationKinds)[number], [string, string]> = {
  definition: ['definition', 'definitions'],
  typeDefinition: ['type definition', 'type definitions'],
  declaration: ['declaration', 'declarations'],
  implementation: ['implementation', 'implementations'],
  references: ['reference', 'references'],
}

/** `code_navigate`: definitions, type definitions, declarations, implementations and references by symbol name. */
export const codeNavigate = defineTool({
  name: 'code_navigate',
  title: 'Navigate code',
  description: [
    'Find where a symbol is defined, its type definition, implementations, or every reference to it, using the language server (exact, scope-aware: no false hits from comments, strings or same-named symbols, which grep gives).',
    'Aim with target {path, symbol} (dotted for members, e.g. "Router.match"), or {path, line, matchText}.',
    'Results are grouped by file with the source line of each hit; includeBody returns the definition itself so you rarely need to open the file.',
    'References are capped (default 100, max 500) with totalFound, per-file counts and a cursor for the next page.',
    'Prefer this over grep for "who uses X", "where is X defined", "what implements X".',
  ].join(' '),
  input: NavigateInput,
  output: NavigateOutput,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },

  async execute(input, context) {
    // The question's moment (RFC 0036): what the change mark reads of the disk for it may serve the query too.
    const askedAt = performance.now()
    const resolved = await resolveToolTarget(context, input.target, { firstMatch: input.firstMatch })
    const limit = clampLimit(input.limit, navigateLimits)
    const fingerprint = queryFingerprint([
      'code_navigate',
      input.kind,
      resolved.rootId,
      resolved.displayPath,
      resolved.position,
      resolved.document.hash,
    ])
    const reader = sourceReader(context, resolved.root)
    reader.seed(resolved.document, resolved.lines)
    // A later page of a kept answer asks no server (RFC 0026); otherwise the query runs. The answer may reach
    // into every open root of the workspace (RFC 0025): a change in any of them ends it.
    const answer = await pageAnswer(context, {
      roots: context.roots.map((r) => r.root),
      fingerprint,
      cursor: input.cursor,
      compute: (keepable) => computeNavigation(context, input.kind, resolved, reader, keepable ? limit : undefined, askedAt),
    })
    const { all, meta } = answer.value
    const { items, page } = paginate(all, { limit, cursor: input.cursor, fingerprint, mark: answer.mark })

    const counts = new Map<string, number>()
    for (const location of all) counts.set(location.path, (counts.get(location.path) ?? 0) + 1)

    const sources = await reader.readAll(items.map((l) => l.path))
    const outlines =
      answer.value.outlines === undefined
        ? await outlinesFor(context, resolved.root, [...sources.values()])
        : keptOutlines(answer.value.outlines)
    // Windows multiply a page's size; past a line budget they are dropped (and the notice says so).
    const requestedContext = input.context ?? 0
    const contextLines = items.length * (2 * requestedContext + 1) > maxSnippetLinesPerPage ? 0 : requestedContext
    const definitionLike = input.kind !== 'references'
    const declaration = resolved.symbol

    const groups = new Map<string, Array<typeof LocationOutput.Type>>()
    for (const location of items) {
      const source = sources.get(location.path)
      const outline = outlines.byPath.get(location.path)
      const shownRange = focus(location)
      const start = toModelPosition(shownRange.start)
      const end = toModelPosition(shownRange.end)
      const declared = outline === undefined ? undefined : declaredAt(outline, shownRange.start)
      const inside = outline === undefined ? undefined : enclosingSymbol(outline, shownRange.start)
      const container = declared !== undefined ? declared.container : inside?.qualifiedName
      const isDeclaration =
        declaration !== undefined && location.path === resolved.path && rangeContains(declaration.selectionRange, shownRange.start)
      const entry = {
        line: start.line,
        column: start.column,
        endLine: end.line,
        endColumn: end.column,
        snippet:
          source === undefined
            ? ''
            : contextLines > 0
              ? snippetWindow(source.lines, shownRange.start.line, contextLines)
              : snippetLine(source.lines, shownRange.start.line, shownRange.start.character),
        ...(declared !== undefined && (definitionLike || isDeclaration) ? { symbol: declared.qualifiedName, kind: declared.kind } : {}),
        ...(container === undefined ? {} : { container }),
        ...(isDeclaration ? { isDeclaration: true } : {}),
      }
      const group = groups.get(location.path) ?? []
      group.push(entry)
      groups.set(location.path, group)
    }
    const files = [...groups.entries()].map(([path, locations]) => ({
      ...placed(context.roots, resolved.root, path),
      count: counts.get(path) ?? locations.length,
      locations,
    }))

    let bodies: Array<typeof BodyOutput.Type> | undefined
    if (input.includeBody === true && definitionLike) {
      bodies = []
      for (const location of items.slice(0, maxBodies)) {
        const source = sources.get(location.path)
        if (source === undefined) continue
        const outline = outlines.byPath.get(location.path)
        const declared = outline === undefined ? undefined : declaredAt(outline, focus(location).start)
        const range = declared?.range ?? location.range
        const first = range.start.line
        const last = Math.min(range.end.line, source.lines.lineCount - 1)
        const cappedLast = Math.min(last, first + maxBodyLines - 1)
        const text: string[] = []
        for (let l = first; l <= cappedLast; l++) text.push(source.lines.lineText(l))
        bodies.push({
          ...placed(context.roots, resolved.root, location.path),
          line: first + 1,
          endLine: cappedLast + 1,
          ...(declared === undefined ? {} : { symbol: declared.qualifiedName }),
          text: text.join('\n'),
          truncated: cappedLast < last,
        })
      }
    }

    const fileCounts = [...counts.entries()]
      .slice(0, 200)
      .map(([path, count]) => ({ ...placed(context.roots, resolved.root, path), count }))
    const [, pluralNoun] = noun[input.kind]
    let notice = joinNotices(
      noticeFor(meta, all.length === 0, pluralNoun, resolved.rootId, resolved),
      contextLines < requestedContext
        ? `context windows were left out: ${items.length} locations × ${2 * requestedContext + 1} lines exceeds ${maxSnippetLinesPerPage} lines; lower limit to get them`
        : undefined,
      reader.unreadableNotice(),
      outlineFailureNotice(outlines),
    )
    if (all.length === 0 && notice === undefined) {
      notice =
        input.kind === 'references'
          ? 'the server found no references, not even the declaration: the target is probably not on an identifier (aim with symbol, or matchText on the name itself)'
          : `the server knows no ${noun[input.kind][0]} for this position; if you aimed by line, check that matchText names the identifier itself`
    }
    return {
      kind: input.kind,
      target: targetOutput(resolved),
      totalFound: all.length,
      fileCount: counts.size,
      files,
      fileCounts,
      ...(bodies === undefined ? {} : { bodies }),
      page,
      readiness: readinessOf(meta),
      ...(notice === undefined ? {} : { notice }),
    }
  },

  summary(result) {
    const [one, many] = noun[result.kind]
    return `${plural(result.totalFound, one, many)} · ${plural(result.fileCount, 'file')}${result.page.truncated ? ` (showing ${result.page.returned})` : ''}`
  },

  render(result) {
    const [one, many] = noun[result.kind]
    const body: string[] = []
    for (const file of result.files) {
      body.push(`${placedText(file)} (${file.count})`)
      for (const location of file.locations) {
        const labels = [
          location.symbol === undefined ? undefined : `${location.kind === undefined ? '' : `${location.kind} `}${location.symbol}`,
          location.container === undefined || location.symbol !== undefined ? undefined : `in ${location.container}`,
          location.isDeclaration === true ? 'declaration' : undefined,
        ].filter((x) => x !== undefined)
        const label = labels.length === 0 ? '' : `  [${labels.join(', ')}]`
        if (location.snippet.includes('\n')) {
          body.push(`  ${location.line}:${location.column}${label}`)
          body.push(indent(location.snippet))
        } else {
          body.push(`  ${location.line}:${location.column}  ${location.snippet}${label}`)
        }
      }
    }
    for (const b of result.bodies ?? []) {
      body.push(
        `--- ${b.symbol ?? 'definition'} ${at(b.path, b.line)}-${b.endLine}${b.rootId === undefined ? '' : ` (in root ${b.rootId})`}${b.truncated ? ' (cut at 200 lines)' : ''}`,
      )
      body.push(b.text)
    }
    const others = result.fileCounts.filter((f) => !result.files.some((g) => g.path === f.path && g.rootId === f.rootId))
    return lines(
      renderTarget(result.target),
      `${plural(result.totalFound, one, many)} in ${plural(result.fileCount, 'file')}`,
      renderReadiness(result.readiness),
      renderNotice(result.notice),
      body,
      renderPage(result.page, many),
      others.length === 0
        ? undefined
        : `not on this page: ${others
            .slice(0, 30)
            .map((f) => `${placedText(f)} (${f.count})`)
            .join(', ')}${others.length > 30 ? ', …' : ''}`,
    )
  },
})
