import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { create, toBinary } from '@bufbuild/protobuf'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { LspError } from '@codeseam/lsp'

import {
  DocumentSchema,
  IndexSchema,
  MetadataSchema,
  MultiLineRangeSchema,
  OccurrenceSchema,
  PositionEncoding,
  SingleLineRangeSchema,
  SymbolInformationSchema,
  ToolInfoSchema,
} from '../src/generated/scip_pb.js'
import { convertColumn, createIndexProvider, decodeScipIndex, kindOfSymbol, parseSymbol } from '../src/index.js'

// Indexes written with the generated bindings, in the shapes other indexers write: scip-go's (only the typed range
// field, UTF-8 byte columns), the old repeated-int ranges, paths a reader must refuse. What scip-typescript writes is
// tested on its real output (conformance.test.ts, oracle.test.ts).

const pkg = 'scip-go gomod example v1 '
const text = 'package main\n\nvar 𝒳ünï, Value = 1, 2\n\nfunc use() int { return Value }\n'

let root: string
beforeAll(async () => {
  root = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-index-decode-'))
  await mkdir(nodePath.join(root, 'src'))
  await writeFile(nodePath.join(root, 'src/main.go'), text)
})
afterAll(() => rm(root, { recursive: true, force: true }))

/** Byte offset of the `n`-th `needle` in its line of `text`, as scip-go counts columns. */
function utf8Column(needle: string, n = 0): { line: number; character: number; utf16: number } {
  const lines = text.split('\n')
  let seen = 0
  for (const [line, content] of lines.entries()) {
    let from = 0
    for (;;) {
      const at = content.indexOf(needle, from)
      if (at < 0) break
      if (seen++ === n) return { line, character: Buffer.byteLength(content.slice(0, at)), utf16: at }
      from = at + 1
    }
  }
  throw new Error(`no ${needle}`)
}

function typedIndex() {
  const declared = utf8Column('Value')
  const used = utf8Column('Value', 1)
  const use = utf8Column('use')
  const single = (at: { line: number; character: number }, length: number) =>
    ({
      case: 'singleLineRange',
      value: create(SingleLineRangeSchema, { line: at.line, startCharacter: at.character, endCharacter: at.character + length }),
    }) as const
  return create(IndexSchema, {
    metadata: create(MetadataSchema, {
      projectRoot: `file://${root}`,
      toolInfo: create(ToolInfoSchema, { name: 'scip-go', version: '0.2.9' }),
    }),
    documents: [
      create(DocumentSchema, {
        relativePath: 'src/main.go',
        language: 'go',
        positionEncoding: PositionEncoding.UTF8CodeUnitOffsetFromLineStart,
        occurrences: [
          create(OccurrenceSchema, { symbol: `${pkg}main/Value.`, symbolRoles: 1, typedRange: single(declared, 5) }),
          create(OccurrenceSchema, {
            symbol: `${pkg}main/use().`,
            symbolRoles: 1,
            typedRange: single(use, 3),
            typedEnclosingRange: {
              case: 'multiLineEnclosingRange',
              value: create(MultiLineRangeSchema, { startLine: use.line, startCharacter: 0, endLine: use.line, endCharacter: 32 }),
            },
          }),
          create(OccurrenceSchema, { symbol: `${pkg}main/Value.`, typedRange: single(used, 5) }),
        ],
        symbols: [create(SymbolInformationSchema, { symbol: `${pkg}main/Value.`, documentation: ['```go\nvar Value int\n```'] })],
      }),
      create(DocumentSchema, {
        relativePath: '../outside.go',
        occurrences: [create(OccurrenceSchema, { symbol: `${pkg}x.`, range: [0, 0, 1] })],
      }),
      create(DocumentSchema, { relativePath: '/etc/passwd' }),
    ],
  })
}

test('typed ranges in UTF-8 bytes (scip-go) come back in UTF-16 on a line with astral and accented characters', async () => {
  const decoded = decodeScipIndex(toBinary(IndexSchema, typedIndex()))
  expect(decoded.documentsRefused).toEqual(['../outside.go', '/etc/passwd'])
  expect(decoded.documents[0]?.encoding).toBe('utf-8')
  const provider = createIndexProvider({ index: decoded })
  expect(provider.root).toBe(root)
  expect(provider.extensions).toEqual({ '.go': 'go' })
  const declared = utf8Column('Value')
  expect(declared.character).not.toBe(declared.utf16) // the line has multi-byte characters before it
  const signal = new AbortController().signal
  const used = utf8Column('Value', 1)
  const references = await provider.query(
    { operation: 'references', root, path: 'src/main.go', position: { line: used.line, character: used.utf16 + 2 }, languageId: 'go' },
    signal,
  )
  expect(references.locations.map((l) => [l.range.start.line, l.range.start.character, l.range.end.character])).toEqual([
    [declared.line, declared.utf16, declared.utf16 + 5],
    [used.line, used.utf16, used.utf16 + 5],
  ])
  const hover = await provider.query(
    { operation: 'hover', root, path: 'src/main.go', position: { line: declared.line, character: declared.utf16 }, languageId: 'go' },
    signal,
  )
  expect(hover.hover?.contents).toContain('var Value int')
  const outline = await provider.query({ operation: 'documentSymbols', root, path: 'src/main.go', languageId: 'go' }, signal)
  expect(outline.symbols.map((s) => [s.name, s.kind, s.range.start.line, s.range.end.character])).toEqual([
    ['Value', 'variable', declared.line, declared.utf16 + 5],
    ['use', 'function', utf8Column('use').line, 32],
  ])
})

test('the old repeated-int ranges decode as the typed ones do', () => {
  const index = create(IndexSchema, {
    documents: [
      create(DocumentSchema, {
        relativePath: 'a.ts',
        occurrences: [
          create(OccurrenceSchema, { symbol: 'local 1', range: [2, 4, 9], enclosingRange: [1, 0, 3, 1] }),
          create(OccurrenceSchema, { symbol: 'local 2', range: [5, 1] }), // malformed: neither 3 nor 4 numbers
        ],
      }),
    ],
  })
  const decoded = decodeScipIndex(toBinary(IndexSchema, index))
  expect(decoded.occurrencesWithoutRange).toBe(1)
  expect(decoded.documents[0]?.encoding).toBe('utf-16')
  expect(decoded.documents[0]?.occurrences[0]).toEqual({
    symbol: 'local 1',
    roles: 0,
    range: { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } },
    enclosing: { start: { line: 1, character: 0 }, end: { line: 3, character: 1 } },
  })
})

test('bytes that are not an index fail with a typed error', () => {
  expect(() => decodeScipIndex(new Uint8Array([0xff, 0xff, 0xff]))).toThrow(LspError)
})

test('descriptors read from symbol strings give kinds when the index gives none', () => {
  const prefix = 'scip-typescript npm pkg 1.0.0 src/`a.ts`/'
  expect(parseSymbol(`${prefix}C#\`<constructor>\`().(x)`).descriptors.map((d) => [d.name, d.suffix])).toEqual([
    ['src', 'namespace'],
    ['a.ts', 'namespace'],
    ['C', 'type'],
    ['<constructor>', 'method'],
    ['x', 'parameter'],
  ])
  expect(parseSymbol('local 12')).toEqual({ local: true, descriptors: [] })
  expect(parseSymbol('scip-go gomod with  space v1 pkg/T#')).toMatchObject({
    descriptors: [{ name: 'pkg' }, { name: 'T', suffix: 'type' }],
  })
  expect(kindOfSymbol(`${prefix}C#`, undefined)).toBe('class')
  expect(kindOfSymbol(`${prefix}C#m().`, undefined)).toBe('method')
  expect(kindOfSymbol(`${prefix}f().`, undefined)).toBe('function')
  expect(kindOfSymbol(`${prefix}C#p.`, undefined)).toBe('property')
  expect(kindOfSymbol(`${prefix}v.`, undefined)).toBe('variable')
  expect(kindOfSymbol(`${prefix}I#`, 'interface I')).toBe('interface')
  expect(kindOfSymbol(`${prefix}C#\`<constructor>\`().`, undefined)).toBe('constructor')
})

test('columns convert between UTF-8, UTF-16 and UTF-32 through astral characters', () => {
  const line = 'a𝒳ü b'
  expect(convertColumn(line, 'a𝒳ü'.length, 'utf-16', 'utf-8')).toBe(Buffer.byteLength('a𝒳ü'))
  expect(convertColumn(line, Buffer.byteLength('a𝒳ü'), 'utf-8', 'utf-16')).toBe(4)
  expect(convertColumn(line, 3, 'utf-32', 'utf-16')).toBe(4)
  expect(convertColumn(line, 10, 'utf-16', 'utf-16')).toBe(10)
})
