// What a derivation knows about one file: its text, its line table and its outline, each asked once per
// derivation, and the type declarations in it found by position.
import { TextLines, comparePositions, rangeContains } from '../coordinates.js'
import { contentHash } from '../hash.js'
import { pathToUri } from '../paths.js'
import type {
  LspDocumentSymbol,
  LspHierarchyItem,
  LspOperation,
  LspPosition,
  LspQueryRequest,
  LspResultFor,
  LspResultMeta,
  LspSymbolKind,
} from '../vocabulary.js'
import type { LspDerivationHost } from './host.js'

/** Kinds that declare a type other types can extend. */
export const typeKinds: ReadonlySet<LspSymbolKind> = new Set(['class', 'interface', 'struct'])
/** Kinds a subtype can override. */
export const memberKinds: ReadonlySet<LspSymbolKind> = new Set(['method', 'function', 'property', 'field'])

/** An outline node with its parent. */
export interface FlatSymbol {
  readonly symbol: LspDocumentSymbol
  readonly parent?: FlatSymbol
  readonly path: string
  readonly uri: string
}

/** The item data that marks a hierarchy item as codeseam's own (derived), so follow-ups are derived too. */
export interface DerivedItemData {
  readonly codeseamDerived: 1
}

export function isDerivedItem(item: LspHierarchyItem): boolean {
  const data = item.data as Partial<DerivedItemData> | null | undefined
  return typeof data === 'object' && data !== null && data.codeseamDerived === 1
}

/** One derivation's view of the files it reads: every file read and outlined at most once. */
export class DerivationFiles {
  private readonly texts = new Map<string, Promise<TextLines>>()
  private readonly outlines = new Map<string, Promise<FlatSymbol[]>>()
  /** Native operations asked, in order, for `meta.derived.from`. */
  readonly asked: LspOperation[] = []

  constructor(
    readonly host: LspDerivationHost,
    readonly root: string,
  ) {}

  /** The metadata of every native answer, with the file it was about, for the derived answer's own. */
  readonly answers: Array<{ readonly path?: string; readonly meta: LspResultMeta }> = []

  /** Asks the provider natively, noting the operation and keeping the answer's metadata. */
  async ask<R extends LspQueryRequest>(request: R): Promise<LspResultFor<R['operation']>> {
    if (!this.asked.includes(request.operation)) this.asked.push(request.operation)
    const result = await this.host.ask(request)
    const path = (request as { path?: unknown }).path
    this.answers.push({ ...(typeof path === 'string' ? { path } : {}), meta: result.meta })
    return result
  }

  lines(path: string): Promise<TextLines> {
    let lines = this.texts.get(path)
    if (lines === undefined) this.texts.set(path, (lines = this.host.read(path).then((text) => new TextLines(text))))
    return lines
  }

  /** The file's outline, flattened, outermost first. */
  outline(path: string): Promise<FlatSymbol[]> {
    let outline = this.outlines.get(path)
    if (outline === undefined) {
      outline = this.ask({ operation: 'documentSymbols', root: this.root, path }).then((result) => {
        const flat: FlatSymbol[] = []
        const uri = pathToUri(path)
        const walk = (symbols: ReadonlyArray<LspDocumentSymbol>, parent?: FlatSymbol) => {
          for (const symbol of symbols) {
            const node: FlatSymbol = { symbol, path, uri, ...(parent === undefined ? {} : { parent }) }
            flat.push(node)
            walk(symbol.children, node)
          }
        }
        walk(result.symbols)
        return flat
      })
      this.outlines.set(path, outline)
    }
    return outline
  }

  /** The innermost symbol whose name contains the position. */
  async symbolNamedAt(path: string, position: LspPosition): Promise<FlatSymbol | undefined> {
    const outline = await this.outline(path)
    let found: FlatSymbol | undefined
    for (const node of outline) {
      if (rangeContains(node.symbol.selectionRange, position) && (found === undefined || inside(node, found))) found = node
    }
    return found
  }

  /** Every symbol whose whole range contains the position, innermost last. */
  async symbolsAround(path: string, position: LspPosition): Promise<FlatSymbol[]> {
    const outline = await this.outline(path)
    return outline.filter((node) => rangeContains(node.symbol.range, position))
  }
}

function inside(inner: FlatSymbol, outer: FlatSymbol): boolean {
  return comparePositions(inner.symbol.selectionRange.start, outer.symbol.selectionRange.start) >= 0
}

/** A hierarchy item for a declaration found in an outline. */
export function itemOf(node: FlatSymbol): LspHierarchyItem {
  const { symbol } = node
  const data: DerivedItemData = { codeseamDerived: 1 }
  return {
    id: contentHash(JSON.stringify([node.uri, symbol.name, symbol.kind, symbol.selectionRange])).slice(0, 16),
    name: symbol.name,
    kind: symbol.kind,
    ...(symbol.detail ? { detail: symbol.detail } : {}),
    uri: node.uri,
    path: node.path,
    range: symbol.range,
    selectionRange: symbol.selectionRange,
    data,
  }
}
