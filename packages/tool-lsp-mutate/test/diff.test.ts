import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import fc from 'fast-check'
import { describe, expect, test } from 'vitest'

import { applyTextEdits, snippetToPlainText } from '@codeseam/lsp'

import { applyUnifiedDiff, unifiedDiff } from '../src/diff.js'

/** Texts made of a few short lines, with or without a final newline, so diffs have real overlap. */
const texts = fc
  .tuple(fc.array(fc.constantFrom('a', 'b', 'c', 'd', '', 'x y', '\tz'), { maxLength: 30 }), fc.boolean())
  .map(([lines, finalNewline]) => (lines.length === 0 ? '' : lines.join('\n') + (finalNewline ? '\n' : '')))

describe('unified diff', () => {
  test('the exact shape of a small diff', () => {
    expect(unifiedDiff('src/f.ts', 'a\nb\nc\n', 'a\nB\nc\n').text).toBe('--- a/src/f.ts\n+++ b/src/f.ts\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n')
    expect(unifiedDiff('f', 'a\n', 'a').text).toBe('--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-a\n+a\n\\ No newline at end of file\n')
    expect(unifiedDiff('f', null, 'x\n').text).toBe('--- /dev/null\n+++ b/f\n@@ -0,0 +1,1 @@\n+x\n')
    expect(unifiedDiff('f', 'same\n', 'same\n')).toEqual({ text: '', added: 0, removed: 0 })
  })

  test('applying the diff to the old text gives the new text (property)', () => {
    fc.assert(
      fc.property(texts, texts, (before, after) => {
        const diff = unifiedDiff('f', before, after)
        expect(applyUnifiedDiff(before, diff.text)).toBe(after)
      }),
      { numRuns: 500 },
    )
  })

  test('GNU patch accepts the diffs and reproduces the new text', () => {
    const dir = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-diff-'))
    try {
      fc.assert(
        fc.property(texts, texts, (before, after) => {
          fc.pre(before !== after)
          const file = nodePath.join(dir, 'f.txt')
          writeFileSync(file, before)
          writeFileSync(nodePath.join(dir, 'p.diff'), unifiedDiff('f.txt', before, after).text)
          execFileSync('patch', ['--quiet', '--force', '-p1', '-i', 'p.diff'], { cwd: dir })
          expect(readFileSync(file, 'utf8')).toBe(after)
        }),
        { numRuns: 60 },
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('text edits and snippets', () => {
  test('edits apply from a common base; inserts at one point keep their order; overlaps are refused', () => {
    const text = 'one\ntwo\nthree\n'
    const at = (line: number, character: number) => ({ line, character })
    expect(
      applyTextEdits(text, [
        { range: { start: at(1, 0), end: at(1, 3) }, newText: 'TWO' },
        { range: { start: at(0, 0), end: at(0, 0) }, newText: 'a' },
        { range: { start: at(0, 0), end: at(0, 0) }, newText: 'b' },
      ]),
    ).toBe('abone\nTWO\nthree\n')
    expect(() =>
      applyTextEdits(text, [
        { range: { start: at(0, 0), end: at(1, 2) }, newText: '' },
        { range: { start: at(1, 1), end: at(2, 0) }, newText: '' },
      ]),
    ).toThrow(/overlap/)
  })

  test('snippet syntax becomes the plain text it would insert', () => {
    expect(snippetToPlainText('console.log($1)$0')).toBe('console.log()')
    expect(snippetToPlainText('const ${1:name} = ${2:value};')).toBe('const name = value;')
    expect(snippetToPlainText('${1:outer ${2:inner}}')).toBe('outer inner')
    expect(snippetToPlainText('${1|first,second|}')).toBe('first')
    expect(snippetToPlainText('price: \\$5 \\} done')).toBe('price: $5 } done')
    expect(snippetToPlainText('${TM_FILENAME:untitled} $TM_LINE_NUMBER')).toBe('untitled ')
    expect(snippetToPlainText('cost $ 5')).toBe('cost $ 5')
  })
})
