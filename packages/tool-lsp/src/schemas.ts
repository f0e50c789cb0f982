import { lspSymbolKinds } from '@codeseam/lsp'
import { Schema } from 'effect'

/**
 * Schema pieces every tool shares: the target a model aims with, and the parts every result carries
 * (resolved target, readiness, page, notice). Mutating tools reuse them so all tools read alike.
 */

/** A positive (1-based) integer. */
export const PositiveInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))

/** A non-negative integer. */
export const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** A symbol kind by name (LSP SymbolKind order). */
export const SymbolKind = Schema.Literals(lspSymbolKinds)

/** What a model aims at instead of a position: a file plus a symbol name, or a line with text on it. */
export const TargetInput = Schema.Struct({
  path: Schema.String.annotate({
    description: 'File path relative to the workspace root, forward slashes, e.g. "src/router.ts".',
  }),
  rootId: Schema.optional(Schema.String).annotate({
    description: 'Workspace id; only needed when several workspaces are open and the path exists in more than one.',
  }),
  symbol: Schema.optional(Schema.String).annotate({
    description: 'Symbol name as declared in that file; dotted for members, e.g. "Router.match". The preferred way to aim.',
  }),
  kind: Schema.optional(SymbolKind).annotate({
    description: 'Narrows symbol to one kind when a name is declared several times (e.g. "class" vs "function").',
  }),
  line: Schema.optional(PositiveInt).annotate({
    description: '1-based line. With matchText: the line the text is on. With symbol: picks the declaration covering this line.',
  }),
  column: Schema.optional(PositiveInt).annotate({
    description: '1-based column (UTF-16 code units, as editors show). Rarely needed: prefer matchText.',
  }),
  matchText: Schema.optional(Schema.String).annotate({
    description: 'Text on `line` to aim at (its first occurrence), e.g. the identifier you mean.',
  }),
}).annotate({
  description: 'Where to look: path plus symbol (preferred), or path plus line and matchText.',
})

/** The decoded target input. */
export type TargetInput = typeof TargetInput.Type

/**
 * The `cursor` argument of tools whose later pages come from the answer the first page computed (RFC 0026): a
 * cursor is refused as stale once files in the workspace changed.
 */
export const KeptCursorInput = Schema.optional(Schema.String).annotate({
  description:
    'nextCursor from a previous result with the same arguments (refused as stale once files changed: then ask again without it).',
})

/** `firstMatch` for read tools: take the first of several matching symbols instead of failing. */
export const FirstMatchInput = Schema.optional(Schema.Boolean).annotate({
  description: 'When the symbol name matches several declarations, use the first instead of returning the candidates.',
})

/** A 1-based position. */
export const ModelPositionOutput = Schema.Struct({ line: PositiveInt, column: PositiveInt })

/** A 1-based range (end exclusive). */
export const ModelRangeOutput = Schema.Struct({ start: ModelPositionOutput, end: ModelPositionOutput })

/** How a target was resolved: every result that aimed at something says where it landed. */
export const ResolvedTargetOutput = Schema.Struct({
  path: Schema.String,
  rootId: Schema.String,
  line: PositiveInt,
  column: PositiveInt,
  symbol: Schema.optional(Schema.String),
  kind: Schema.optional(SymbolKind),
  resolvedBy: Schema.Literals(['symbol', 'matchText', 'column', 'line']),
})

/** The decoded resolved-target output. */
export type ResolvedTargetOutput = typeof ResolvedTargetOutput.Type

/** How far to trust the answer: the provider's readiness when it answered. */
export const ReadinessOutput = Schema.Struct({
  /** ready: fully loaded; indexing: still loading (results may be partial); degraded: answered after trouble. */
  status: Schema.Literals(['ready', 'indexing', 'degraded']),
  /** Whether the server had answered queries before (cold answers can be partial). */
  warm: Schema.Boolean,
  provider: Schema.String,
  /** The file changed while the query ran: positions may be off. */
  stale: Schema.optional(Schema.Boolean),
  /** The provider itself cut its answer short: totals are lower bounds. */
  providerTruncated: Schema.optional(Schema.Boolean),
})

/** The decoded readiness output. */
export type ReadinessOutput = typeof ReadinessOutput.Type

/** The budget of one list: how many were returned of how many, and where the next page starts. */
export const PageOutput = Schema.Struct({
  returned: NonNegativeInt,
  total: NonNegativeInt,
  limit: PositiveInt,
  /** Index of this page's first item in the whole list (absent on the first page). */
  offset: Schema.optional(NonNegativeInt),
  truncated: Schema.Boolean,
  /** Pass as `cursor` to get the next page; absent on the last page. */
  nextCursor: Schema.optional(Schema.String),
})

/** The decoded page output. */
export type PageOutput = typeof PageOutput.Type

/** A note on an answer that is legitimate but suspicious (empty while indexing, no server for the language). */
export const NoticeOutput = Schema.optional(Schema.String)
