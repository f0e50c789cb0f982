import type { LspPosition, LspRange } from '@codeseam/lsp'

import type { DecodedIndex, IndexDocument, IndexOccurrence, IndexSymbolInfo } from './decode.js'
import { classOfConstructor, constructorOfClass, lastDescriptor } from './symbols.js'

// The tables over a decoded index, and the navigation it answers. Pure: no file system, no seam provider, ranges in
// each document's own encoding. A provider (and a composition of index and live server) asks it by relative path.

/** The `Definition` bit of SCIP's SymbolRole. */
export const definitionRole = 1

/** One occurrence with its document. */
export interface IndexHit {
  readonly document: IndexDocument
  readonly occurrence: IndexOccurrence
}

/** A place in the index: a document's relative path and a range in that document's encoding. */
export interface IndexLocation {
  readonly relativePath: string
  readonly range: LspRange
  /** The whole declaration, for a definition when the indexer wrote it. */
  readonly enclosing?: LspRange
}

/** Local symbols (`local 4`) are unique in their document only: keyed with its path. */
function keyOf(document: IndexDocument, symbol: string): string {
  return symbol.startsWith('local ') ? `${symbol}\0${document.relativePath}` : symbol
}

function contains(range: LspRange, position: LspPosition): boolean {
  const afterStart = position.line > range.start.line || (position.line === range.start.line && position.character >= range.start.character)
  const beforeEnd = position.line < range.end.line || (position.line === range.end.line && position.character <= range.end.character)
  return afterStart && beforeEnd
}

function locationKey(location: IndexLocation): string {
  const { start, end } = location.range
  return `${location.relativePath}:${start.line}:${start.character}:${end.line}:${end.character}`
}

function unique(locations: Iterable<IndexLocation>): IndexLocation[] {
  const seen = new Map<string, IndexLocation>()
  for (const location of locations) if (!seen.has(locationKey(location))) seen.set(locationKey(location), location)
  return [...seen.values()]
}

/** A decoded SCIP index with its lookup tables: occurrences by symbol, symbol information, inverse relationships. */
export class ScipIndex {
  readonly decoded: DecodedIndex
  private readonly documents = new Map<string, IndexDocument>()
  private readonly bySymbol = new Map<string, IndexHit[]>()
  private readonly infos = new Map<string, IndexSymbolInfo>()
  /** Per document read for its symbol informations: them by key (see {@link infosIn}). */
  private readonly documentInfos = new WeakMap<IndexDocument, ReadonlyMap<string, IndexSymbolInfo>>()
  /** `is_implementation` edges reversed: a type or method → what implements it directly. */
  private readonly implementers = new Map<string, string[]>()
  /** `is_reference` edges reversed: a symbol → the symbols whose references include its. */
  private readonly referrers = new Map<string, string[]>()
  /** Types by name, built on first use (a derived type definition). */
  private types: Map<string, string[]> | undefined

  /** The documents a global symbol may occur in (the decoder's), when known: then {@link bySymbol} fills per symbol asked. */
  private readonly documentsOf: ((symbol: string) => ReadonlyArray<IndexDocument>) | undefined

  /** Symbol informations read from documents when first asked (the decoder's), when it can: a key → none, cached. */
  private readonly lazyInfos: { readonly externals: Map<string, IndexSymbolInfo>; readonly absent: Set<string> } | undefined

  constructor(decoded: DecodedIndex) {
    this.decoded = decoded
    this.documentsOf = decoded.documentsOf
    const lazy = decoded.infoDocumentsOf !== undefined && decoded.related !== undefined
    this.lazyInfos = lazy ? { externals: new Map(), absent: new Set() } : undefined
    for (const info of decoded.externalSymbols) (this.lazyInfos?.externals ?? this.infos).set(info.symbol, info)
    const edges = (document: IndexDocument, info: IndexSymbolInfo) => {
      const key = keyOf(document, info.symbol)
      for (const relationship of info.relationships) {
        if (relationship.isImplementation) push(this.implementers, relationship.symbol, key)
        if (relationship.isReference) push(this.referrers, relationship.symbol, key)
      }
      return key
    }
    for (const document of decoded.documents) {
      this.documents.set(document.relativePath, document)
      if (!lazy) for (const info of document.symbols) this.infos.set(edges(document, info), info)
      if (this.documentsOf === undefined) {
        for (const occurrence of document.occurrences) push(this.bySymbol, keyOf(document, occurrence.symbol), { document, occurrence })
      }
    }
    if (lazy) for (const [document, info] of decoded.related ?? []) edges(document, info)
  }

  /** The document at a path relative to the index's root. */
  document(relativePath: string): IndexDocument | undefined {
    return this.documents.get(relativePath)
  }

  /** Every document, in index order. */
  allDocuments(): ReadonlyArray<IndexDocument> {
    return this.decoded.documents
  }

  /** What the index says about a symbol (a local one by its key, see {@link symbolsAt}). */
  info(symbol: string): IndexSymbolInfo | undefined {
    const known = this.infos.get(symbol)
    const lazy = this.lazyInfos
    if (known !== undefined || lazy === undefined || lazy.absent.has(symbol)) return known
    // A document's own information wins over the external one; of several documents, the last (as a table built in
    // index order keeps).
    const separator = symbol.startsWith('local ') ? symbol.indexOf('\0') : -1
    const local = separator >= 0 ? this.documents.get(symbol.slice(separator + 1)) : undefined
    const documents = separator >= 0 ? (local === undefined ? [] : [local]) : (this.decoded.infoDocumentsOf?.(symbol) ?? [])
    let found: IndexSymbolInfo | undefined
    for (let i = documents.length - 1; i >= 0 && found === undefined; i--) {
      const document = documents[i]
      if (document !== undefined) found = this.infosIn(document).get(symbol)
    }
    found ??= lazy.externals.get(symbol)
    if (found === undefined) lazy.absent.add(symbol)
    else this.infos.set(symbol, found)
    return found
  }

  /**
   * A document's symbol informations by key, the last of a key winning (as a table built in index order keeps):
   * built when first asked (an outline asks for each definition's; a search of the list each time was quadratic).
   */
  private infosIn(document: IndexDocument): ReadonlyMap<string, IndexSymbolInfo> {
    let byKey = this.documentInfos.get(document)
    if (byKey === undefined) {
      byKey = new Map(document.symbols.map((info) => [keyOf(document, info.symbol), info]))
      this.documentInfos.set(document, byKey)
    }
    return byKey
  }

  /**
   * The symbols at a position (in the document's encoding): the occurrences covering it, innermost first (an
   * identifier touched at its end counts). Several symbols can share one range (a merged declaration). Local
   * symbols come back as keys unique across the index.
   */
  symbolsAt(relativePath: string, position: LspPosition): string[] {
    const document = this.documents.get(relativePath)
    if (document === undefined) return []
    const covering = document.occurrences.filter((o) => contains(o.range, position))
    const span = (o: IndexOccurrence) => (o.range.end.line - o.range.start.line) * 1e6 + o.range.end.character - o.range.start.character
    const strict = covering.filter((o) => !(o.range.end.line === position.line && o.range.end.character === position.character))
    const chosen = strict.length > 0 ? strict : covering
    const smallest = Math.min(...chosen.map(span))
    return [...new Set(chosen.filter((o) => span(o) === smallest).map((o) => keyOf(document, o.symbol)))]
  }

  /** The occurrence a symbol has at a position, for its per-occurrence documentation. */
  occurrenceAt(relativePath: string, position: LspPosition, symbol: string): IndexOccurrence | undefined {
    const document = this.documents.get(relativePath)
    return document?.occurrences.find((o) => keyOf(document, o.symbol) === symbol && contains(o.range, position))
  }

  /** Every occurrence of a symbol. */
  occurrencesOf(symbol: string): ReadonlyArray<IndexHit> {
    const known = this.bySymbol.get(symbol)
    if (known !== undefined || this.documentsOf === undefined) return known ?? []
    // Read from the documents the symbol occurs in: a local one's own document (its key names it), a global one's.
    const separator = symbol.startsWith('local ') ? symbol.indexOf('\0') : -1
    const local = separator >= 0 ? this.documents.get(symbol.slice(separator + 1)) : undefined
    const documents = separator >= 0 ? (local === undefined ? [] : [local]) : this.documentsOf(symbol)
    const hits: IndexHit[] = []
    for (const document of documents) {
      // A global symbol's key is itself: a document that can read its occurrences alone does (no others are made).
      const own = symbol.startsWith('local ') ? undefined : document.occurrencesOfSymbol?.(symbol)
      if (own !== undefined) for (const occurrence of own) hits.push({ document, occurrence })
      else
        for (const occurrence of document.occurrences)
          if (keyOf(document, occurrence.symbol) === symbol) hits.push({ document, occurrence })
    }
    this.bySymbol.set(symbol, hits)
    return hits
  }

  /** Where a symbol is defined; for one without a definition of its own, where its `is_definition` targets are. */
  definitions(symbol: string): IndexLocation[] {
    const own = this.occurrencesOf(symbol).filter((hit) => (hit.occurrence.roles & definitionRole) !== 0)
    if (own.length > 0) return unique(own.map(locationOf))
    const targets = (this.info(symbol)?.relationships ?? []).filter((r) => r.isDefinition).map((r) => r.symbol)
    return unique(
      targets.flatMap((target) =>
        this.occurrencesOf(target)
          .filter((hit) => (hit.occurrence.roles & definitionRole) !== 0)
          .map(locationOf),
      ),
    )
  }

  /**
   * The symbols whose occurrences answer "find references" on `symbol`: itself and every symbol linked to it by
   * `is_reference` relationships, either way and transitively (an interface method, the methods implementing it and
   * their siblings, as TypeScript's related symbols are); a constructor stands for its class.
   */
  referenceSymbols(symbol: string): string[] {
    const out = new Set<string>()
    const queue = [classOfConstructor(symbol) ?? symbol]
    while (queue.length > 0) {
      const next = queue.shift() ?? ''
      if (out.has(next)) continue
      out.add(next)
      for (const r of this.info(next)?.relationships ?? []) if (r.isReference) queue.push(r.symbol)
      queue.push(...(this.referrers.get(next) ?? []))
    }
    return [...out]
  }

  /**
   * Every occurrence of the {@link referenceSymbols} of `symbol`, declarations included. A class's include the calls
   * of its constructor (scip-typescript files `new C()` under `` C#`<constructor>`(). ``), not the constructor's
   * declaration: what the TypeScript server answers.
   */
  references(symbol: string): IndexLocation[] {
    const symbols = this.referenceSymbols(symbol)
    const calls = symbols.flatMap((s) => {
      const constructor = constructorOfClass(s)
      return constructor === undefined ? [] : this.occurrencesOf(constructor).filter((hit) => (hit.occurrence.roles & definitionRole) === 0)
    })
    return unique([...symbols.flatMap((s) => this.occurrencesOf(s)), ...calls].map(locationOf))
  }

  /**
   * Where the symbols at an occurrence are defined. At a constructor call (`new C()`, filed under the constructor)
   * that is the class and its constructor, as the TypeScript server answers.
   */
  definitionsAt(symbols: ReadonlyArray<string>): IndexLocation[] {
    return unique(
      symbols.flatMap((symbol) => {
        const klass = classOfConstructor(symbol)
        return klass === undefined ? this.definitions(symbol) : [...this.definitions(klass), ...this.definitions(symbol)]
      }),
    )
  }

  /** What implements `symbol`, transitively (an interface's classes and their subclasses; a method's implementations). */
  implementations(symbol: string): string[] {
    const found = new Set<string>()
    const queue = [classOfConstructor(symbol) ?? symbol]
    while (queue.length > 0) {
      const next = queue.shift() ?? ''
      for (const implementer of this.implementers.get(next) ?? []) {
        if (found.has(implementer)) continue
        found.add(implementer)
        queue.push(implementer)
      }
    }
    return [...found]
  }

  /** The types an indexer recorded as `symbol`'s type definition (`is_type_definition`; scip-typescript writes none). */
  typeDefinitions(symbol: string): string[] {
    return (this.info(symbol)?.relationships ?? []).filter((r) => r.isTypeDefinition).map((r) => r.symbol)
  }

  /** Global symbols defined in the index whose last descriptor is named `name` and is a type (`#`). */
  typesNamed(name: string): ReadonlyArray<string> {
    if (this.types === undefined) {
      this.types = new Map()
      for (const { occurrence } of this.definitionsIn()) {
        const last = lastDescriptor(occurrence.symbol)
        if (last?.suffix !== 'type') continue
        const list = this.types.get(last.name) ?? []
        if (!list.includes(occurrence.symbol)) this.types.set(last.name, [...list, occurrence.symbol])
      }
    }
    return this.types.get(name) ?? []
  }

  /** Every definition of a global symbol, document by document: the material of outlines and symbol search. */
  *definitionsIn(document?: IndexDocument): Generator<IndexHit> {
    for (const doc of document === undefined ? this.decoded.documents : [document]) {
      const own = doc.globalDefinitions?.()
      if (own !== undefined) for (const occurrence of own) yield { document: doc, occurrence }
      else
        for (const occurrence of doc.occurrences) {
          if ((occurrence.roles & definitionRole) !== 0 && !occurrence.symbol.startsWith('local ')) yield { document: doc, occurrence }
        }
    }
  }
}

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

function locationOf({ document, occurrence }: IndexHit): IndexLocation {
  return {
    relativePath: document.relativePath,
    range: occurrence.range,
    ...(occurrence.enclosing !== undefined ? { enclosing: occurrence.enclosing } : {}),
  }
}
