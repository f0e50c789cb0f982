import {
  comparePositions,
  displayPath,
  documentSymbolsFor,
  isLspError,
  isWithin,
  rootHolding,
  LspError,
  rangeContains,
  type LspFlatSymbol,
  type LspPosition,
} from '@codeseam/lsp'

import { mapBounded } from './budget.js'
import type { ToolContext } from './definition.js'
import type { SourceFile, SourceReader } from './sources.js'

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
  return symbols.find((s) => comparePositions(s.selectionRange.start, position) === 0 || rangeContains(s.selectionRange, position))
}

/** Outlines of one call's files, and the files whose outline failed (named, so the notice can say so). */
export interface Outlines {
  readonly byPath: ReadonlyMap<string, ReadonlyArray<LspFlatSymbol>>
  /** "path: CODE" per file whose outline failed; those locations carry no symbol/container. */
  readonly failures: ReadonlyArray<string>
}

/**
 * Outlines for up to {@link maxOutlineFiles} files, fetched with bounded concurrency. Symbol names are
 * decoration, so one file's failed outline does not fail the answer, but it is collected in `failures`
 * for the notice: a failed outline must not read as "this location sits in no symbol". A server without
 * outlines at all (UNSUPPORTED_OPERATION) is no failure. Cancellation, timeouts, crashes and disposal end
 * the call: they say nothing about one file.
 */
export async function outlinesFor(
  context: ToolContext,
  root: string,
  files: ReadonlyArray<SourceFile | undefined>,
  maxFiles = maxOutlineFiles,
): Promise<Outlines> {
  const wanted = files
    .filter((f): f is SourceFile => f !== undefined && context.lsp.providerFor(f.document.path) !== undefined)
    .slice(0, maxFiles)
  const failures: string[] = []
  const outlines = await mapBounded(
    wanted,
    outlineConcurrency,
    async (file) => {
      try {
        // A file in another open root of the workspace (RFC 0025) is asked about in its own root.
        const own = isWithin(root, file.document.path) ? root : (rootHolding(context.lsp.workspaces(), file.document.path)?.root ?? root)
        return await documentSymbolsFor(context.lsp, own, file.document, context.signal)
      } catch (error) {
        if (isLspError(error, 'CANCELLED', 'TIMEOUT', 'SERVER_CRASHED', 'DISPOSED') || !(error instanceof LspError)) throw error
        if (error.code !== 'UNSUPPORTED_OPERATION') failures.push(`${displayPath(root, file.document.path)}: ${error.code}`)
        return undefined
      }
    },
    context.signal,
  )
  const byPath = new Map<string, ReadonlyArray<LspFlatSymbol>>()
  wanted.forEach((file, index) => {
    const outline = outlines[index]
    if (outline !== undefined) byPath.set(file.document.path, outline)
  })
  return { byPath, failures }
}

/** The notice line for failed outlines, or undefined when none failed. */
export function outlineFailureNotice(outlines: Outlines): string | undefined {
  if (outlines.failures.length === 0) return undefined
  return `symbol and container names are missing where the outline failed (${outlines.failures.join(', ')}); retry to get them`
}

/** Files of a kept answer (RFC 0026) whose outline is fetched with its first page, so later pages ask no server. */
export const maxKeptOutlineFiles = 200

/** Outlines as plain data, to keep with an answer. */
export interface KeptOutlines {
  readonly byPath: ReadonlyArray<readonly [string, ReadonlyArray<LspFlatSymbol>]>
  readonly failures: ReadonlyArray<string>
}

/** The outlines of the first {@link maxKeptOutlineFiles} files of a whole answer, to keep with it. */
export async function outlinesToKeep(
  context: ToolContext,
  root: string,
  reader: SourceReader,
  paths: ReadonlyArray<string>,
): Promise<KeptOutlines> {
  const files = [...new Set(paths)].slice(0, maxKeptOutlineFiles)
  const sources = await reader.readAll(files)
  const outlines = await outlinesFor(context, root, [...sources.values()], maxKeptOutlineFiles)
  return { byPath: [...outlines.byPath.entries()], failures: outlines.failures }
}

/** Kept outlines back in the form a page uses. */
export function keptOutlines(kept: KeptOutlines): Outlines {
  return { byPath: new Map(kept.byPath), failures: kept.failures }
}
