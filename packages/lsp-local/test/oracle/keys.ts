// One normal form for both sides of the comparison (the bare server and codeseam's seam): every answer
// becomes a sorted set of strings with workspace-relative '/'-separated paths and 0-based ranges.
import { lspSymbolKinds } from '@codeseam/lsp'

export interface Position {
  readonly line: number
  readonly character: number
}
export interface Range {
  readonly start: Position
  readonly end: Position
}

export function rangeKey(range: Range): string {
  return `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`
}

/** A location: `path@l:c-l:c`. */
export function locationKey(path: string, range: Range): string {
  return `${path}@${rangeKey(range)}`
}

/** One text edit of a rename: `path@l:c-l:c → newText`. */
export function textEditKey(path: string, range: Range, newText: string): string {
  return `${locationKey(path, range)} → ${JSON.stringify(newText)}`
}

/** The answer when prepareRename says the symbol cannot be renamed. */
export const renameRefusedKey = '!rename refused by prepareRename'

/** One incoming call: the caller's file and selection range, and every call-site range in it. */
export function callKey(path: string, selectionRange: Range, fromRanges: ReadonlyArray<Range>): string {
  return `${locationKey(path, selectionRange)} ← ${fromRanges.map(rangeKey).sort().join(',')}`
}

/** A workspace symbol: `name|kind|path@range`; `kind` is the LSP number or the seam's kind name. */
export function workspaceSymbolKey(name: string, kind: number | string, path: string, range: Range): string {
  const kindName = typeof kind === 'number' ? (lspSymbolKinds[kind - 1] ?? 'object') : kind
  return `${name}|${kindName}|${locationKey(path, range)}`
}

/** Sorted, without duplicates. */
export function unique<T extends string>(keys: Iterable<T>): T[] {
  return [...new Set(keys)].sort()
}

/** What one side has that the other lacks. */
export function difference(expected: ReadonlyArray<string>, actual: ReadonlyArray<string>): { missing: string[]; extra: string[] } {
  const have = new Set(actual)
  const want = new Set(expected)
  return { missing: expected.filter((key) => !have.has(key)), extra: actual.filter((key) => !want.has(key)) }
}

/** The file part of a location-like key (everything before the first '@'). */
export function fileOfKey(key: string): string {
  const at = key.indexOf('@')
  const start = key.indexOf('|') >= 0 && key.indexOf('|') < at ? key.lastIndexOf('|', at) + 1 : 0
  return at < 0 ? key : key.slice(start, at)
}
