import {
  comparePositions,
  documentSymbolsFor,
  isLspError,
  rangeContains,
  type LspFlatSymbol,
  type LspPosition,
} from '@codeseam/lsp'

import { mapBounded } from './budget.js'
import type { ToolContext } from './definition.js'
import type { SourceFile } from './sources.js'

/**
 * Which symbol a location belongs to: the declaration it names, or the function/class it sits in. Uses
 * the seam's document-symbol cache (per content hash), so repeated calls over the same files are cheap.
 */

/** Files whose outline is fetched per call; beyond this, locations carry no symbol/container. */
export const maxOutlineFiles = 25

/** Outlines fetched at once. */
const outlineConcurrency = 4

function size(symbol: LspFlatSymbol): number {
  const { start, end } = symbol.range
  return (end.line - start.line) * 100_000 + (end.character - start.character)
}

/** The innermost symbol whose full range contains `position`. */
export function enclosingSymbol(symbols: ReadonlyArray<LspFlatSymbol>, position: LspPosition): LspFlatSymbol | undefined {
  let best: LspFlatSymbol | undefined
  for (const symbol of symbols) {
    if (rangeContains(symbol.range, position) && (best === undefined || size(symbol) <= size(best))) best = symbol
  }
  return best
}

/** The symbol whose name (selection range) starts at or covers `position`. */
export function declaredAt(symbols: ReadonlyArray<LspFlatSymbol>, position: LspPosition): LspFlatSymbol | undefined {
  return symbols.find(
    (s) => comparePositions(s.selectionRange.start, position) === 0 || rangeContains(s.selectionRange, position),
  )
}

/**
 * Outlines for up to {@link maxOutlineFiles} files, fetched with bounded concurrency. A file whose outline
 * cannot be had (no provider, unsupported, gone) maps to undefined: symbol names are decoration.
 */
export async function outlinesFor(
  context: ToolContext,
  root: string,
  files: ReadonlyArray<SourceFile | undefined>,
): Promise<Map<string, ReadonlyArray<LspFlatSymbol>>> {
  const wanted = files.filter((f): f is SourceFile => f !== undefined && context.lsp.providerFor(f.document.path) !== undefined).slice(0, maxOutlineFiles)
  const outlines = await mapBounded(
    wanted,
    outlineConcurrency,
    async (file) => {
      try {
        return await documentSymbolsFor(context.lsp, root, file.document, context.signal)
      } catch (error) {
        // Cancellation and crashes must surface; a missing outline for one file must not.
        if (isLspError(error, 'CANCELLED', 'SERVER_CRASHED', 'DISPOSED')) throw error
        return undefined
      }
    },
    context.signal,
  )
  const out = new Map<string, ReadonlyArray<LspFlatSymbol>>()
  wanted.forEach((file, index) => {
    const outline = outlines[index]
    if (outline !== undefined) out.set(file.document.path, outline)
  })
  return out
}
