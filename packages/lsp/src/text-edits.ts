import { comparePositions, TextLines } from './coordinates.js'
import { LspError } from './errors.js'
import type { LspRange, LspTextEdit } from './vocabulary.js'

/**
 * Text edits applied in memory, in one place for every backend and tool: overlap checks, snippet text
 * turned into plain text, and the new content of a document.
 */

/** Whether two ranges share any character (touching ends do not overlap; two inserts at one point do not). */
export function rangesOverlap(a: LspRange, b: LspRange): boolean {
  return comparePositions(a.start, b.end) < 0 && comparePositions(b.start, a.end) < 0
}

/**
 * Applies text edits to `text`. Edits are ordered by start; edits at the same point keep their given order
 * (the protocol's rule for several inserts at one position). Overlapping edits and an end before a start
 * are INVALID_ARGUMENT; snippet edits insert their plain text.
 */
export function applyTextEdits(
  text: string,
  edits: ReadonlyArray<Pick<LspTextEdit, 'range' | 'newText' | 'snippet'>>,
  label = 'document',
): string {
  const lines = new TextLines(text)
  const indexed = edits.map((edit, index) => {
    if (comparePositions(edit.range.start, edit.range.end) > 0) {
      throw new LspError('INVALID_ARGUMENT', `an edit to ${label} has its end before its start: ${JSON.stringify(edit.range)}`)
    }
    // A snippet edit is applied as the plain text it would insert (placeholders removed).
    const newText = edit.snippet === true ? snippetToPlainText(edit.newText) : edit.newText
    return { edit: { range: edit.range, newText }, index, start: lines.offsetAt(edit.range.start), end: lines.offsetAt(edit.range.end) }
  })
  indexed.sort((a, b) => a.start - b.start || a.end - b.end || a.index - b.index)
  let out = ''
  let cursor = 0
  for (const item of indexed) {
    if (item.start < cursor) {
      throw new LspError(
        'INVALID_ARGUMENT',
        `two edits to ${label} overlap near line ${item.edit.range.start.line + 1}: overlapping edits cannot be applied together`,
        {
          data: { range: item.edit.range },
        },
      )
    }
    out += text.slice(cursor, item.start) + item.edit.newText
    cursor = item.end
  }
  return out + text.slice(cursor)
}

/**
 * Turns LSP snippet syntax into the plain text it would insert: tab stops (`$1`, `${1}`) vanish,
 * placeholders (`${1:name}`) keep their default text, choices keep their first option, variables keep their
 * default (or vanish), and `\$`, `\}`, `\\` are unescaped.
 */
export function snippetToPlainText(snippet: string): string {
  let index = 0

  const parse = (stopAt: ReadonlySet<string>): string => {
    let out = ''
    while (index < snippet.length) {
      const ch = snippet[index]!
      if (ch === '\\' && index + 1 < snippet.length && '$}\\,|'.includes(snippet[index + 1]!)) {
        out += snippet[index + 1]
        index += 2
        continue
      }
      if (stopAt.has(ch)) return out
      if (ch === '$') {
        const expansion = parseDollar()
        if (expansion !== undefined) {
          out += expansion
          continue
        }
      }
      out += ch
      index++
    }
    return out
  }

  // At a `$`: returns the plain text of a tab stop, placeholder, choice or variable, or undefined (a literal `$`).
  const parseDollar = (): string | undefined => {
    const rest = snippet.slice(index + 1)
    const simple = /^(\d+|[A-Za-z_][A-Za-z0-9_]*)/.exec(rest)
    if (simple) {
      index += 1 + simple[0].length
      return ''
    }
    const braced = /^\{(\d+|[A-Za-z_][A-Za-z0-9_]*)/.exec(rest)
    if (!braced) return undefined
    const start = index
    index += 1 + braced[0].length
    const next = snippet[index]
    if (next === '}') {
      index++
      return ''
    }
    if (next === ':') {
      index++
      const inner = parse(new Set(['}']))
      if (snippet[index] === '}') {
        index++
        return inner
      }
    } else if (next === '|') {
      index++
      const first = parse(new Set([',', '|']))
      // Skip the remaining options up to the closing `|}`.
      while (index < snippet.length && !(snippet[index] === '|' && snippet[index + 1] === '}')) {
        index += snippet[index] === '\\' ? 2 : 1
      }
      if (snippet[index] === '|') {
        index += 2
        return first
      }
    } else if (next === '/') {
      // A variable transform: `${name/regex/format/options}`; without a value to transform it inserts nothing.
      let slashes = 0
      while (index < snippet.length && slashes < 3) {
        if (snippet[index] === '\\') index++
        else if (snippet[index] === '/') slashes++
        index++
      }
      while (index < snippet.length && snippet[index] !== '}') index++
      index++
      return ''
    }
    // Not valid snippet syntax: keep the text literally.
    index = start + 1
    return '$'
  }

  return parse(new Set())
}
