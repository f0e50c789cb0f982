import * as nodePath from 'node:path'

import {
  BoundedCache,
  pathToUri,
  type LspDocumentSymbol,
  type LspHover,
  type LspLocation,
  type LspPosition,
  type LspRange,
  type LspSymbolKind,
  type LspWorkspaceSymbol,
} from '@codeseam/lsp'

import type { IndexDocument } from './decode.js'
import type { OutlineCache } from './outline-cache.js'
import { convertPosition, splitLines } from './encoding.js'
import { ScipIndex, type IndexLocation } from './scip-index.js'
import { kindOfSymbol, lastDescriptor, nameOfSymbol, parentSymbol, signatureLine } from './symbols.js'
import { typeNamesOf } from './type-names.js'

// The index's answers in the seam's terms: absolute paths under the root, UTF-16 columns, seam symbol kinds. No
// provider concerns (errors for unknown files, meta, cancellation): a composition of index and live server calls
// these per file it trusts the index for.

/** Reads a document's text (relative path) when a column must be converted; undefined when it cannot be read. */
export type IndexTextReader = (relativePath: string) => Promise<string | undefined>

/** What a navigation answer is: locations, and whether it was built from other answers (typeDefinition from hover). */
export interface IndexLocations {
  readonly locations: ReadonlyArray<LspLocation>
  readonly derived?: boolean
}

/** The symbol kinds an outline and a symbol search leave out: they are not declarations people look for. */
const notListed = new Set(['parameter', 'typeParameter'])

/** Answers seam operations from one index for one root. */
export class IndexAnswers {
  readonly index: ScipIndex
  readonly root: string
  private readonly readText: IndexTextReader
  private searchTable: ReadonlyArray<{ symbol: string; name: string; lower: string; location: IndexLocation }> | undefined
  private readonly lines = new BoundedCache<string, ReadonlyArray<string>>({ entries: 256, size: 64 * 1024 * 1024 })

  constructor(
    index: ScipIndex,
    root: string,
    readText: IndexTextReader,
    /** Outlines computed before (`codeseam index`), used before computing one. */
    private readonly outlines?: OutlineCache,
  ) {
    this.index = index
    this.root = root
    this.readText = readText
  }

  /** The document of a path relative to the root (undefined when the index has none). */
  document(relativePath: string): IndexDocument | undefined {
    return this.index.document(relativePath)
  }

  private async linesOf(document: IndexDocument): Promise<ReadonlyArray<string>> {
    const cached = this.lines.get(document.relativePath)
    if (cached !== undefined) return cached
    const text = document.text ?? (await this.readText(document.relativePath)) ?? ''
    const lines = splitLines(text)
    this.lines.set(document.relativePath, lines, text.length)
    return lines
  }

  /** A seam position (UTF-16) in the document's encoding. */
  private async toIndex(document: IndexDocument, position: LspPosition): Promise<LspPosition> {
    if (document.encoding === 'utf-16') return position
    return convertPosition(await this.linesOf(document), position, 'utf-16', document.encoding)
  }

  /** A range of the document, in UTF-16. */
  private async toSeam(relativePath: string, range: LspRange): Promise<LspRange> {
    const document = this.index.document(relativePath)
    if (document === undefined || document.encoding === 'utf-16') return range
    const lines = await this.linesOf(document)
    return {
      start: convertPosition(lines, range.start, document.encoding, 'utf-16'),
      end: convertPosition(lines, range.end, document.encoding, 'utf-16'),
    }
  }

  private absolute(relativePath: string): string {
    return nodePath.join(this.root, ...relativePath.split('/'))
  }

  /** A location of the index as a seam location: a definition's whole declaration as `range`, its name as `targetSelectionRange`. */
  private async location(location: IndexLocation, declaration: boolean): Promise<LspLocation> {
    const path = this.absolute(location.relativePath)
    const name = await this.toSeam(location.relativePath, location.range)
    if (!declaration || location.enclosing === undefined) return { uri: pathToUri(path), path, range: name }
    return { uri: pathToUri(path), path, range: await this.toSeam(location.relativePath, location.enclosing), targetSelectionRange: name }
  }

  private async locations(locations: ReadonlyArray<IndexLocation>, declaration: boolean): Promise<LspLocation[]> {
    return Promise.all(locations.map((l) => this.location(l, declaration)))
  }

  /** The symbols at a seam position of a document. */
  async symbolsAt(document: IndexDocument, position: LspPosition): Promise<string[]> {
    return this.index.symbolsAt(document.relativePath, await this.toIndex(document, position))
  }

  /** Definition (and declaration: the index has one place per symbol). */
  async definition(document: IndexDocument, position: LspPosition): Promise<IndexLocations> {
    const symbols = await this.symbolsAt(document, position)
    return {
      locations: await this.locations(this.index.definitionsAt(symbols), true),
    }
  }

  /** References, declarations included; a class's include its constructor calls (`new C()`). */
  async references(document: IndexDocument, position: LspPosition): Promise<IndexLocations> {
    const symbols = await this.symbolsAt(document, position)
    const found = symbols.flatMap((s) => this.index.references(s))
    const seen = new Set<string>()
    const unique = found.filter((l) => {
      const key = `${l.relativePath}:${l.range.start.line}:${l.range.start.character}:${l.range.end.line}:${l.range.end.character}`
      return seen.has(key) ? false : (seen.add(key), true)
    })
    return { locations: await this.locations(unique, false) }
  }

  /** Implementations: what implements the symbol, transitively; a symbol nothing implements answers its own definition. */
  async implementation(document: IndexDocument, position: LspPosition): Promise<IndexLocations> {
    const symbols = await this.symbolsAt(document, position)
    const implementers = symbols.flatMap((s) => this.index.implementations(s))
    const targets = implementers.length > 0 ? implementers : symbols
    return {
      locations: await this.locations(
        targets.flatMap((s) => this.index.definitions(s)),
        true,
      ),
    }
  }

  /**
   * Type definition: the index's `is_type_definition` relationships when it has them; otherwise derived from the
   * hover signature (`var circle: Circle`): the type names written in it, resolved to the index's types of that
   * name, those the symbol's own document uses first.
   */
  async typeDefinition(document: IndexDocument, position: LspPosition): Promise<IndexLocations> {
    const symbols = await this.symbolsAt(document, position)
    const recorded = symbols.flatMap((s) => this.index.typeDefinitions(s))
    if (recorded.length > 0)
      return {
        locations: await this.locations(
          recorded.flatMap((s) => this.index.definitions(s)),
          true,
        ),
      }
    const types = symbols.flatMap((symbol) => {
      const info = this.index.info(symbol)
      const line = info === undefined ? undefined : signatureLine(info.documentation, info.signature?.text)
      if (line === undefined) return []
      if (lastDescriptor(symbol)?.suffix === 'type') return [symbol]
      const home = this.index.definitions(symbol)[0]?.relativePath ?? document.relativePath
      return typeNamesOf(line).flatMap((name) => this.resolveType(name, home))
    })
    return {
      locations: await this.locations(
        [...new Set(types)].flatMap((s) => this.index.definitions(s)),
        true,
      ),
      derived: true,
    }
  }

  /** The index's types named `name`, those used in `home` when several are. */
  private resolveType(name: string, home: string): ReadonlyArray<string> {
    const candidates = this.index.typesNamed(name)
    if (candidates.length <= 1) return candidates
    const used = candidates.filter((c) => this.index.occurrencesOf(c).some((hit) => hit.document.relativePath === home))
    return used.length > 0 ? used : candidates
  }

  /** Hover: the occurrence's own documentation, else the symbol's, as Markdown. */
  async hover(document: IndexDocument, position: LspPosition): Promise<LspHover | null> {
    const indexPosition = await this.toIndex(document, position)
    for (const symbol of this.index.symbolsAt(document.relativePath, indexPosition)) {
      const occurrence = this.index.occurrenceAt(document.relativePath, indexPosition, symbol)
      const info = this.index.info(symbol)
      const signature = info?.signature === undefined ? [] : [`\`\`\`${info.signature.language}\n${info.signature.text}\n\`\`\``]
      const parts = occurrence?.documentation ?? [...signature, ...(info?.documentation ?? [])]
      if (parts.length === 0) continue
      const range = occurrence === undefined ? undefined : await this.toSeam(document.relativePath, occurrence.range)
      return { contents: parts.join('\n\n'), format: 'markdown', ...(range !== undefined ? { range } : {}) }
    }
    return null
  }

  private kindOf(symbol: string): LspSymbolKind {
    const info = this.index.info(symbol)
    return info?.kind ?? kindOfSymbol(symbol, info === undefined ? undefined : signatureLine(info.documentation, info.signature?.text))
  }

  private listed(symbol: string, range: LspRange): boolean {
    const suffix = lastDescriptor(symbol)?.suffix
    const empty = range.start.line === range.end.line && range.start.character === range.end.character
    // A module's own definition (scip-typescript: an empty range at 0:0) names no declaration in the text.
    return suffix !== undefined && !notListed.has(suffix) && !empty
  }

  /** The document's outline: its definitions nested by their symbols' descriptors (`C#` holds `C#m().`). */
  async documentSymbols(document: IndexDocument): Promise<LspDocumentSymbol[]> {
    return this.outlines?.get(document.relativePath) ?? this.outline(document)
  }

  /** The outline of a document, computed from the index. */
  async outline(document: IndexDocument): Promise<LspDocumentSymbol[]> {
    type Node = { symbol: string; value: Omit<LspDocumentSymbol, 'children'>; children: Node[] }
    const nodes = new Map<string, Node>()
    for (const { occurrence } of this.index.definitionsIn(document)) {
      if (!this.listed(occurrence.symbol, occurrence.range) || nodes.has(occurrence.symbol)) continue
      const selectionRange = await this.toSeam(document.relativePath, occurrence.range)
      const range = occurrence.enclosing === undefined ? selectionRange : await this.toSeam(document.relativePath, occurrence.enclosing)
      const info = this.index.info(occurrence.symbol)
      nodes.set(occurrence.symbol, {
        symbol: occurrence.symbol,
        value: { name: nameOfSymbol(occurrence.symbol, info?.displayName), kind: this.kindOf(occurrence.symbol), range, selectionRange },
        children: [],
      })
    }
    const roots: Node[] = []
    for (const node of nodes.values()) {
      let parent = parentSymbol(node.symbol)
      while (parent !== undefined && !nodes.has(parent)) parent = parentSymbol(parent)
      const owner = parent === undefined ? undefined : nodes.get(parent)
      if (owner === undefined) roots.push(node)
      else owner.children.push(node)
    }
    const build = (node: Node): LspDocumentSymbol => ({ ...node.value, children: node.children.map(build) })
    return roots.map(build)
  }

  /** Every listed definition once, with its name lowercased: built on the first search. */
  private searchable(): ReadonlyArray<{ symbol: string; name: string; lower: string; location: IndexLocation }> {
    if (this.searchTable !== undefined) return this.searchTable
    const table: Array<{ symbol: string; name: string; lower: string; location: IndexLocation }> = []
    const seen = new Set<string>()
    for (const { document, occurrence } of this.index.definitionsIn()) {
      if (seen.has(occurrence.symbol) || !this.listed(occurrence.symbol, occurrence.range)) continue
      seen.add(occurrence.symbol)
      const name = nameOfSymbol(occurrence.symbol, this.index.info(occurrence.symbol)?.displayName)
      table.push({
        symbol: occurrence.symbol,
        name,
        lower: name.toLowerCase(),
        location: { relativePath: document.relativePath, range: occurrence.range },
      })
    }
    this.searchTable = table
    return table
  }

  /** Symbol search: definitions whose name contains the query, case-insensitively, exact then prefix matches first; `limit` at most. */
  async workspaceSymbols(query: string, limit: number): Promise<{ symbols: LspWorkspaceSymbol[]; truncated: boolean }> {
    const needle = query.toLowerCase()
    const rank = (name: string, lower: string) => (name === query ? 0 : lower === needle ? 1 : lower.startsWith(needle) ? 2 : 3)
    const matches = this.searchable()
      .filter((entry) => entry.lower.includes(needle))
      .map((entry) => ({ ...entry, rank: rank(entry.name, entry.lower) }))
      .sort((a, b) => a.rank - b.rank)
    const found = matches.slice(0, limit)
    const truncated = matches.length > limit
    const symbols = await Promise.all(
      found.map(async ({ symbol, name, location }) => {
        const parent = parentSymbol(symbol)
        const container = parent === undefined ? undefined : nameOfSymbol(parent, this.index.info(parent)?.displayName)
        return {
          name,
          kind: this.kindOf(symbol),
          ...(container !== undefined ? { containerName: container } : {}),
          location: await this.location(location, false),
        }
      }),
    )
    return { symbols, truncated }
  }
}
