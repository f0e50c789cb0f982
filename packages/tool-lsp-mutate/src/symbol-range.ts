import { declarationReadingOf, LspError, type LspDeclarationReading, type LspPosition, type LspRange, type TextLines } from '@codeseam/lsp'

/**
 * Where a declaration really begins and ends in the text, beyond the range a server reports: leading doc
 * comments and decorators/attributes, export and other modifiers before the name, a trailing `;` or comment,
 * and the body's first and last lines for insertions. These are the spots where symbol edits go wrong
 * elsewhere: `export const` duplicated, decorators stripped or orphaned, blank lines eaten, code put before
 * a Python docstring.
 */

/**
 * The comment, decorator, modifier and body syntax of a file's language: the seam's facts for it
 * (`languages/<id>/` in @codeseam/lsp), the C family's for a language that states none.
 */
export type SymbolLanguage = LspDeclarationReading

/** The declaration syntax of a path's language, from the seam's language facts. */
export function symbolLanguage(path: string): SymbolLanguage {
  return declarationReadingOf(path)
}

/** The text span of one declaration. Lines are zero-based. */
export interface DeclarationSpan {
  /** First line of the leading block (doc comments, then decorators/attributes); = declarationLine without one. */
  readonly leadingStartLine: number
  /** First decorator/attribute line; = declarationLine without decorators. */
  readonly decoratorStartLine: number
  /** The line the declaration's own text (modifiers, keyword, name) starts on. */
  readonly declarationLine: number
  /** Start of the declaration: column 0 when only indentation and modifiers precede it on its line. */
  readonly start: LspPosition
  /** End of the declaration: the line's end when only `;`, `,` or a comment follows. */
  readonly end: LspPosition
  /** The declaration owns whole lines (start at column 0, end at the line's end). */
  readonly wholeLines: boolean
  /** Indentation of the declaration line. */
  readonly indent: string
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** What may follow a declaration's end on its line for it to own the line: `;` or `,`, then a comment. */
const trailingPatterns = new WeakMap<SymbolLanguage, RegExp>()
function trailing(language: SymbolLanguage): RegExp {
  let pattern = trailingPatterns.get(language)
  if (pattern === undefined) {
    const comments = [
      ...language.comments.line.map((start) => `${escape(start)}.*`),
      ...language.comments.block.map(([open, close]) => `${escape(open)}.*${escape(close)}\\s*`),
    ]
    pattern = new RegExp(`^\\s*[;,]?\\s*${comments.length === 0 ? '' : `(?:${comments.join('|')})?`}$`)
    trailingPatterns.set(language, pattern)
  }
  return pattern
}

/** A line that is a whole comment by itself: a line comment or a one-line block comment. */
function isLineComment(trimmed: string, language: SymbolLanguage): boolean {
  const { line, block } = language.comments
  return (
    line.some((start) => trimmed.startsWith(start)) || block.some(([open, close]) => trimmed.startsWith(open) && trimmed.endsWith(close))
  )
}

/** Whether replacement text opens with a comment. */
function opensWithComment(trimmed: string, language: SymbolLanguage): boolean {
  const { line, block } = language.comments
  return line.some((start) => trimmed.startsWith(start)) || block.some(([open]) => trimmed.startsWith(open))
}

function isDecoratorStart(trimmed: string, language: SymbolLanguage): boolean {
  return language.decorators.some((prefix) => trimmed.startsWith(prefix))
}

/** A line's text before its first line-comment start (naive about strings, as the header scan always was). */
function withoutLineComment(text: string, language: SymbolLanguage): string {
  const starts = language.comments.line.map((start) => text.indexOf(start)).filter((index) => index >= 0)
  return starts.length === 0 ? text : text.slice(0, Math.min(...starts))
}

/** The block comment a line closes without opening it (the last line of a multi-line comment), if any. */
function closedBlock(trimmed: string, language: SymbolLanguage): readonly [string, string] | undefined {
  return language.comments.block.find(([open, close]) => trimmed.endsWith(close) && !trimmed.includes(open))
}

/** Closing minus opening brackets on a line, outside simple string literals. */
function bracketBalance(text: string): number {
  let balance = 0
  let quote: string | undefined
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quote !== undefined) {
      if (ch === '\\') i++
      else if (ch === quote) quote = undefined
      continue
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch
    else if (ch === ')' || ch === ']' || ch === '}') balance++
    else if (ch === '(' || ch === '[' || ch === '{') balance--
  }
  return balance
}

function indentOf(text: string): string {
  return /^[ \t]*/.exec(text)?.[0] ?? ''
}

/**
 * Scans upward from `line - 1` for attached doc comments and decorators (stops at a blank line or code). A
 * multi-line block comment counts only once its opening `/*` is found, so a half-seen comment is never split.
 */
function leadingBlock(lines: TextLines, line: number, language: SymbolLanguage): { start: number; decoratorStart: number } {
  let start = line
  let decoratorStart = line
  let depth = 0
  let openBlock: string | undefined
  const limit = Math.max(0, line - 400)
  for (let i = line - 1; i >= limit; i--) {
    const trimmed = lines.lineText(i).trim()
    if (openBlock !== undefined) {
      if (trimmed.includes(openBlock)) {
        openBlock = undefined
        start = i
      }
      continue
    }
    if (trimmed === '') {
      if (depth > 0) continue
      break
    }
    if (depth === 0) {
      const block = closedBlock(trimmed, language)
      if (block !== undefined) {
        openBlock = block[0]
        continue
      }
      if (isLineComment(trimmed, language)) {
        start = i
        continue
      }
    }
    depth += bracketBalance(lines.lineText(i))
    if (depth < 0) break
    if (depth > 0) continue
    if (isDecoratorStart(trimmed, language)) {
      start = i
      decoratorStart = i
      continue
    }
    break
  }
  return { start, decoratorStart: decoratorStart === line ? line : decoratorStart }
}

/** The declaration span of a symbol whose server ranges are `range` (whole declaration) and `selectionRange` (its name). */
export function declarationSpan(
  lines: TextLines,
  symbol: { readonly range: LspRange; readonly selectionRange: LspRange },
  language: SymbolLanguage,
): DeclarationSpan {
  const nameLine = symbol.selectionRange.start.line
  let end = symbol.range.end
  // Some servers end a range at the start of the next line, or include trailing blank lines.
  if (end.character === 0 && end.line > symbol.range.start.line) end = { line: end.line - 1, character: lines.lineLength(end.line - 1) }
  while (end.line > nameLine && lines.lineText(end.line).trim() === '')
    end = { line: end.line - 1, character: lines.lineLength(end.line - 1) }

  let declarationLine = nameLine
  let leading = leadingBlock(lines, nameLine, language)
  // The server's range starts above the name but not in a doc/decorator block: the declaration head spans lines.
  if (symbol.range.start.line < nameLine && symbol.range.start.line < leading.start) {
    declarationLine = symbol.range.start.line
    leading = leadingBlock(lines, declarationLine, language)
  } else if (symbol.range.start.line < nameLine) {
    // The server included (part of) the leading block; find the first line that is neither comment nor decorator.
    declarationLine = nameLine
  }
  const declarationText = lines.lineText(declarationLine)
  const startsOnDeclarationLine = symbol.range.start.line === declarationLine
  const prefix = startsOnDeclarationLine ? declarationText.slice(0, symbol.range.start.character) : ''
  const wholeStart = !startsOnDeclarationLine || language.modifiers.test(prefix)
  const start: LspPosition = wholeStart ? { line: declarationLine, character: 0 } : symbol.range.start
  const suffix = lines.lineText(end.line).slice(end.character)
  const wholeEnd = trailing(language).test(suffix)
  const finalEnd: LspPosition = wholeEnd ? { line: end.line, character: lines.lineLength(end.line) } : end
  return {
    leadingStartLine: wholeStart ? leading.start : declarationLine,
    decoratorStartLine: wholeStart ? leading.decoratorStart : declarationLine,
    declarationLine,
    start,
    end: finalEnd,
    wholeLines: wholeStart && wholeEnd,
    indent: indentOf(declarationText),
  }
}

/** Where the body of a declaration starts and ends, for `start` / `end` insertions. */
export interface BodySpan {
  /** Insert here (column 0) to put text first in the body. */
  readonly firstLine: number
  /** Insert here (column 0) to put text last in the body. */
  readonly afterLastLine: number
  /** Indentation of the body's statements. */
  readonly indent: string
}

function unitIndent(lines: TextLines): string {
  for (let i = 0; i < lines.lineCount; i++) {
    const indent = indentOf(lines.lineText(i))
    if (indent.length > 0 && lines.lineText(i).trim() !== '') return indent.startsWith('\t') ? '\t' : indent.length >= 4 ? '    ' : indent
  }
  return '  '
}

function oneLineBody(span: DeclarationSpan): LspError {
  return new LspError(
    'INVALID_ARGUMENT',
    `the declaration's body is on its header line (line ${span.declarationLine + 1}), so there is no line to insert at; use code_replace for the whole declaration`,
  )
}

/** The body of a declaration (class, function, block-bodied variable). INVALID_ARGUMENT when it has none. */
export function bodySpan(lines: TextLines, span: DeclarationSpan, nameEnd: LspPosition, language: SymbolLanguage): BodySpan {
  const lastLine = span.end.line
  if (language.body === 'indentation') {
    // The header ends at the first line (outside brackets) whose code ends with ':'.
    let depth = 0
    let headerEnd = -1
    for (let i = nameEnd.line; i <= lastLine; i++) {
      const code = withoutLineComment(lines.lineText(i), language).trimEnd()
      depth -= bracketBalance(code)
      if (depth <= 0 && code.endsWith(':')) {
        headerEnd = i
        break
      }
    }
    if (headerEnd < 0)
      throw new LspError(
        'INVALID_ARGUMENT',
        `line ${span.declarationLine + 1} does not start a block (no ':' header found); start/end insertions need a class or function`,
      )
    if (headerEnd === lastLine) throw oneLineBody(span)
    let first = headerEnd + 1
    while (first <= lastLine && lines.lineText(first).trim() === '') first++
    const indent = first <= lastLine ? indentOf(lines.lineText(first)) : span.indent + unitIndent(lines)
    // A docstring must stay the body's first statement.
    const docstring = /^[rRuUbBfF]{0,2}("""|''')/.exec(lines.lineText(first).trim())
    let firstLine = first
    if (docstring) {
      const quote = docstring[1]!
      const opening = lines.lineText(first).trim().slice(docstring[0].length)
      let closing = first
      if (!opening.includes(quote)) {
        closing = first + 1
        while (closing <= lastLine && !lines.lineText(closing).includes(quote)) closing++
      }
      firstLine = Math.min(closing, lastLine) + 1
    }
    return { firstLine, afterLastLine: lastLine + 1, indent }
  }
  // Brace languages: the body opens at the first '{' after the name outside parentheses.
  let depth = 0
  let openLine = -1
  for (let i = nameEnd.line; i <= lastLine && openLine < 0; i++) {
    const text = lines.lineText(i)
    for (let c = i === nameEnd.line ? nameEnd.character : 0; c < text.length; c++) {
      const ch = text[c]
      if (ch === '(' || ch === '[') depth++
      else if (ch === ')' || ch === ']') depth--
      else if (ch === '{' && depth === 0) {
        openLine = i
        break
      }
    }
  }
  if (openLine < 0)
    throw new LspError(
      'INVALID_ARGUMENT',
      `the declaration at line ${span.declarationLine + 1} has no '{' body; start/end insertions need a class, interface, function or block`,
    )
  if (openLine === lastLine) throw oneLineBody(span)
  const closing = lines.lineText(lastLine).trim()
  if (!closing.startsWith('}')) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `the body of the declaration at line ${span.declarationLine + 1} does not end on a line of its own; use code_replace`,
    )
  }
  let first = openLine + 1
  while (first < lastLine && lines.lineText(first).trim() === '') first++
  const indent = first < lastLine ? indentOf(lines.lineText(first)) : indentOf(lines.lineText(lastLine)) + unitIndent(lines)
  return { firstLine: openLine + 1, afterLastLine: lastLine, indent }
}

/**
 * Re-indents text written flush left (its first line starts at column 0) to `indent`, keeping the relative
 * indentation of later lines. Text whose first line is already indented is kept as is.
 */
export function reindent(text: string, indent: string): { text: string; reindented: boolean } {
  const lines = text.split('\n')
  const first = lines.find((l) => l.trim() !== '')
  if (indent === '' || first === undefined || /^[ \t]/.test(first)) return { text, reindented: false }
  return { text: lines.map((l) => (l.trim() === '' ? l : indent + l)).join('\n'), reindented: true }
}

/** The line terminator a document uses. */
export function lineEnding(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n'
}

/** Blank lines directly above `line` (when there is content above) and below `line` (when there is content below). */
export function blankLinesAround(lines: TextLines, firstLine: number, lastLine: number): { above: number; below: number } {
  let above = 0
  for (let i = firstLine - 1; i >= 0 && lines.lineText(i).trim() === ''; i--) above++
  if (firstLine - above <= 0) above = 0
  let below = 0
  for (let i = lastLine + 1; i < lines.lineCount && lines.lineText(i).trim() === ''; i++) below++
  if (lastLine + below >= lines.lineCount - 1) below = 0
  return { above, below }
}

/** Whether replacement text begins with a doc comment, a decorator/attribute, or neither. */
export function leadingKind(text: string, language: SymbolLanguage): 'comment' | 'decorator' | 'code' {
  const first =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? ''
  if (opensWithComment(first, language)) return 'comment'
  if (isDecoratorStart(first, language)) return 'decorator'
  return 'code'
}
