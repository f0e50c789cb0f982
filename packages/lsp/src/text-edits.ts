import { TextLines } from './coordinates.js'
import { LspError } from './errors.js'
import type { LspTextEdit } from './vocabulary.js'

/** Applies text edits to a text (edits must not overlap; they are applied from the end). */
export function applyTextEdits(text: string, edits: ReadonlyArray<LspTextEdit>): string {
  const lines = new TextLines(text)
  const spans = edits
    .map((edit, index) => ({ index, start: lines.offsetAt(edit.range.start), end: lines.offsetAt(edit.range.end), text: edit.newText }))
    // From the end; inserts at one position keep their array order in the result (as the protocol says).
    .sort((a, b) => b.start - a.start || b.end - a.end || b.index - a.index)
  let result = text
  let previousStart = Number.POSITIVE_INFINITY
  for (const span of spans) {
    if (span.end > previousStart) throw new LspError('INVALID_ARGUMENT', 'text edits overlap')
    result = result.slice(0, span.start) + span.text + result.slice(span.end)
    previousStart = span.start
  }
  return result
}
