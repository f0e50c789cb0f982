import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { applyTextEdits, LspError, snippetToPlainText, TextLines, toModelPosition } from '../src/index.js'

const lineBreak = fc.constantFrom('\n', '\r\n', '\r')
const segment = fc.string({ unit: fc.constantFrom('a', 'é', '\t', ' ', '𝒳', '中', 'z') })
const document = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 8 }), fc.array(lineBreak, { maxLength: 8 }))
  .map(([parts, breaks]) => parts.reduce((text, part, i) => text + part + (i < parts.length - 1 ? (breaks[i] ?? '\n') : ''), ''))

describe('TextLines', () => {
  it('round-trips every valid offset through seam and model positions', () => {
    fc.assert(
      fc.property(document, fc.nat(), (text, seed) => {
        const lines = new TextLines(text)
        const offset = text.length === 0 ? 0 : seed % (text.length + 1)
        const position = lines.positionAt(offset)
        // Offsets inside a terminator or a surrogate pair are not positions; skip those.
        const isInsidePair = offset > 0 && /[\ud800-\udbff]/.test(text[offset - 1] ?? '') && /[\udc00-\udfff]/.test(text[offset] ?? '')
        fc.pre(!isInsidePair)
        fc.pre(lines.offsetAt(position) === offset)
        const model = toModelPosition(position)
        expect(lines.fromModel(model)).toEqual(position)
        expect(lines.offsetAt(lines.fromModel(model))).toBe(offset)
      }),
    )
  })

  it('splits lines on \\n, \\r\\n and \\r, without terminators in the line text', () => {
    fc.assert(
      fc.property(
        fc.array(
          segment.filter((s) => s.length > 0),
          { minLength: 1, maxLength: 6 },
        ),
        lineBreak,
        (parts, br) => {
          const lines = new TextLines(parts.join(br))
          expect(lines.lineCount).toBe(parts.length)
          parts.forEach((part, i) => expect(lines.lineText(i)).toBe(part))
        },
      ),
    )
  })

  it('rejects columns past the end, surrogate-pair middles and bad lines with INVALID_ARGUMENT', () => {
    const lines = new TextLines('a𝒳b\r\nsecond')
    const codes = [
      () => lines.fromModel({ line: 1, column: 6 }),
      () => lines.fromModel({ line: 1, column: 3 }),
      () => lines.fromModel({ line: 3, column: 1 }),
      () => lines.fromModel({ line: 0, column: 1 }),
      () => lines.fromModel({ line: 1, column: 0 }),
      () => lines.validate({ line: 0, character: -1 }),
    ].map((run) => {
      try {
        run()
        return 'no error'
      } catch (error) {
        return error instanceof LspError ? error.code : 'untyped'
      }
    })
    expect(codes).toEqual(Array(6).fill('INVALID_ARGUMENT'))
    // The end of the line is a valid position; CRLF is not part of it.
    expect(lines.fromModel({ line: 1, column: 5 })).toEqual({ line: 0, character: 4 })
    expect(lines.lineLength(0)).toBe(4)
  })

  it('applies non-overlapping edits from the end and keeps same-position inserts in order', () => {
    const text = 'one\r\ntwo\nthree'
    const at = (line: number, character: number) => ({ line, character })
    expect(
      applyTextEdits(text, [
        { range: { start: at(0, 0), end: at(0, 3) }, newText: 'ONE' },
        { range: { start: at(2, 0), end: at(2, 0) }, newText: 'a' },
        { range: { start: at(2, 0), end: at(2, 0) }, newText: 'b' },
      ]),
    ).toBe('ONE\r\ntwo\nabthree')
    expect(() =>
      applyTextEdits(text, [
        { range: { start: at(0, 0), end: at(0, 3) }, newText: 'x' },
        { range: { start: at(0, 2), end: at(1, 1) }, newText: 'y' },
      ]),
    ).toThrow(LspError)
  })

  it('applies snippet edits as plain text and refuses an end before its start', () => {
    const at = (line: number, character: number) => ({ line, character })
    expect(snippetToPlainText('call(${1:arg}, ${2|a,b|}) $0\\$x ${TM_NAME:default}')).toBe('call(arg, a) $x default')
    expect(applyTextEdits('f()', [{ range: { start: at(0, 2), end: at(0, 2) }, newText: '${1:value}$0', snippet: true }])).toBe('f(value)')
    expect(() => applyTextEdits('abc', [{ range: { start: at(0, 2), end: at(0, 1) }, newText: '' }])).toThrow(/end before its start/)
  })
})
