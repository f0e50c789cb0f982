import {
  isLspError,
  type LspError,
  type LspResultFor,
  type LspResultMeta,
  type LspWorkspaceInfo,
  type LspWorkspaceSymbol,
} from '@codeseam/lsp'

import type { ToolContext } from './definition.js'
import { completeAnswer, type Computed } from './kept-answers.js'
import { rootFailureReason } from './targeting.js'

/** Workspace symbol search for `code_symbols`: every root asked, the matches ranked, the whole answer kept (RFC 0026). */

/** How well a name matches the query: exact, then case-insensitive, prefix, substring. */
function rank(symbol: LspWorkspaceSymbol, query: string): number {
  const name = symbol.name.toLowerCase()
  const wanted = query.toLowerCase()
  if (symbol.name === query) return 0
  if (name === wanted) return 1
  if (name.startsWith(wanted)) return 2
  if (name.includes(wanted)) return 3
  return 4
}

/**
 * Among equally good name matches, declarations people search for come first: types and functions, then members,
 * then variables (which include a function's parameters and locals, as pyright lists them).
 */
function kindWeight(kind: string): number {
  if (['class', 'interface', 'enum', 'struct', 'function', 'method', 'constructor', 'namespace', 'module', 'package'].includes(kind))
    return 0
  if (['property', 'field', 'enumMember', 'constant', 'event', 'operator', 'typeParameter'].includes(kind)) return 1
  return 2
}

/** A workspace symbol search over several roots, as kept between pages (RFC 0026). */
export interface SearchAnswer {
  readonly matches: ReadonlyArray<{ readonly symbol: LspWorkspaceSymbol; readonly root: LspWorkspaceInfo }>
  readonly answers: ReadonlyArray<{ readonly meta: LspResultMeta; readonly rootId: string }>
  readonly gaps: ReadonlyArray<{ readonly where: string; readonly why: string }>
}

/** Asks every root; kept when every root answered completely and the matches are longer than one page. */
export async function searchAnswer(
  context: ToolContext,
  roots: ReadonlyArray<LspWorkspaceInfo>,
  query: string,
  kind: string | undefined,
  keepLimit: number | undefined,
): Promise<Computed<SearchAnswer>> {
  // Each root is asked on its own: a root whose query fails is a named gap, never the end of the others' answers.
  type Settled =
    | { readonly root: LspWorkspaceInfo; readonly result: LspResultFor<'workspaceSymbols'> }
    | { readonly root: LspWorkspaceInfo; readonly error: LspError }
  const settled = await Promise.all(
    roots.map(async (root): Promise<Settled> => {
      try {
        return { root, result: await context.lsp.query({ operation: 'workspaceSymbols', root: root.root, query }, context.signal) }
      } catch (error) {
        if (!isLspError(error) || error.code === 'CANCELLED' || error.code === 'DISPOSED' || context.signal.aborted) throw error
        return { root, error }
      }
    }),
  )
  const answers = settled.flatMap((a) => ('result' in a ? [a] : []))
  const failed = settled.flatMap((a) => ('error' in a ? [a] : []))
  // Nothing answered: the first failure is the answer (never an empty list that looks like "no symbols").
  if (answers.length === 0 && failed[0] !== undefined) throw failed[0].error
  const gaps = failed.map(({ root, error }) => ({ where: root.id, why: rootFailureReason(error, root.root) }))
  const matches = answers
    .flatMap(({ root, result }) =>
      result.symbols
        .filter((s) => kind === undefined || s.kind === kind)
        .map((s) => ({ symbol: s, root: { id: root.id, root: root.root } })),
    )
    .sort(
      (a, b) =>
        rank(a.symbol, query) - rank(b.symbol, query) ||
        kindWeight(a.symbol.kind) - kindWeight(b.symbol.kind) ||
        (a.symbol.location.path < b.symbol.location.path
          ? -1
          : a.symbol.location.path > b.symbol.location.path
            ? 1
            : a.symbol.location.range.start.line - b.symbol.location.range.start.line),
    )
  const keep =
    keepLimit !== undefined && matches.length > keepLimit && gaps.length === 0 && answers.every((a) => completeAnswer(a.result.meta))
  return { value: { matches, answers: answers.map((a) => ({ meta: a.result.meta, rootId: a.root.id })), gaps }, keep }
}
