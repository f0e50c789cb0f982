import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { create, fromBinary, toBinary } from '@bufbuild/protobuf'
import { LspError } from '@codeseam/lsp'
import { copyFixture } from '@codeseam/lsp/testing'
import { expect, test } from 'vitest'

import {
  DiagnosticSchema,
  DocumentSchema,
  IndexSchema,
  MetadataSchema,
  MultiLineRangeSchema,
  OccurrenceSchema,
  PositionEncoding,
  RelationshipSchema,
  SignatureSchema,
  SingleLineRangeSchema,
  SymbolInformationSchema,
  SymbolInformation_Kind,
  ToolInfoSchema,
  type Index,
} from '../src/generated/scip_pb.js'
import { decodeScipIndex, readScipIndexWithTable, ScipIndex, type DecodedIndex } from '../src/index.js'
import { indexWorkspace } from './indexer.js'

// decode.ts reads the wire itself (wire.ts), documents' occurrences when first asked: what it returns must be what
// the generated bindings read from the same bytes, on every field the answers use, on real scip-typescript output
// and on an index using the fields scip-typescript leaves out.

/** The generated bindings' reading of the fields decode.ts keeps, in its shape. */
function reference(index: Index) {
  const range = (typed: { case?: string | undefined; value?: unknown }, packed: ReadonlyArray<number>) => {
    if (typed.case !== undefined) {
      const v = typed.value as Record<string, number>
      if ('line' in v) return [v['line'], v['startCharacter'], v['line'], v['endCharacter']]
      return [v['startLine'], v['startCharacter'], v['endLine'], v['endCharacter']]
    }
    if (packed.length === 3) return [packed[0], packed[1], packed[0], packed[2]]
    if (packed.length === 4) return [...packed]
    return undefined
  }
  const info = (s: Index['externalSymbols'][number]) => ({
    symbol: s.symbol,
    documentation: [...s.documentation],
    relationships: s.relationships.map((r) => [r.symbol, r.isReference, r.isImplementation, r.isTypeDefinition, r.isDefinition]),
    kind: s.kind,
    displayName: s.displayName,
    signature: s.signatureDocumentation !== undefined && s.signatureDocumentation.text !== '' ? s.signatureDocumentation.text : undefined,
    enclosingSymbol: s.enclosingSymbol,
  })
  return {
    tool: [index.metadata?.toolInfo?.name ?? '', index.metadata?.toolInfo?.version ?? '', ...(index.metadata?.toolInfo?.arguments ?? [])],
    documents: index.documents.map((d) => ({
      path: d.relativePath,
      language: d.language,
      text: d.text,
      occurrences: d.occurrences
        .filter((o) => range(o.typedRange, o.range) !== undefined && o.symbol !== '')
        .map((o) => [
          o.symbol,
          o.symbolRoles,
          range(o.typedRange, o.range),
          range(o.typedEnclosingRange, o.enclosingRange),
          o.overrideDocumentation,
        ])
        .sort((a, b) => (a[2] as number[])[0]! - (b[2] as number[])[0]! || (a[2] as number[])[1]! - (b[2] as number[])[1]!),
      symbols: d.symbols.map(info),
    })),
    external: index.externalSymbols.map(info),
  }
}

/** decode.ts's reading, in the same shape. */
function ours(decoded: DecodedIndex) {
  const flat = (r: { start: { line: number; character: number }; end: { line: number; character: number } } | undefined) =>
    r === undefined ? undefined : [r.start.line, r.start.character, r.end.line, r.end.character]
  const info = (s: DecodedIndex['externalSymbols'][number]) => ({
    symbol: s.symbol,
    documentation: [...s.documentation],
    relationships: s.relationships.map((r) => [r.symbol, r.isReference, r.isImplementation, r.isTypeDefinition, r.isDefinition]),
    kind: s.kind,
    displayName: s.displayName ?? '',
    signature: s.signature?.text,
    enclosingSymbol: s.enclosingSymbol ?? '',
  })
  return {
    tool: [decoded.tool.name, decoded.tool.version, ...decoded.tool.arguments],
    documents: decoded.documents.map((d) => ({
      path: d.relativePath,
      language: d.language,
      text: d.text ?? '',
      occurrences: d.occurrences.map((o) => [o.symbol, o.roles, flat(o.range), flat(o.enclosing), [...(o.documentation ?? [])]]),
      symbols: d.symbols.map(info),
    })),
    external: decoded.externalSymbols.map(info),
  }
}

/** Kinds aside (decode.ts maps SCIP's to the seam's), the two readings agree. */
function expectSameReading(bytes: Uint8Array): DecodedIndex {
  const decoded = decodeScipIndex(bytes)
  const strip = <T extends { documents: { symbols: { kind?: unknown }[] }[]; external: { kind?: unknown }[] }>(r: T) => ({
    ...r,
    documents: r.documents.map((d) => ({ ...d, symbols: d.symbols.map((s) => ({ ...s, kind: undefined })) })),
    external: r.external.map((s) => ({ ...s, kind: undefined })),
  })
  expect(strip(ours(decoded))).toEqual(strip(reference(fromBinary(IndexSchema, bytes))))
  return decoded
}

/**
 * A document reads one symbol's occurrences, or its global definitions, without reading the others (issue 52): what
 * it returns equals the full reading filtered, on every symbol of every document. Returns the symbols compared.
 */
function expectReadAloneAsInFull(bytes: Uint8Array): number {
  const alone = decodeScipIndex(bytes) // no document's occurrences are read in full here
  const full = decodeScipIndex(bytes)
  let compared = 0
  alone.documents.forEach((document, i) => {
    const occurrences = full.documents[i]!.occurrences
    const definitions = occurrences.filter((o) => (o.roles & 1) !== 0 && !o.symbol.startsWith('local '))
    expect(document.globalDefinitions?.()).toEqual(definitions)
    for (const symbol of new Set([...occurrences.map((o) => o.symbol), 'scip-typescript npm nothing 0 `x.ts`/y.'])) {
      expect(document.occurrencesOfSymbol?.(symbol)).toEqual(occurrences.filter((o) => o.symbol === symbol))
      compared++
    }
  })
  return compared
}

test(
  'a real scip-typescript index reads as the generated bindings read it, and every symbol finds its occurrences',
  { timeout: 180_000 },
  async () => {
    const fixture = await copyFixture()
    const built = await indexWorkspace(fixture.root)
    try {
      const bytes = await readFile(built.path)
      const decoded = expectSameReading(bytes)
      expect(decoded.documents.length).toBeGreaterThan(0)
      expect(expectReadAloneAsInFull(bytes)).toBeGreaterThan(10)
      // The tables read a symbol's occurrences from the documents the scan filed it under: all of them.
      const tables = new ScipIndex(decoded)
      const all = new Map<string, number>()
      for (const d of decoded.documents) {
        for (const o of d.occurrences) {
          const key = o.symbol.startsWith('local ') ? `${o.symbol}\0${d.relativePath}` : o.symbol
          all.set(key, (all.get(key) ?? 0) + 1)
        }
      }
      expect(all.size).toBeGreaterThan(10)
      for (const [key, count] of all) expect(tables.occurrencesOf(key).length).toBe(count)
      // Symbol information read when asked is what tables built from every document at once hold.
      const eager = new ScipIndex({
        tool: decoded.tool,
        externalSymbols: decoded.externalSymbols,
        documentsRefused: decoded.documentsRefused,
        occurrencesWithoutRange: decoded.occurrencesWithoutRange,
        documents: decoded.documents.map((d) => ({ ...d, occurrences: d.occurrences, symbols: d.symbols })),
      })
      const described = decoded.documents.flatMap((d) =>
        d.symbols.map((i) => (i.symbol.startsWith('local ') ? `${i.symbol}\0${d.relativePath}` : i.symbol)),
      )
      expect(described.length).toBeGreaterThan(10)
      for (const key of new Set([...all.keys(), ...described, 'scip-typescript npm nothing 0 `x.ts`/y.'])) {
        expect(tables.info(key)).toEqual(eager.info(key))
        expect(tables.referenceSymbols(key)).toEqual(eager.referenceSymbols(key))
        expect(tables.implementations(key)).toEqual(eager.implementations(key))
      }
    } finally {
      await built.dispose()
      await fixture.dispose()
    }
  },
)

test('fields scip-typescript leaves out read as the generated bindings read them', () => {
  const single = (line: number, start: number, end: number) =>
    ({ case: 'singleLineRange', value: create(SingleLineRangeSchema, { line, startCharacter: start, endCharacter: end }) }) as const
  const index = create(IndexSchema, {
    metadata: create(MetadataSchema, {
      projectRoot: 'file:///w',
      toolInfo: create(ToolInfoSchema, { name: 'scip-x', version: '1.2', arguments: ['--a', 'ü'] }),
    }),
    documents: [
      create(DocumentSchema, {
        relativePath: 'src/a.ts',
        language: 'TypeScript',
        text: 'const 𝒳 = 1\n',
        positionEncoding: PositionEncoding.UTF8CodeUnitOffsetFromLineStart,
        occurrences: [
          create(OccurrenceSchema, {
            symbol: 'scip-x npm p 1 src/`a.ts`/𝒳.',
            symbolRoles: 1,
            typedRange: single(0, 6, 10),
            typedEnclosingRange: {
              case: 'multiLineEnclosingRange',
              value: create(MultiLineRangeSchema, { startLine: 0, startCharacter: 0, endLine: 1, endCharacter: 0 }),
            },
            overrideDocumentation: ['one', 'two'],
            diagnostics: [create(DiagnosticSchema, { message: 'skipped' })],
            syntaxKind: 5,
          }),
          create(OccurrenceSchema, { symbol: 'local 0', range: [3, 1, 4, 2], enclosingRange: [3, 0, 9] }),
          create(OccurrenceSchema, { symbol: '', range: [1, 1, 2] }),
          create(OccurrenceSchema, { symbol: 'local 1', range: [1, 2] }),
        ],
        symbols: [
          create(SymbolInformationSchema, {
            symbol: 'scip-x npm p 1 src/`a.ts`/𝒳.',
            documentation: ['```ts\nconst 𝒳: 1\n```', 'docs'],
            relationships: [
              create(RelationshipSchema, { symbol: 'scip-x npm p 1 src/`b.ts`/I#', isImplementation: true, isReference: true }),
              create(RelationshipSchema, { symbol: 'scip-x npm p 1 src/`b.ts`/T#', isTypeDefinition: true, isDefinition: true }),
            ],
            kind: SymbolInformation_Kind.Constant,
            displayName: '𝒳',
            signatureDocumentation: create(SignatureSchema, { language: 'ts', text: 'const 𝒳: 1' }),
            enclosingSymbol: 'scip-x npm p 1 src/`a.ts`/',
          }),
        ],
      }),
    ],
    externalSymbols: [create(SymbolInformationSchema, { symbol: 'scip-x npm q 2 `q`/Q#', documentation: ['Q'] })],
  })
  const decoded = expectSameReading(toBinary(IndexSchema, index))
  expect(expectReadAloneAsInFull(toBinary(IndexSchema, index))).toBe(3)
  expect(decoded.occurrencesWithoutRange).toBe(1)
  expect(decoded.projectRoot).toBe(fileURLToPath('file:///w'))
  expect(decoded.documents[0]?.encoding).toBe('utf-8')
  expect(decoded.externalSymbols[0]?.documentation).toEqual(['Q'])
})

test('unpacked repeated ranges and a repeated oneof member read as the generated bindings read them', () => {
  // Occurrence: range 1 unpacked (three varints), symbol; then a single-line range written twice (merged).
  const symbol = Buffer.from('scip-x npm p 1 `a.ts`/x.')
  const occurrence = Buffer.concat([
    Buffer.from([0x08, 2, 0x08, 4, 0x08, 9]),
    Buffer.from([0x12, symbol.length]),
    symbol,
    Buffer.from([0x42, 2, 0x08, 7]),
    Buffer.from([0x42, 4, 0x10, 1, 0x18, 3]),
  ])
  const path = Buffer.from('a.ts')
  const document = Buffer.concat([Buffer.from([0x0a, path.length]), path, Buffer.from([0x12, occurrence.length]), occurrence])
  const bytes = Buffer.concat([Buffer.from([0x12, document.length]), document])
  const decoded = expectSameReading(bytes)
  expect(decoded.documents[0]?.occurrences[0]?.range).toEqual({ start: { line: 7, character: 1 }, end: { line: 7, character: 3 } })
  expect(expectReadAloneAsInFull(bytes)).toBe(2)
})

test('a symbol that is not valid UTF-8 is found alone as the full reading finds it (replacement characters)', () => {
  // Two definitions (roles 1, packed single-line ranges): one symbol ending in the byte 0xff, one ASCII.
  const occurrence = (symbol: Buffer) =>
    Buffer.concat([Buffer.from([0x0a, 3, 9, 0, 1, 0x12, symbol.length]), symbol, Buffer.from([0x18, 1])])
  const invalid = occurrence(Buffer.concat([Buffer.from('scip-x npm p 1 `a.ts`/'), Buffer.from([0xff, 0x2e])]))
  const ascii = occurrence(Buffer.from('scip-x npm p 1 `a.ts`/y.'))
  const path = Buffer.from('a.ts')
  const document = Buffer.concat([
    Buffer.from([0x0a, path.length]),
    path,
    ...[invalid, ascii].flatMap((o) => [Buffer.from([0x12, o.length]), o]),
  ])
  const bytes = Buffer.concat([Buffer.from([0x12, document.length]), document])
  expect(decodeScipIndex(bytes).documents[0]?.occurrences.map((o) => o.symbol)).toEqual([
    'scip-x npm p 1 `a.ts`/\ufffd.',
    'scip-x npm p 1 `a.ts`/y.',
  ])
  expect(decodeScipIndex(bytes).documents[0]?.occurrencesOfSymbol?.('scip-x npm p 1 `a.ts`/\ufffd.')).toHaveLength(1)
  expect(decodeScipIndex(bytes).documents[0]?.globalDefinitions?.()).toHaveLength(2)
  expect(expectReadAloneAsInFull(bytes)).toBe(3)
})

test('a malformed range inside an occurrence fails when the index is decoded, not when the document is first asked', () => {
  // Occurrence: symbol, then a single-line range whose only varint is cut short.
  const symbol = Buffer.from('scip-x npm p 1 `a.ts`/x.')
  const occurrence = Buffer.concat([Buffer.from([0x12, symbol.length]), symbol, Buffer.from([0x42, 2, 0x08, 0x80])])
  const path = Buffer.from('a.ts')
  const document = Buffer.concat([Buffer.from([0x0a, path.length]), path, Buffer.from([0x12, occurrence.length]), occurrence])
  const bytes = Buffer.concat([Buffer.from([0x12, document.length]), document])
  expect(() => fromBinary(IndexSchema, bytes)).toThrow()
  expect(() => decodeScipIndex(bytes)).toThrow(LspError)
})

test(
  'an index read through its prepared table reads as the scan does; a table of other bytes is not used',
  { timeout: 180_000 },
  async () => {
    const fixture = await copyFixture()
    const built = await indexWorkspace(fixture.root)
    const folder = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-index-table-'))
    try {
      const tableFile = nodePath.join(folder, 'index-table.json')
      const scanned = await readScipIndexWithTable(built.path, tableFile)
      expect(scanned.fromTable).toBe(false)
      await scanned.save()
      const tabled = await readScipIndexWithTable(built.path, tableFile)
      expect(tabled.fromTable).toBe(true)
      expect(ours(tabled.decoded)).toEqual(ours(decodeScipIndex(await readFile(built.path))))
      // The tables find every symbol's occurrences and relationships through it as through a scan.
      const [a, b] = [new ScipIndex(scanned.decoded), new ScipIndex(tabled.decoded)]
      const symbols = new Set(
        scanned.decoded.documents.flatMap((d) => d.occurrences.map((o) => o.symbol)).filter((s) => !s.startsWith('local ')),
      )
      expect(symbols.size).toBeGreaterThan(10)
      for (const symbol of symbols) {
        expect(b.occurrencesOf(symbol).length, symbol).toBe(a.occurrencesOf(symbol).length)
        expect(b.referenceSymbols(symbol).sort(), symbol).toEqual(a.referenceSymbols(symbol).sort())
        expect(b.implementations(symbol).sort(), symbol).toEqual(a.implementations(symbol).sort())
      }
      // Other bytes (one more byte at the end: another fingerprint): scanned, not read from the table.
      const other = nodePath.join(folder, 'other.scip')
      await writeFile(other, Buffer.concat([await readFile(built.path), Buffer.from([0x0a, 0x00])]))
      expect((await readScipIndexWithTable(other, tableFile)).fromTable).toBe(false)
      // A malformed table is not used either.
      await writeFile(tableFile, '{"format":1')
      expect((await readScipIndexWithTable(built.path, tableFile)).fromTable).toBe(false)
    } finally {
      await rm(folder, { recursive: true, force: true })
      await built.dispose()
    }
  },
)
