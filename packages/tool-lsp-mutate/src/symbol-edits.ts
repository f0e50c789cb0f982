import { LspError, type LspPosition, type LspTextEdit, type ResolvedTarget } from '@codeseam/lsp'

import { blankLinesAround, bodySpan, declarationSpan, leadingKind, lineEnding, reindent, symbolLanguage } from './symbol-range.js'

/**
 * Text edits for `code_insert` and `code_replace`, computed from a resolved target and the declaration
 * span around it (see symbol-range.ts). Pure functions of the document text: the transaction previews and
 * applies what they return.
 */

/** Where inserted text goes relative to the target. */
export type InsertPosition = 'before' | 'after' | 'start' | 'end'

/** A planned edit and what a model should know about it. */
export interface PlannedEdit {
  readonly edit: LspTextEdit
  readonly notes: ReadonlyArray<string>
}

/** Text without a trailing newline, with the document's line terminator. */
function normalize(text: string, eol: string): string {
  const plain = text.replace(/\r\n?/g, '\n').replace(/\n$/, '')
  return eol === '\n' ? plain : plain.replace(/\n/g, eol)
}

function at(line: number, character = 0): { start: LspPosition; end: LspPosition } {
  return { start: { line, character }, end: { line, character } }
}

function indentOfLine(resolved: ResolvedTarget, line: number): string {
  return /^[ \t]*/.exec(resolved.lines.lineText(line))?.[0] ?? ''
}

/** Inserts `text` before/after the target (as whole lines) or at the start/end of a symbol's body. */
export function planInsert(resolved: ResolvedTarget, position: InsertPosition, text: string): PlannedEdit {
  if (text.trim().length === 0) throw new LspError('INVALID_ARGUMENT', 'text is empty: give the code to insert')
  const { lines } = resolved
  const eol = lineEnding(lines.text)
  const notes: string[] = []
  const withIndent = (indent: string) => {
    const result = reindent(text.replace(/\r\n?/g, '\n').replace(/\n$/, ''), indent)
    if (result.reindented) notes.push(`the text was written flush left and was indented to match (${JSON.stringify(indent)})`)
    return normalize(result.text, eol)
  }
  const afterLine = (line: number, body: string, gap: number): LspTextEdit => {
    if (line + 1 < lines.lineCount) return { range: at(line + 1), newText: eol.repeat(gap) + body + eol }
    return { range: at(line, lines.lineLength(line)), newText: eol + eol.repeat(gap) + body }
  }
  const symbol = resolved.symbol
  if (symbol === undefined) {
    const line = resolved.position.line
    if (position === 'start' || position === 'end') {
      throw new LspError(
        'INVALID_ARGUMENT',
        `position "${position}" needs a symbol target (its body); for a line target use "before" or "after"`,
      )
    }
    const body = withIndent(indentOfLine(resolved, line))
    return { edit: position === 'before' ? { range: at(line), newText: body + eol } : afterLine(line, body, 0), notes }
  }
  const language = symbolLanguage(resolved.path)
  const span = declarationSpan(lines, symbol, language)
  if (position === 'before' || position === 'after') {
    const blanks = blankLinesAround(lines, span.leadingStartLine, span.end.line)
    // Keep the spacing the file already uses between declarations here.
    const gap = Math.min(2, Math.max(blanks.above, blanks.below))
    const body = withIndent(span.indent)
    if (position === 'before') {
      if (span.leadingStartLine < span.declarationLine)
        notes.push(`inserted above the doc comment/decorators that start at line ${span.leadingStartLine + 1}`)
      return { edit: { range: at(span.leadingStartLine), newText: body + eol + eol.repeat(gap) }, notes }
    }
    return { edit: afterLine(span.end.line, body, gap), notes }
  }
  const bodyAt = bodySpan(lines, span, symbol.selectionRange.end, language)
  const body = withIndent(bodyAt.indent)
  const line = position === 'start' ? bodyAt.firstLine : bodyAt.afterLastLine
  if (line >= lines.lineCount)
    return { edit: { range: at(lines.lineCount - 1, lines.lineLength(lines.lineCount - 1)), newText: eol + body }, notes }
  return { edit: { range: at(line), newText: body + eol }, notes }
}

/**
 * Replaces a symbol's declaration, or lines `line`..`endLine` of a line target. For a symbol, text that
 * starts with a doc comment replaces the doc comment too; text that starts with a decorator/attribute
 * replaces the decorators (keeping a doc comment above them); other text replaces the declaration from its
 * first modifier (`export`, `async`, …) and keeps what is above it.
 */
export function planReplace(resolved: ResolvedTarget, text: string, endLine?: number): PlannedEdit {
  const { lines } = resolved
  const eol = lineEnding(lines.text)
  const notes: string[] = []
  const symbol = resolved.symbol
  if (symbol === undefined) {
    const first = resolved.position.line
    const last = endLine === undefined ? first : endLine - 1
    if (!Number.isInteger(last) || last < first || last >= lines.lineCount) {
      throw new LspError('INVALID_ARGUMENT', `endLine ${endLine} must be between line ${first + 1} and the last line (${lines.lineCount})`)
    }
    return {
      edit: {
        range: { start: { line: first, character: 0 }, end: { line: last, character: lines.lineLength(last) } },
        newText: normalize(text, eol),
      },
      notes,
    }
  }
  if (endLine !== undefined) {
    throw new LspError(
      'INVALID_ARGUMENT',
      'endLine goes with a line target (path + line); a symbol target already spans its whole declaration',
    )
  }
  const language = symbolLanguage(resolved.path)
  const span = declarationSpan(lines, symbol, language)
  const kind = leadingKind(text, language)
  let start = span.start
  if (span.start.character === 0) {
    const startLine = kind === 'comment' ? span.leadingStartLine : kind === 'decorator' ? span.decoratorStartLine : span.declarationLine
    start = { line: startLine, character: 0 }
    if (startLine > span.leadingStartLine) {
      notes.push(
        `kept ${startLine - span.leadingStartLine === 1 ? `line ${startLine}` : `lines ${span.leadingStartLine + 1}–${startLine}`} above the declaration (doc comment/decorators); start text with them to replace them too`,
      )
    }
  }
  let newText = text.replace(/\r\n?/g, '\n').replace(/\n$/, '')
  if (start.character === 0) {
    const result = reindent(newText, span.indent)
    if (result.reindented) notes.push(`the text was written flush left and was indented to match (${JSON.stringify(span.indent)})`)
    newText = result.text
  }
  return { edit: { range: { start, end: span.end }, newText: normalize(newText, eol) }, notes }
}
