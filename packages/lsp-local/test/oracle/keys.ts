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

/** A resource operation of an edit (a module rename moves its file): `!file-operation kind path[ → path]`. */
export function fileOperationKey(kind: 'create' | 'rename' | 'delete', path: string, newPath?: string): string {
  return `!file-operation ${kind} ${path}${newPath === undefined ? '' : ` → ${newPath}`}`
}

/** Locations (or symbols, call ends, related diagnostics) outside the workspace root the answer dropped: `!dropped N`. */
export function droppedKey(count: number): string[] {
  return count > 0 ? [`!dropped ${count}`] : []
}

/**
 * The most workspace symbols a server returns for one query (gopls: 100, internal/golang/workspace_symbol.go
 * maxSymbols; rust-analyzer: `workspace.symbol.search.limit`, 128). An answer that long is the server's first N of a
 * ranking that depends on what it has loaded, not a set two runs can be expected to share: it is compared by its
 * length alone (`!capped N`).
 */
export const workspaceSymbolCaps: Readonly<Record<string, number>> = { go: 100, rust: 128 }

export function cappedKeys(language: string, count: number): string[] | undefined {
  const cap = workspaceSymbolCaps[language]
  return cap !== undefined && count >= cap ? [`!capped ${count}`] : undefined
}

/** An edit that reaches outside the workspace root: codeseam refuses it whole (OUTSIDE_WORKSPACE). */
export const outsideEditKey = '!edit outside the workspace (refused whole)'

/** A server's error answer (a refusal with its reason): the JSON-RPC code and message as the server sent them. */
export function serverErrorKey(code: number, message: string): string {
  return `!server-error ${code}: ${message.trim()}`
}

/** A hover: its text exactly (trimmed) and its range, if any. */
export function hoverKey(text: string, range: Range | undefined): string {
  return `hover${range === undefined ? '' : `@${rangeKey(range)}`} ${JSON.stringify(text.trim())}`
}

/** One document symbol: `parent/…/name|kind|path@range ^selectionRange (detail)`, the parent chain making nesting part of it. */
/**
 * A symbol's name in a key, with the container its outline names without nesting it (a Go method's receiver type):
 * the bare server's label named by the language's record (RFC 0024), so both sides say the same.
 */
export function symbolKeyName(name: string, containerName: string | undefined): string {
  return containerName === undefined ? name : `${containerName}.${name}`
}

export function documentSymbolKey(
  chain: ReadonlyArray<string>,
  name: string,
  kind: number | string,
  path: string,
  range: Range,
  selectionRange: Range,
  detail: string | undefined,
): string {
  const kindName = typeof kind === 'number' ? (lspSymbolKinds[kind - 1] ?? 'object') : kind
  return `${[...chain, name].join('/')}|${kindName}|${locationKey(path, range)} ^${rangeKey(selectionRange)}${detail ? ` ${JSON.stringify(detail)}` : ''}`
}

/** One diagnostic: `path@range|severity|code|message`; severity as the seam names it, code as JSON. */
export function diagnosticKey(path: string, range: Range, severity: string, code: number | string | undefined, message: string): string {
  return `${locationKey(path, range)}|${severity}|${JSON.stringify(code ?? null)}|${message}`
}

/** The seam's name of an LSP severity number (missing: error, as codeseam's translator has it). */
export function severityName(severity: number | undefined): string {
  return (['error', 'warning', 'information', 'hint'] as const)[(severity ?? 1) - 1] ?? 'error'
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
