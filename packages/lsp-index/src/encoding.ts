import type { LspPosition } from '@codeseam/lsp'

import type { IndexEncoding } from './decode.js'

// Columns between encodings. The seam counts UTF-16 code units; an index may count UTF-8 bytes (scip-go) or UTF-32
// code points. Converting needs the line's text; a column past the line's end stays past it.

/** Units one code point takes in an encoding. */
function width(codePoint: number, encoding: IndexEncoding): number {
  if (encoding === 'utf-32') return 1
  if (encoding === 'utf-16') return codePoint > 0xffff ? 2 : 1
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4
}

/** A column of `line` counted in `from` units, counted in `to` units. */
export function convertColumn(line: string, character: number, from: IndexEncoding, to: IndexEncoding): number {
  if (from === to) return character
  let counted = 0
  let converted = 0
  for (const char of line) {
    if (counted >= character) break
    const codePoint = char.codePointAt(0) ?? 0
    counted += width(codePoint, from)
    converted += width(codePoint, to)
  }
  // Past the end of the line: keep the excess as is.
  return converted + Math.max(0, character - counted)
}

/** The lines of a text, split as the protocol does (`\n`, `\r\n`, `\r`). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/)
}

/** A position counted in `from` units, counted in `to` units, on `lines`. */
export function convertPosition(lines: ReadonlyArray<string>, position: LspPosition, from: IndexEncoding, to: IndexEncoding): LspPosition {
  if (from === to) return position
  return { line: position.line, character: convertColumn(lines[position.line] ?? '', position.character, from, to) }
}
