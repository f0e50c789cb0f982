import { TextLines, type LspDiagnostic, type LspRange, type LspTextEdit } from '@codeseam/lsp'
import type { Workspace } from '@astral-sh/ruff-wasm-nodejs'

import { ruffCheck, type RuffDiagnostic } from './wasm.js'

/*
 * ruff's answers in LSP's terms: its rows and columns are 1-based (columns in UTF-16 code units, the encoding
 * the workspace is made with), and a fix is a set of edits in those coordinates.
 */

type RuffLocation = { readonly row: number; readonly column: number }

function position(location: RuffLocation) {
  return { line: location.row - 1, character: location.column - 1 }
}

/** A range in LSP coordinates. */
export function rangeOf(start: RuffLocation, end: RuffLocation): LspRange {
  return { start: position(start), end: position(end) }
}

/** One ruff diagnostic as the seam's: a syntax error is an error, a lint a warning. */
export function toLspDiagnostic(d: RuffDiagnostic): LspDiagnostic {
  const syntax = d.code === null || d.code === 'invalid-syntax'
  return {
    range: rangeOf(d.start_location, d.end_location),
    severity: syntax ? 'error' : 'warning',
    message: d.message,
    ...(d.code === null ? {} : { code: d.code }),
    source: 'Ruff',
    ...(d.tags.length === 0 ? {} : { tags: [...d.tags] }),
  }
}

/**
 * Rules of ruff's default selection whose fixes ruff marks unsafe (they can change behaviour). ruff's
 * WebAssembly build reports fixes without their safety, so fix-all leaves these out; each stays available as
 * its own quick fix. F401 is unsafe only in an `__init__.py` (a removed import there may be a re-export).
 */
const unsafeFixRules = new Set(['E711', 'E712', 'E731', 'F601', 'F602', 'F811', 'F841', 'F901'])

/** Whether fix-all applies this diagnostic's fix. */
export function isSafeFix(d: RuffDiagnostic, path: string): boolean {
  if (d.fix === null || d.code === null) return false
  if (d.code === 'F401') return !/(^|[\\/])__init__\.pyi?$/.test(path)
  return !unsafeFixRules.has(d.code)
}

/** Applies the fixes that do not overlap an earlier one (ruff's own rule), in one pass. */
function applyFixes(text: string, fixes: ReadonlyArray<NonNullable<RuffDiagnostic['fix']>>): string {
  const lines = new TextLines(text)
  const offset = (l: RuffLocation) => lines.offsetAt(position(l))
  const spans = fixes
    .map((fix) => fix.edits.map((e) => ({ start: offset(e.location), end: offset(e.end_location), text: e.content ?? '' })))
    .filter((edits) => edits.length > 0)
    .sort((a, b) => Math.min(...a.map((e) => e.start)) - Math.min(...b.map((e) => e.start)))
  const accepted: Array<{ start: number; end: number; text: string }> = []
  for (const edits of spans) {
    const overlaps = edits.some((e) => accepted.some((a) => e.start < a.end && a.start < e.end))
    if (!overlaps) accepted.push(...edits)
  }
  let result = text
  for (const edit of accepted.sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end)
  return result
}

/**
 * The text after applying the fixes `pick` chooses, checking again after each pass (a fix can make or move
 * others), as `ruff check --fix` does; at most ten passes.
 */
export function fixedText(workspace: Workspace, text: string, pick: (d: RuffDiagnostic) => boolean): string {
  let current = text
  for (let pass = 0; pass < 10; pass++) {
    const fixes = ruffCheck(workspace, current)
      .filter(pick)
      .flatMap((d) => (d.fix === null ? [] : [d.fix]))
    if (fixes.length === 0) break
    const next = applyFixes(current, fixes)
    if (next === current) break
    current = next
  }
  return current
}

/** One fix's edits in LSP terms. */
export function fixEdits(fix: NonNullable<RuffDiagnostic['fix']>): LspTextEdit[] {
  return fix.edits.map((e) => ({ range: rangeOf(e.location, e.end_location), newText: e.content ?? '' }))
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** The one edit turning `before` into `after`: their common start and end kept, never splitting a surrogate pair. */
export function minimalEdit(before: string, after: string): LspTextEdit | undefined {
  if (before === after) return undefined
  let prefix = 0
  const shorter = Math.min(before.length, after.length)
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++
  if (prefix > 0 && isHighSurrogate(before.charCodeAt(prefix - 1))) prefix--
  let suffix = 0
  while (suffix < shorter - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix))
    suffix++
  if (suffix > 0 && isLowSurrogate(before.charCodeAt(before.length - suffix))) suffix--
  const lines = new TextLines(before)
  return {
    range: { start: lines.positionAt(prefix), end: lines.positionAt(before.length - suffix) },
    newText: after.slice(prefix, after.length - suffix),
  }
}
