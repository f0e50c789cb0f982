import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

import { LspError, type LspRange, type LspSymbolKind } from '@codeseam/lsp'

import { writeCacheFile } from './store.js'
import { PositionEncoding, SymbolInformation_Kind as Kind } from './generated/scip_pb.js'
import {
  fromTable,
  readOccurrences,
  readSymbolAt,
  readSymbolHeads,
  readWireIndex,
  symbolHash,
  tableOf,
  type WireIndex,
  type WireTable,
  type WireDocument,
  type WireOccurrence,
  type WireSource,
  type WireSymbol,
  type WireSymbolHead,
} from './wire.js'
import { isGlobalDefinition, readOccurrencesWhere, symbolBytesAre } from './wire-select.js'

// From the wire to plain data: a SCIP index read by wire.ts (the fields of the pinned scip.proto these answers use; the
// generated bindings are its schema), each occurrence's range read from the typed field or the old repeated-int one,
// document paths checked.

/** How a document counts `character`: SCIP's PositionEncoding. Unset is taken as UTF-16 (what scip-typescript writes). */
export type IndexEncoding = 'utf-16' | 'utf-8' | 'utf-32'

/** One occurrence of a symbol in a document, its ranges in the document's own encoding. */
export interface IndexOccurrence {
  readonly symbol: string
  readonly range: LspRange
  /** The symbol roles bitset (`Definition` = 1, `Import` = 2, …). */
  readonly roles: number
  /** The range of the whole declaration, for a definition when the indexer wrote it. */
  readonly enclosing?: LspRange
  /** Documentation for this occurrence only (a generic instantiated here). */
  readonly documentation?: ReadonlyArray<string>
}

/** What an index says about one symbol. */
export interface IndexSymbolInfo {
  readonly symbol: string
  readonly documentation: ReadonlyArray<string>
  /** The signature field (newer indexers), with its language. */
  readonly signature?: { readonly language: string; readonly text: string } | undefined
  readonly relationships: ReadonlyArray<{
    readonly symbol: string
    readonly isReference: boolean
    readonly isImplementation: boolean
    readonly isTypeDefinition: boolean
    readonly isDefinition: boolean
  }>
  /** SCIP's kind when the indexer set it (scip-typescript 0.4.0 never does). */
  readonly kind?: LspSymbolKind | undefined
  readonly displayName?: string | undefined
  readonly enclosingSymbol?: string | undefined
}

/** One document of the index. */
export interface IndexDocument {
  /** Relative to the index's root, with `/`. */
  readonly relativePath: string
  readonly language: string
  readonly encoding: IndexEncoding
  /** Sorted by start position. */
  readonly occurrences: ReadonlyArray<IndexOccurrence>
  readonly symbols: ReadonlyArray<IndexSymbolInfo>
  /** The text the indexer saw, when it wrote it (scip-typescript does not). */
  readonly text?: string
  /**
   * Its occurrences of one symbol (those of {@link occurrences} whose symbol it is, in the same order), when the
   * document can read them without reading the others.
   */
  occurrencesOfSymbol?(symbol: string): ReadonlyArray<IndexOccurrence>
  /** Its definitions of global symbols (those of {@link occurrences}, in the same order), read alone likewise. */
  globalDefinitions?(): ReadonlyArray<IndexOccurrence>
}

/** A decoded index: who built it, for which root, and its documents. */
export interface DecodedIndex {
  readonly tool: { readonly name: string; readonly version: string; readonly arguments: ReadonlyArray<string> }
  /** The absolute path of `project_root`, when it is a `file:` URI. */
  readonly projectRoot?: string
  readonly documents: ReadonlyArray<IndexDocument>
  readonly externalSymbols: ReadonlyArray<IndexSymbolInfo>
  /** Documents left out: a path that is absolute, has `..` or `\`, or is named twice. */
  readonly documentsRefused: ReadonlyArray<string>
  /** Occurrences left out because their range has neither form or a malformed one. */
  readonly occurrencesWithoutRange: number
  /**
   * The documents a global symbol (not `local …`) may occur in (every one it does, perhaps a few more), when the
   * decoder knows: documents then read their occurrences when first asked, and the tables ask only these.
   */
  readonly documentsOf?: (symbol: string) => ReadonlyArray<IndexDocument>
  /**
   * With {@link documentsOf}: the documents whose symbol informations may describe a global symbol (every one that
   * does, perhaps a few more), and the symbol informations that have relationships, with their documents; a
   * document then reads its symbol informations when first asked.
   */
  readonly infoDocumentsOf?: (symbol: string) => ReadonlyArray<IndexDocument>
  readonly related?: ReadonlyArray<readonly [IndexDocument, IndexSymbolInfo]>
}

/** A range from the typed field (preferred) or the deprecated `repeated int32` one; undefined when neither holds one. */
function rangeOf(typed: WireOccurrence['typed'] | WireOccurrence['typedEnclosing'], packed: ReadonlyArray<number>): LspRange | undefined {
  if (typed !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = typed.values
    // Single-line (fields 8 and 10): line, start, end; multi-line: start line and character, end line and character.
    if (typed.values.length === 3) return { start: { line: a, character: b }, end: { line: a, character: c } }
    return { start: { line: a, character: b }, end: { line: c, character: d } }
  }
  const [a = 0, b = 0, c = 0, d] = packed
  if (packed.length === 3) return { start: { line: a, character: b }, end: { line: a, character: c } }
  if (packed.length === 4) return { start: { line: a, character: b }, end: { line: c, character: d ?? 0 } }
  return undefined
}

const kinds: ReadonlyArray<readonly [ReadonlyArray<Kind>, LspSymbolKind]> = [
  [[Kind.Class, Kind.TypeAlias, Kind.Type, Kind.Object], 'class'],
  [[Kind.Interface, Kind.Protocol, Kind.Trait, Kind.TypeClass], 'interface'],
  [[Kind.Method, Kind.AbstractMethod, Kind.StaticMethod, Kind.TraitMethod, Kind.ProtocolMethod, Kind.MethodSpecification], 'method'],
  [[Kind.Function, Kind.Macro], 'function'],
  [[Kind.Constructor], 'constructor'],
  [[Kind.Field, Kind.StaticField, Kind.StaticDataMember], 'field'],
  [[Kind.Property, Kind.StaticProperty, Kind.Getter, Kind.Setter, Kind.Accessor], 'property'],
  [[Kind.Variable, Kind.StaticVariable, Kind.Parameter, Kind.SelfParameter, Kind.ThisParameter], 'variable'],
  [[Kind.Constant], 'constant'],
  [[Kind.Enum], 'enum'],
  [[Kind.EnumMember], 'enumMember'],
  [[Kind.Struct], 'struct'],
  [[Kind.Module, Kind.File], 'module'],
  [[Kind.Namespace, Kind.Package, Kind.PackageObject], 'namespace'],
  [[Kind.TypeParameter], 'typeParameter'],
]

function symbolInfo(info: WireSymbol): IndexSymbolInfo {
  const kind = info.kind === Kind.UnspecifiedKind ? undefined : kinds.find(([set]) => set.includes(info.kind))?.[1]
  const signature = info.signature
  return {
    symbol: info.symbol,
    documentation: info.documentation,
    ...(signature !== undefined && signature.text !== '' ? { signature: { language: signature.language, text: signature.text } } : {}),
    relationships: info.relationships.map((r) => ({
      symbol: r.symbol,
      isReference: r.isReference,
      isImplementation: r.isImplementation,
      isTypeDefinition: r.isTypeDefinition,
      isDefinition: r.isDefinition,
    })),
    ...(kind !== undefined ? { kind } : {}),
    ...(info.displayName !== '' ? { displayName: info.displayName } : {}),
    ...(info.enclosingSymbol !== '' ? { enclosingSymbol: info.enclosingSymbol } : {}),
  }
}

function encodingOf(encoding: number): IndexEncoding {
  if (encoding === PositionEncoding.UTF8CodeUnitOffsetFromLineStart) return 'utf-8'
  if (encoding === PositionEncoding.UTF32CodeUnitOffsetFromLineStart) return 'utf-32'
  return 'utf-16'
}

/** A relative path SCIP allows: not absolute, `/` separators, no empty, `.` or `..` component. */
export function isCanonicalRelativePath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.includes('\\') || path.includes('\0') || /^[a-z]:/i.test(path)) return false
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
}

function compareStart(a: IndexOccurrence, b: IndexOccurrence): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character
}

/** Occurrences as read, without range-less and highlighting-only ones, sorted. */
function occurrencesOf(read: ReadonlyArray<WireOccurrence>): IndexOccurrence[] {
  const occurrences: IndexOccurrence[] = []
  for (const occurrence of read) {
    const range = rangeOf(occurrence.typed, occurrence.range)
    if (range === undefined) continue // counted by the scan
    if (occurrence.symbol === '') continue // highlighting only
    const enclosing = rangeOf(occurrence.typedEnclosing, occurrence.enclosingRange)
    occurrences.push({
      symbol: occurrence.symbol,
      range,
      roles: occurrence.roles,
      ...(enclosing !== undefined ? { enclosing } : {}),
      ...(occurrence.overrideDocumentation.length > 0 ? { documentation: occurrence.overrideDocumentation } : {}),
    })
  }
  return occurrences.sort(compareStart)
}

/** What {@link isGlobalDefinition} takes, on an occurrence already read (`roles` bit 1: a definition). */
function isGlobalDefinitionOccurrence(occurrence: IndexOccurrence): boolean {
  return (occurrence.roles & 1) !== 0 && !occurrence.symbol.startsWith('local ')
}

/**
 * A document's symbol information, its symbol read and the rest when first asked: a lookup by symbol needs every
 * symbol of the document, an outline the rest of a third of them (issue 52: the documentation of every symbol of
 * the 200 files a long answer's first page outlines was read and kept, for the garbage collector to go through).
 */
class LazySymbolInfo implements IndexSymbolInfo {
  readonly symbol: string
  readonly #source: WireSource
  readonly #start: number
  readonly #end: number
  #read: IndexSymbolInfo | undefined

  constructor(source: WireSource, head: WireSymbolHead) {
    this.symbol = head.symbol
    this.#source = source
    this.#start = head.start
    this.#end = head.end
  }

  get #info(): IndexSymbolInfo {
    this.#read ??= symbolInfo(readSymbolAt(this.#source, this.#start, this.#end))
    return this.#read
  }

  get documentation(): ReadonlyArray<string> {
    return this.#info.documentation
  }

  get signature(): IndexSymbolInfo['signature'] {
    return this.#info.signature
  }

  get relationships(): IndexSymbolInfo['relationships'] {
    return this.#info.relationships
  }

  get kind(): LspSymbolKind | undefined {
    return this.#info.kind
  }

  get displayName(): string | undefined {
    return this.#info.displayName
  }

  get enclosingSymbol(): string | undefined {
    return this.#info.enclosingSymbol
  }
}

/** A document whose occurrences are read from the index's bytes when first asked (the scan checked them). */
class LazyDocument implements IndexDocument {
  readonly relativePath: string
  readonly language: string
  readonly encoding: IndexEncoding
  readonly text?: string
  readonly #source: WireSource
  readonly #bytes: { readonly start: number; readonly end: number }
  #occurrences: IndexOccurrence[] | undefined
  #symbols: IndexSymbolInfo[] | undefined

  constructor(source: WireSource, document: WireDocument) {
    this.relativePath = document.relativePath
    this.language = document.language
    this.encoding = encodingOf(document.positionEncoding)
    if (document.text !== '') this.text = document.text
    this.#source = source
    this.#bytes = { start: document.start, end: document.end }
  }

  get occurrences(): ReadonlyArray<IndexOccurrence> {
    this.#occurrences ??= occurrencesOf(readOccurrences(this.#source, this.#bytes))
    return this.#occurrences
  }

  occurrencesOfSymbol(symbol: string): ReadonlyArray<IndexOccurrence> {
    if (this.#occurrences !== undefined) return this.#occurrences.filter((o) => o.symbol === symbol)
    return occurrencesOf(readOccurrencesWhere(this.#source, this.#bytes, symbolBytesAre(symbol)))
  }

  globalDefinitions(): ReadonlyArray<IndexOccurrence> {
    if (this.#occurrences !== undefined) return this.#occurrences.filter(isGlobalDefinitionOccurrence)
    return occurrencesOf(readOccurrencesWhere(this.#source, this.#bytes, isGlobalDefinition))
  }

  get symbols(): ReadonlyArray<IndexSymbolInfo> {
    this.#symbols ??= readSymbolHeads(this.#source, this.#bytes).map((head) => new LazySymbolInfo(this.#source, head))
    return this.#symbols
  }
}

/** Scans the bytes of a SCIP index; a file that is not one fails with INVALID_ARGUMENT. */
function scan(bytes: Uint8Array): WireIndex {
  try {
    return readWireIndex(bytes)
  } catch (error) {
    throw new LspError('INVALID_ARGUMENT', `not a SCIP index: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** Decodes the bytes of a SCIP index (`index.scip`). A file that is not one fails with INVALID_ARGUMENT. */
export function decodeScipIndex(bytes: Uint8Array): DecodedIndex {
  return decodeWire(scan(bytes))
}

function decodeWire(index: WireIndex): DecodedIndex {
  const seen = new Set<string>()
  const refused: string[] = []
  let withoutRange = 0
  const documents: IndexDocument[] = []
  const symbolDocuments = new Map<number, IndexDocument[]>()
  const infoDocuments = new Map<number, IndexDocument[]>()
  const related: Array<readonly [IndexDocument, IndexSymbolInfo]> = []
  const file = (table: Map<number, IndexDocument[]>, hashes: Set<number>, document: IndexDocument) => {
    for (const hash of hashes) {
      const list = table.get(hash)
      if (list === undefined) table.set(hash, [document])
      else list.push(document)
    }
    hashes.clear()
  }
  for (const document of index.documents) {
    const path = document.relativePath
    if (!isCanonicalRelativePath(path) || seen.has(path)) {
      refused.push(path)
      continue
    }
    seen.add(path)
    withoutRange += document.withoutRange
    const decoded = new LazyDocument(index.source, document)
    documents.push(decoded)
    file(symbolDocuments, document.globals, decoded)
    file(infoDocuments, document.infoGlobals, decoded)
    for (const info of document.related) related.push([decoded, symbolInfo(info)])
  }
  let projectRoot: string | undefined
  try {
    projectRoot = index.projectRoot.startsWith('file:') ? fileURLToPath(index.projectRoot) : undefined
  } catch {
    projectRoot = undefined
  }
  return {
    tool: {
      name: index.tool?.name ?? '',
      version: index.tool?.version ?? '',
      arguments: index.tool?.arguments ?? [],
    },
    ...(projectRoot !== undefined ? { projectRoot } : {}),
    documents,
    externalSymbols: index.externalSymbols.map(symbolInfo),
    documentsRefused: refused,
    occurrencesWithoutRange: withoutRange,
    documentsOf: (symbol) => symbolDocuments.get(symbolHash(symbol)) ?? [],
    infoDocumentsOf: (symbol) => infoDocuments.get(symbolHash(symbol)) ?? [],
    related,
  }
}

/** Reads and decodes an index file. A missing file fails with NOT_FOUND. */
export async function readScipIndex(path: string): Promise<DecodedIndex> {
  return decodeScipIndex(await readIndexBytes(path))
}

/** Bytes of each end of an index a table's fingerprint hashes (with its size). */
const fingerprintBytes = 1 << 16

/** Which index a table was made from: its size and the sha-256 of its first and last bytes. */
function fingerprintOf(bytes: Uint8Array): string {
  const hash = createHash('sha256')
  hash.update(bytes.subarray(0, fingerprintBytes))
  hash.update(bytes.subarray(Math.max(0, bytes.length - fingerprintBytes)))
  return `${bytes.length}:${hash.digest('hex')}`
}

/** The table file's content (format 1: another format when what the scan records changes, so an old table is not used). */
interface TableFile {
  readonly format: 1
  readonly fingerprint: string
  /** `symbolHash` of a fixed text when the table was made: a table filed under another hash function is not used. */
  readonly probe: number
  readonly table: WireTable
}

const probe = () => symbolHash('probe npm codeseam 1.0.0 src/`probe.ts`/probe().')

/**
 * Reads and decodes an index file with its prepared table (issue 52): the scan of a 21 MB index is most of the
 * processor time before a first answer, and its result does not change (a store entry is never rewritten). When
 * `tableFile` holds the table of these bytes, the scan is skipped; otherwise the index is scanned, and `save` writes
 * the table for the next process (atomically; errors swallowed: it is a cache). A missing index fails with NOT_FOUND.
 */
export async function readScipIndexWithTable(
  path: string,
  tableFile: string,
): Promise<{ readonly decoded: DecodedIndex; readonly fromTable: boolean; readonly fingerprint: string; save(): Promise<void> }> {
  const bytes = await readIndexBytes(path)
  const fingerprint = fingerprintOf(bytes)
  let index: WireIndex | undefined
  try {
    const file = JSON.parse(await readFile(tableFile, 'utf8')) as Partial<TableFile>
    if (file.format === 1 && file.fingerprint === fingerprint && file.probe === probe() && file.table !== undefined)
      index = fromTable(bytes, file.table)
  } catch {
    index = undefined
  }
  if (index !== undefined) return { decoded: decodeWire(index), fromTable: true, fingerprint, save: () => Promise.resolve() }
  const scanned = scan(bytes)
  // Taken before decoding (which lets go of the documents' symbol hashes once it has filed them).
  const table = tableOf(scanned)
  const file: TableFile = { format: 1, fingerprint, probe: probe(), table }
  const save = async () => void (await writeCacheFile(tableFile, file))
  return { decoded: decodeWire(scanned), fromTable: false, fingerprint, save }
}

async function readIndexBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path)
  } catch (error) {
    throw new LspError('NOT_FOUND', `cannot read the SCIP index ${path}: ${error instanceof Error ? error.message : String(error)}`)
  }
}
