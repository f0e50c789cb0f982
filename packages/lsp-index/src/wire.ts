/*
 * The SCIP wire format read directly (issue 52, "Profiled" in docs/index.md): the generated bindings' `fromBinary`
 * builds a message object per occurrence, range and relationship and a fresh string per symbol (12 MB of them on
 * tanstack-query), and the garbage collector spent most of a first answer's time on them. This reader walks the
 * bytes once and keeps only what `decode.ts` returns: the fields the answers use, each symbol string once (interned),
 * every other field skipped by its wire type. The generated bindings stay the schema (tests compare the two).
 */

import { LENGTH, Reader, VARINT, WireError } from './wire-reader.js'

export { WireError } from './wire-reader.js'

/** One occurrence as written: its ranges in either form, unresolved (decode.ts picks one). */
export interface WireOccurrence {
  symbol: string
  roles: number
  /** The deprecated `repeated int32 range`. */
  range: number[]
  /** The typed range (field 8 single-line: 3 numbers; 9 multi-line: 4), or undefined. */
  typed: { field: 8 | 9; values: number[] } | undefined
  enclosingRange: number[]
  typedEnclosing: { field: 10 | 11; values: number[] } | undefined
  overrideDocumentation: string[]
}

export interface WireRelationship {
  symbol: string
  isReference: boolean
  isImplementation: boolean
  isTypeDefinition: boolean
  isDefinition: boolean
}

export interface WireSymbol {
  symbol: string
  documentation: string[]
  relationships: WireRelationship[]
  kind: number
  displayName: string
  signature: { language: string; text: string } | undefined
  enclosingSymbol: string
}

/**
 * One document, its occurrences only scanned: which global symbols occur in it and how many occurrences have no
 * range; {@link readOccurrences} reads them from `start`–`end` when the document is asked.
 */
export interface WireDocument {
  relativePath: string
  language: string
  text: string
  positionEncoding: number
  /** {@link symbolHash} of each global symbol its symbol informations describe (read in full when asked). */
  infoGlobals: Set<number>
  /** Its symbol informations that have relationships, read in full now (the tables' inverse edges need them). */
  related: WireSymbol[]
  /** The document message's bytes. */
  start: number
  end: number
  /** {@link symbolHash} of each global symbol (not `local …`) of its occurrences that have a range. */
  globals: Set<number>
  /** Occurrences with neither range form or a malformed one. */
  withoutRange: number
}

export interface WireIndex {
  source: WireSource
  tool: { name: string; version: string; arguments: string[] } | undefined
  projectRoot: string
  hasMetadata: boolean
  documents: WireDocument[]
  externalSymbols: WireSymbol[]
}

/** Fields of the given numbers, each read as int32 into `values` (field n → values[n - 1]); others skipped. */
function readInts(reader: Reader, values: number[]): void {
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    const field = next >>> 3
    const wire = next & 7
    if (wire === VARINT && field <= values.length) values[field - 1] = reader.varint()
    else reader.skip(wire, field)
  }
}

/** One occurrence read in full (the reader at its first field, bounded to it). */
export function readOccurrence(reader: Reader): WireOccurrence {
  const o: WireOccurrence = {
    symbol: '',
    roles: 0,
    range: [],
    typed: undefined,
    enclosingRange: [],
    typedEnclosing: undefined,
    overrideDocumentation: [],
  }
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    const field = next >>> 3
    const wire = next & 7
    if (field === 2 && wire === LENGTH) o.symbol = reader.symbol()
    else if (field === 1 && (wire === LENGTH || wire === VARINT)) reader.int32s(wire, o.range)
    else if (field === 3 && wire === VARINT) o.roles = reader.varint()
    else if (field === 4 && wire === LENGTH) o.overrideDocumentation.push(reader.string())
    else if (field === 7 && (wire === LENGTH || wire === VARINT)) reader.int32s(wire, o.enclosingRange)
    else if ((field === 8 || field === 9) && wire === LENGTH) {
      // A oneof: the last member wins; the same member twice merges.
      const values = o.typed?.field === field ? o.typed.values : field === 8 ? [0, 0, 0] : [0, 0, 0, 0]
      reader.message(() => readInts(reader, values))
      o.typed = { field, values }
    } else if ((field === 10 || field === 11) && wire === LENGTH) {
      const values = o.typedEnclosing?.field === field ? o.typedEnclosing.values : field === 10 ? [0, 0, 0] : [0, 0, 0, 0]
      reader.message(() => readInts(reader, values))
      o.typedEnclosing = { field, values }
    } else reader.skip(wire, field)
  }
  return o
}

function readRelationship(reader: Reader): WireRelationship {
  const r: WireRelationship = { symbol: '', isReference: false, isImplementation: false, isTypeDefinition: false, isDefinition: false }
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    const field = next >>> 3
    const wire = next & 7
    if (field === 1 && wire === LENGTH) r.symbol = reader.symbol()
    else if (field === 2 && wire === VARINT) r.isReference = reader.bool()
    else if (field === 3 && wire === VARINT) r.isImplementation = reader.bool()
    else if (field === 4 && wire === VARINT) r.isTypeDefinition = reader.bool()
    else if (field === 5 && wire === VARINT) r.isDefinition = reader.bool()
    else reader.skip(wire, field)
  }
  return r
}

function readSymbol(reader: Reader): WireSymbol {
  const s: WireSymbol = {
    symbol: '',
    documentation: [],
    relationships: [],
    kind: 0,
    displayName: '',
    signature: undefined,
    enclosingSymbol: '',
  }
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    const field = next >>> 3
    const wire = next & 7
    if (field === 1 && wire === LENGTH) s.symbol = reader.symbol()
    else if (field === 3 && wire === LENGTH) s.documentation.push(reader.string())
    else if (field === 4 && wire === LENGTH) reader.message(() => s.relationships.push(readRelationship(reader)))
    else if (field === 5 && wire === VARINT) s.kind = reader.varint()
    else if (field === 6 && wire === LENGTH) s.displayName = reader.string()
    else if (field === 7 && wire === LENGTH) {
      const signature = s.signature ?? { language: '', text: '' }
      reader.message(() => {
        for (let inner = reader.tag(); inner >= 0; inner = reader.tag()) {
          const f = inner >>> 3
          const w = inner & 7
          if (f === 4 && w === LENGTH) signature.language = reader.string()
          else if (f === 5 && w === LENGTH) signature.text = reader.string()
          else reader.skip(w, f)
        }
      })
      s.signature = signature
    } else if (field === 8 && wire === LENGTH) s.enclosingSymbol = reader.symbol()
    else reader.skip(wire, field)
  }
  return s
}

/** Whether the symbol's bytes start with `local ` (a local symbol, unique in its document only). */
export function isLocal(buf: Buffer, start: number, end: number): boolean {
  return (
    end - start >= 6 &&
    buf[start] === 0x6c &&
    buf[start + 1] === 0x6f &&
    buf[start + 2] === 0x63 &&
    buf[start + 3] === 0x61 &&
    buf[start + 4] === 0x6c &&
    buf[start + 5] === 0x20
  )
}

/** FNV-1a of bytes, to 30 bits (a small integer to V8: no number is allocated per occurrence). */
function fnv(buf: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (buf[i] ?? 0), 0x01000193)
  return hash & 0x3fffffff
}

/** A symbol's hash from its bytes in the index: of its UTF-8 as decoded (invalid sequences replaced) when not ASCII. */
function bytesHash(buf: Buffer, start: number, end: number): number {
  for (let i = start; i < end; i++) if ((buf[i] ?? 0) >= 0x80) return symbolHash(buf.toString('utf8', start, end))
  return fnv(buf, start, end)
}

/**
 * A symbol string's hash, as the scan files documents under (`WireDocument.globals`): equal symbols hash equal;
 * different ones rarely do, and a collision only makes a lookup read a document more.
 */
export function symbolHash(symbol: string): number {
  const bytes = Buffer.from(symbol, 'utf8')
  return fnv(bytes, 0, bytes.length)
}

/** Numbers read only to check them. */
const scratch: number[] = [0, 0, 0, 0]

/** Scans one occurrence: whether it has a range (counted when not), and its symbol when global. */
function scanOccurrence(reader: Reader, d: WireDocument): void {
  let symbol: number | undefined
  let ints = 0
  let typed = false
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    const field = next >>> 3
    const wire = next & 7
    if (field === 2 && wire === LENGTH) {
      const end = reader.length()
      if (end === reader.pos || isLocal(reader.buf, reader.pos, end)) {
        symbol = undefined
        reader.pos = end
      } else {
        symbol = bytesHash(reader.buf, reader.pos, end)
        reader.pos = end
      }
    } else if (field === 1 && wire === VARINT) {
      reader.varint()
      ints++
    } else if (field === 1 && wire === LENGTH) {
      const end = reader.length()
      while (reader.pos < end) {
        reader.varint()
        ints++
      }
      if (reader.pos !== end) throw new WireError('a packed field overran its length')
    } else if (field >= 8 && field <= 11 && wire === LENGTH) {
      // Read now (and dropped) so that reading the document later cannot fail.
      if (field <= 9) typed = true
      const outer = reader.enter()
      readInts(reader, scratch)
      reader.leave(outer)
    } else if (field === 7 && wire === LENGTH) reader.int32s(wire, [])
    else reader.skip(wire, field)
  }
  if (!typed && ints !== 3 && ints !== 4) d.withoutRange++
  else if (symbol !== undefined) d.globals.add(symbol)
}

/** Walks a nested message's fields (the reader at its length), checking its framing. */
function checkMessage(reader: Reader): void {
  const outer = reader.enter()
  for (let next = reader.tag(); next >= 0; next = reader.tag()) reader.skip(next & 7, next >>> 3)
  reader.leave(outer)
}

/**
 * Scans one symbol information: its symbol's hash when global, every field checked (so reading it later cannot
 * fail); one with relationships is read in full.
 */
function scanSymbol(reader: Reader, d: WireDocument): void {
  const start = reader.pos
  let symbol: number | undefined
  let related = false
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    const field = next >>> 3
    const wire = next & 7
    if (field === 1 && wire === LENGTH) {
      const end = reader.length()
      symbol = end === reader.pos || isLocal(reader.buf, reader.pos, end) ? undefined : bytesHash(reader.buf, reader.pos, end)
      reader.pos = end
    } else if (field === 4 && wire === LENGTH) {
      related = true
      checkMessage(reader)
    } else if (field === 7 && wire === LENGTH) checkMessage(reader)
    else reader.skip(wire, field)
  }
  if (symbol !== undefined) d.infoGlobals.add(symbol)
  if (related) {
    reader.pos = start
    d.related.push(readSymbol(reader))
  }
}

function readDocument(reader: Reader): WireDocument {
  const d: WireDocument = {
    relativePath: '',
    language: '',
    text: '',
    positionEncoding: 0,
    infoGlobals: new Set(),
    related: [],
    start: reader.pos,
    end: reader.end,
    globals: new Set(),
    withoutRange: 0,
  }
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    const field = next >>> 3
    const wire = next & 7
    if (field === 2 && wire === LENGTH) {
      const outer = reader.enter()
      scanOccurrence(reader, d)
      reader.leave(outer)
    } else if (field === 3 && wire === LENGTH) {
      const outer = reader.enter()
      scanSymbol(reader, d)
      reader.leave(outer)
    } else if (field === 1 && wire === LENGTH) d.relativePath = reader.string()
    else if (field === 4 && wire === LENGTH) d.language = reader.string()
    else if (field === 5 && wire === LENGTH) d.text = reader.string()
    else if (field === 6 && wire === VARINT) d.positionEncoding = reader.varint()
    else reader.skip(wire, field)
  }
  return d
}

/** A read index's bytes and symbol strings, for reading a document's occurrences later. */
export interface WireSource {
  readonly buf: Buffer
  readonly interned: Map<string, string>
}

/** Every message of field `field` (2 occurrences, 3 symbol informations) of a scanned document, each read by `read`. */
function readRepeated<T>(
  source: WireSource,
  document: Pick<WireDocument, 'start' | 'end'>,
  field: number,
  read: (reader: Reader) => T,
): T[] {
  const reader = new Reader(source.buf, document.start, document.end, source.interned)
  const out: T[] = []
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    if (next === ((field << 3) | LENGTH)) {
      const outer = reader.enter()
      out.push(read(reader))
      reader.leave(outer)
    } else reader.skip(next & 7, next >>> 3)
  }
  return out
}

/** Every occurrence of a scanned document, read in full (its bytes were checked by the scan). */
export function readOccurrences(source: WireSource, document: Pick<WireDocument, 'start' | 'end'>): WireOccurrence[] {
  return readRepeated(source, document, 2, readOccurrence)
}

/** A symbol information's symbol and where its message lies in the index's bytes (see {@link readSymbolAt}). */
export interface WireSymbolHead {
  readonly symbol: string
  readonly start: number
  readonly end: number
}

/** Each symbol information of a scanned document: its symbol alone, the rest left in the bytes. */
export function readSymbolHeads(source: WireSource, document: Pick<WireDocument, 'start' | 'end'>): WireSymbolHead[] {
  return readRepeated(source, document, 3, (reader) => {
    const start = reader.pos
    let symbol = ''
    for (let next = reader.tag(); next >= 0; next = reader.tag()) {
      if (next === ((1 << 3) | LENGTH)) symbol = reader.symbol()
      else reader.skip(next & 7, next >>> 3)
    }
    return { symbol, start, end: reader.end }
  })
}

/** The symbol information whose message is `buf[start, end)` (a {@link WireSymbolHead}'s), read in full. */
export function readSymbolAt(source: WireSource, start: number, end: number): WireSymbol {
  return readSymbol(new Reader(source.buf, start, end, source.interned))
}

/** Reads the bytes of a SCIP `Index`; throws {@link WireError} on bytes that are not a protocol buffer. */
export function readWireIndex(bytes: Uint8Array): WireIndex {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const interned = new Map<string, string>()
  const reader = new Reader(buf, 0, buf.length, interned)
  const index: WireIndex = {
    source: { buf, interned },
    tool: undefined,
    projectRoot: '',
    hasMetadata: false,
    documents: [],
    externalSymbols: [],
  }
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    const field = next >>> 3
    const wire = next & 7
    if (field === 2 && wire === LENGTH) reader.message(() => index.documents.push(readDocument(reader)))
    else if (field === 3 && wire === LENGTH) reader.message(() => index.externalSymbols.push(readSymbol(reader)))
    else if (field === 1 && wire === LENGTH) {
      index.hasMetadata = true
      reader.message(() => {
        for (let inner = reader.tag(); inner >= 0; inner = reader.tag()) {
          const f = inner >>> 3
          const w = inner & 7
          if (f === 3 && w === LENGTH) index.projectRoot = reader.string()
          else if (f === 2 && w === LENGTH) {
            const tool = index.tool ?? { name: '', version: '', arguments: [] }
            reader.message(() => {
              for (let t = reader.tag(); t >= 0; t = reader.tag()) {
                if (t === ((1 << 3) | LENGTH)) tool.name = reader.string()
                else if (t === ((2 << 3) | LENGTH)) tool.version = reader.string()
                else if (t === ((3 << 3) | LENGTH)) tool.arguments.push(reader.string())
                else reader.skip(t & 7, t >>> 3)
              }
            })
            index.tool = tool
          } else reader.skip(w, f)
        }
      })
    } else reader.skip(wire, field)
  }
  return index
}

/** A scanned document as a prepared table keeps it (see {@link tableOf}): its symbol hashes as arrays. */
export type WireTableDocument = Omit<WireDocument, 'globals' | 'infoGlobals'> & { globals: number[]; infoGlobals: number[] }

/**
 * What a scan found, without the bytes (JSON-able): kept beside an index so that another process need not scan it
 * again ({@link fromTable}). Only a scan that succeeded makes one: the documents' bytes were checked by it.
 */
export interface WireTable {
  tool: WireIndex['tool']
  projectRoot: string
  hasMetadata: boolean
  documents: WireTableDocument[]
  externalSymbols: WireSymbol[]
}

/** The table of a scanned index. */
export function tableOf(index: WireIndex): WireTable {
  return {
    tool: index.tool,
    projectRoot: index.projectRoot,
    hasMetadata: index.hasMetadata,
    documents: index.documents.map((d) => ({ ...d, globals: [...d.globals], infoGlobals: [...d.infoGlobals] })),
    externalSymbols: index.externalSymbols,
  }
}

/** The scanned index of `bytes` from its table ({@link tableOf} of a scan of the same bytes). */
export function fromTable(bytes: Uint8Array, table: WireTable): WireIndex {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const documents = table.documents.map((d): WireDocument => ({
    relativePath: d.relativePath,
    language: d.language,
    text: d.text,
    positionEncoding: d.positionEncoding,
    infoGlobals: new Set(d.infoGlobals),
    related: d.related,
    start: d.start,
    end: d.end,
    globals: new Set(d.globals),
    withoutRange: d.withoutRange,
  }))
  for (const d of documents) {
    if (!Number.isInteger(d.start) || !Number.isInteger(d.end) || d.start < 0 || d.end > buf.length || d.start > d.end) {
      throw new WireError('a table names bytes outside its index')
    }
  }
  return {
    source: { buf, interned: new Map() },
    tool: table.tool,
    projectRoot: table.projectRoot,
    hasMetadata: table.hasMetadata,
    documents,
    externalSymbols: table.externalSymbols,
  }
}
