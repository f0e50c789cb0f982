import { describe, expect, test } from 'vitest'
import {
  builtInLanguages,
  contentHash,
  declarationReadingOf,
  TextLines,
  type LspFlatSymbol,
  type LspLanguage,
  type LspRange,
  type ResolvedTarget,
} from '@codeseam/lsp'

import { applyTextEdits } from '@codeseam/lsp'

import { planInsert, planReplace } from '../src/symbol-edits.js'
import { bodySpan, declarationSpan, leadingKind } from '../src/symbol-range.js'

/**
 * Declaration-span rules on hand-made symbols whose ranges are found by text (the server suites cover the
 * ranges real servers report; these cover shapes the fixtures do not have).
 */

function rangeOf(text: string, from: string, to = from): LspRange {
  const lines = new TextLines(text)
  const start = text.indexOf(from)
  if (start < 0) throw new Error(`"${from}" not found`)
  const endAt = text.indexOf(to, start) + to.length
  return { start: lines.positionAt(start), end: lines.positionAt(endAt) }
}

/** A target on a symbol whose range spans `from`..`to` and whose name is `name`. */
function target(path: string, text: string, name: string, from: string, to: string): ResolvedTarget {
  const lines = new TextLines(text)
  const range = rangeOf(text, from, to)
  const nameAt = text.indexOf(name, text.indexOf(from))
  const selectionRange = { start: lines.positionAt(nameAt), end: lines.positionAt(nameAt + name.length) }
  const symbol: LspFlatSymbol = { name, qualifiedName: name, kind: 'variable', range, selectionRange }
  return {
    root: '/r',
    rootId: 'r',
    path: `/r/${path}`,
    displayPath: path,
    position: selectionRange.start,
    document: { path: `/r/${path}`, uri: `file:///r/${path}`, text, hash: contentHash(text) },
    lines,
    symbol,
    resolvedBy: 'symbol',
  }
}

function apply(resolved: ResolvedTarget, edit: { edit: { range: LspRange; newText: string } }): string {
  return applyTextEdits(resolved.document.text, [edit.edit])
}

describe('declaration spans', () => {
  test('a second declarator on a shared line is replaced alone', () => {
    const text = 'export const a = 1, b = 2\n'
    const resolved = target('x.ts', text, 'b', 'b = 2', 'b = 2')
    expect(apply(resolved, planReplace(resolved, 'b = 3'))).toBe('export const a = 1, b = 3\n')
  })

  test('a trailing comment after the declaration belongs to it', () => {
    const text = 'export const x = 1; // old note\nconst y = 2\n'
    const resolved = target('x.ts', text, 'x', 'x = 1', 'x = 1')
    expect(apply(resolved, planReplace(resolved, 'export const x = 5; // new note'))).toBe('export const x = 5; // new note\nconst y = 2\n')
  })

  test('a doc comment separated by a blank line is not attached', () => {
    const text = '/** File header. */\n\nexport function f() {\n  return 1\n}\n'
    const resolved = target('x.ts', text, 'f', 'export function f', '\n}')
    const result = apply(resolved, planInsert(resolved, 'before', 'const g = 0'))
    expect(result).toBe('/** File header. */\n\nconst g = 0\n\nexport function f() {\n  return 1\n}\n')
  })

  test('CRLF files get CRLF in inserted lines', () => {
    const text = 'function f() {\r\n  return 1\r\n}\r\n\r\nfunction g() {}\r\n'
    const resolved = target('x.ts', text, 'f', 'function f', '\r\n}')
    expect(apply(resolved, planInsert(resolved, 'after', 'function h() {}'))).toBe(
      'function f() {\r\n  return 1\r\n}\r\n\r\nfunction h() {}\r\n\r\nfunction g() {}\r\n',
    )
  })

  test('a body on the header line has no line to insert at', () => {
    const text = 'function f() { return 1 }\n'
    const resolved = target('x.ts', text, 'f', 'function f', '}')
    expect(() => planInsert(resolved, 'start', 'x()')).toThrow(/use code_replace/)
  })

  test('line targets: replace lines line..endLine literally, insert before a line with its indentation', () => {
    const text = 'a\n  b\n  c\nd\n'
    const lines = new TextLines(text)
    const base = target('x.ts', text, 'a', 'a', 'a')
    const { symbol: _symbol, ...withoutSymbol } = base
    const lineTarget: ResolvedTarget = { ...withoutSymbol, position: lines.firstNonBlank(1), resolvedBy: 'line' }
    expect(apply(lineTarget, planReplace(lineTarget, '  B\n  C', 3))).toBe('a\n  B\n  C\nd\n')
    expect(apply(lineTarget, planInsert(lineTarget, 'before', 'z'))).toBe('a\n  z\n  b\n  c\nd\n')
    expect(() => planReplace(lineTarget, 'x', 1)).toThrow(/endLine/)
  })

  test('a code line ending in a block comment is not a doc comment; a multi-line JSDoc is attached whole', () => {
    const text = 'const a = 1 /* one */\nexport function f() {\n  return a\n}\n'
    const resolved = target('x.ts', text, 'f', 'export function f', '\n}')
    expect(apply(resolved, planReplace(resolved, '/** F. */\nexport function f() {}'))).toBe(
      'const a = 1 /* one */\n/** F. */\nexport function f() {}\n',
    )
    const documented = 'let x = 0\n\n/**\n * F.\n *\n * More.\n */\nexport function f() {\n  return x\n}\n'
    const resolvedDoc = target('x.ts', documented, 'f', 'export function f', '\n}')
    expect(apply(resolvedDoc, planReplace(resolvedDoc, '/** G. */\nexport function f() {}'))).toBe(
      'let x = 0\n\n/** G. */\nexport function f() {}\n',
    )
    expect(apply(resolvedDoc, planInsert(resolvedDoc, 'before', 'let y = 1'))).toBe(
      'let x = 0\n\nlet y = 1\n\n/**\n * F.\n *\n * More.\n */\nexport function f() {\n  return x\n}\n',
    )
  })
})

describe("a file's language facts drive its declaration syntax", () => {
  // A throwaway language folder: `#` comments and Python's declaration syntax, under an extension no
  // built-in language claims.
  const python = builtInLanguages.find((language) => language.id === 'python')!
  const hashLanguage: LspLanguage = {
    id: 'hashlang',
    languageIds: ['hashlang'],
    label: 'Hashlang',
    extensions: ['.hashlang'],
    comments: { line: ['#'], block: [] },
    declarations: python.declarations!,
  }
  const languages = [...builtInLanguages, hashLanguage]
  const text = 'x = 1\n# Doc.\n@wrap\ndef f():  # head\n    """Docstring."""\n    return 1\n'
  const lines = new TextLines(text)
  const symbol = { range: rangeOf(text, 'def f', 'return 1'), selectionRange: rangeOf(text, 'f():', 'f') }
  const spanOf = (path: string) => {
    const language = declarationReadingOf(path, languages)
    const span = declarationSpan(lines, symbol, language)
    return { span, body: bodySpan(lines, span, symbol.selectionRange.end, language), kind: leadingKind('# note\ndef f(): pass', language) }
  }

  test('a language with `#` comments and Python declarations reads a declaration as Python does', () => {
    const python = spanOf('/r/x.py')
    expect(python.span.leadingStartLine).toBe(1)
    expect(python.span.decoratorStartLine).toBe(2)
    expect(python.body.firstLine).toBe(5) // after the docstring
    expect(python.kind).toBe('comment')
    expect(spanOf('/r/x.hashlang')).toEqual(python)
  })

  test('the same text under a language without those facts reads differently (C family: no `#` comments)', () => {
    const cFamily = declarationReadingOf('/r/x.unknown', languages)
    expect(cFamily.comments.line).toEqual(['//'])
    const span = declarationSpan(lines, symbol, cFamily)
    expect(span.leadingStartLine).toBe(2) // the `#` line is not a comment there
    expect(leadingKind('# note\ndef f(): pass', cFamily)).toBe('code')
  })
})
