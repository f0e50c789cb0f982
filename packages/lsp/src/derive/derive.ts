// Type hierarchy and implementation, derived from what every server offers: outlines (document symbols),
// the declaration header's text, definitions of each base name, and references. One way for every
// language; the server's own answer is always preferred where it has one (the provider decides).
import { comparePositions, rangeContains } from '../coordinates.js'
import { LspError } from '../errors.js'
import type { LspHierarchyItem, LspLocation, LspPosition, LspRequestFor, LspResultFor, LspResultMeta } from '../vocabulary.js'
import { aliasedName, baseEntries, declarationOnly, type BaseEntry } from './header.js'
import type { LspDerivableOperation, LspDerivationHost } from './host.js'
import { DerivationFiles, itemOf, memberKinds, typeKinds, type FlatSymbol } from './symbols.js'

/** How far aliases and import hops are followed, and how many subtypes a transitive walk visits. */
const maxHops = 4
const maxTransitive = 2000

/**
 * Answers a derivable operation for a provider whose server lacks it. The result carries `meta.derived`
 * (the native operations it was built from, and the bases that resolved to no declaration).
 */
export async function deriveOperation<O extends LspDerivableOperation>(
  operation: O,
  request: LspRequestFor<O>,
  host: LspDerivationHost,
): Promise<LspResultFor<O>> {
  const files = new DerivationFiles(host, (request as { root: string }).root)
  const derivation = new Derivation(files)
  const unresolved: string[] = []
  let result: { kind: 'hierarchyItems'; items: LspHierarchyItem[] } | { kind: 'locations'; locations: LspLocation[] }
  let truncated = false
  switch (operation) {
    case 'prepareTypeHierarchy': {
      const { path, position } = request as LspRequestFor<'prepareTypeHierarchy'>
      const node = await derivation.typeAt(path, position)
      result = { kind: 'hierarchyItems', items: node === undefined ? [] : [itemOf(node)] }
      break
    }
    case 'supertypes': {
      const node = await derivation.nodeOf((request as LspRequestFor<'supertypes'>).item)
      result = { kind: 'hierarchyItems', items: unique((await derivation.supertypes(node, unresolved)).map(itemOf)) }
      break
    }
    case 'subtypes': {
      const node = await derivation.nodeOf((request as LspRequestFor<'subtypes'>).item)
      result = { kind: 'hierarchyItems', items: unique((await derivation.subtypes(node, new Set(), 0)).map(itemOf)) }
      break
    }
    default: {
      const { path, position } = request as LspRequestFor<'implementation'>
      const found = await derivation.implementations(path, position)
      truncated = found.truncated
      result = { kind: 'locations', locations: found.nodes.map(locationOf) }
    }
  }
  return { ...result, meta: derivedMeta(files, unresolved, truncated) } as LspResultFor<O>
}

class Derivation {
  private readonly bases = new Map<FlatSymbol, Promise<BaseEntry[]>>()

  constructor(private readonly files: DerivationFiles) {}

  /** The type declared or named at a position: its own name, or where a name there leads. */
  async typeAt(path: string, position: LspPosition): Promise<FlatSymbol | undefined> {
    const node = await this.files.symbolNamedAt(path, position)
    if (node !== undefined && typeKinds.has(node.symbol.kind) && (await this.alias(node)) === undefined) return node
    return this.resolve(path, position, 0)
  }

  /** A hierarchy item's declaration in the file's current outline. */
  async nodeOf(item: LspHierarchyItem): Promise<FlatSymbol> {
    const node = await this.files.symbolNamedAt(item.path, item.selectionRange.start)
    if (node === undefined || node.symbol.name !== item.name) {
      throw new LspError(
        'NOT_FOUND',
        `${item.name} is no longer declared at ${item.path}:${item.selectionRange.start.line + 1}: prepare it again`,
      )
    }
    return node
  }

  /** Where the name at a position leads, followed through imports and aliases to a type declaration. */
  async resolve(path: string, position: LspPosition, hops: number): Promise<FlatSymbol | undefined> {
    if (hops > maxHops) return undefined
    const { locations } = await this.files.ask({ operation: 'definition', root: this.files.root, path, position })
    for (const location of locations) {
      const at = location.targetSelectionRange?.start ?? location.range.start
      const node = (await this.files.symbolNamedAt(location.path, at)) ?? (await this.declarationStartingAt(location.path, at))
      if (node !== undefined) {
        const alias = await this.alias(node)
        if (alias !== undefined) {
          const target = await this.resolve(node.path, (await this.files.lines(node.path)).positionAt(alias.lastStart), hops + 1)
          if (target !== undefined) return target
        } else if (typeKinds.has(node.symbol.kind)) {
          return node
        }
      } else if (location.path !== path || comparePositions(at, position) !== 0) {
        // Not a declaration of the outline (an import statement): ask where that name leads.
        const target = await this.resolve(location.path, at, hops + 1)
        if (target !== undefined) return target
      }
    }
    return undefined
  }

  private async declarationStartingAt(path: string, at: LspPosition): Promise<FlatSymbol | undefined> {
    const around = await this.files.symbolsAround(path, at)
    return around.filter((node) => node.symbol.range.start.line === at.line && typeKinds.has(node.symbol.kind)).at(-1)
  }

  /** What a declaration aliases (`type X = Base`, `using X = Base<int>`, `X = Base`), if it is an alias. */
  async alias(node: FlatSymbol): Promise<BaseEntry | undefined> {
    const lines = await this.files.lines(node.path)
    const { selectionRange } = node.symbol
    return aliasedName(
      lines.text,
      lines.offsetAt(selectionRange.start),
      lines.offsetAt(selectionRange.end),
      lines.offsetAt({ line: selectionRange.start.line, character: 0 }),
    )
  }

  /** The bases a type's header declares. */
  basesOf(node: FlatSymbol): Promise<BaseEntry[]> {
    let bases = this.bases.get(node)
    if (bases === undefined) {
      bases = this.files.lines(node.path).then((lines) => baseEntries(lines.text, lines.offsetAt(node.symbol.selectionRange.end)))
      this.bases.set(node, bases)
    }
    return bases
  }

  /** Whether a type's declaration has no header past its name (`class Circle;`). */
  private async isDeclarationOnly(node: FlatSymbol): Promise<boolean> {
    const lines = await this.files.lines(node.path)
    return declarationOnly(lines.text, lines.offsetAt(node.symbol.selectionRange.end))
  }

  /**
   * The declared bases resolved to their declarations; the others' names go to `unresolved`. A forward
   * declaration (`class Circle;`) declares none: the bases are read from the definition its name leads to
   * (the same type; clangd answers this way too).
   */
  async supertypes(declared: FlatSymbol, unresolved: string[]): Promise<FlatSymbol[]> {
    const node = (await this.isDeclarationOnly(declared))
      ? ((await this.resolve(declared.path, declared.symbol.selectionRange.start, 0)) ?? declared)
      : declared
    const lines = await this.files.lines(node.path)
    const entries = await this.basesOf(node)
    const targets = await Promise.all(
      entries.map((entry) => (entry.call ? undefined : this.resolve(node.path, lines.positionAt(entry.lastStart), 0))),
    )
    const found: FlatSymbol[] = []
    targets.forEach((target, i) => (target === undefined ? unresolved.push(entries[i]!.name) : found.push(target)))
    return found
  }

  /** Types naming this one as a base, found through its references (and through aliases of it). */
  async subtypes(node: FlatSymbol, aliases: Set<FlatSymbol>, hops: number): Promise<FlatSymbol[]> {
    const { selectionRange } = node.symbol
    const { locations } = await this.files.ask({
      operation: 'references',
      root: this.files.root,
      path: node.path,
      position: selectionRange.start,
    })
    const perLocation = await Promise.all(
      locations.map(async (location) => {
        const at = location.range.start
        if (location.path === node.path && rangeContains(selectionRange, at)) return []
        const lines = await this.files.lines(location.path)
        const offset = lines.offsetAt(at)
        // The reference names the base itself (its last part), not a qualifier (`Outer` in `Outer::Inner`).
        const within = (entry: BaseEntry) => offset >= entry.lastStart && offset <= entry.end
        const found: FlatSymbol[] = []
        for (const candidate of await this.files.outline(location.path)) {
          const { range, selectionRange: name } = candidate.symbol
          if (rangeContains(range, at) && typeKinds.has(candidate.symbol.kind) && (await this.basesOf(candidate)).some(within)) {
            found.push(candidate)
          }
          // An alias of this type declared here (its outline range may cover the name only): follow it.
          const onItsLine = name.start.line === at.line && comparePositions(name.end, at) <= 0
          if ((rangeContains(range, at) || onItsLine) && hops < maxHops && !aliases.has(candidate)) {
            const alias = await this.alias(candidate)
            if (alias !== undefined && within(alias)) {
              aliases.add(candidate)
              found.push(...(await this.subtypes(candidate, aliases, hops + 1)))
            }
          }
        }
        return found
      }),
    )
    return perLocation.flat()
  }

  /** Subtypes, their subtypes, and so on (each once). */
  async transitiveSubtypes(node: FlatSymbol): Promise<{ nodes: FlatSymbol[]; truncated: boolean }> {
    const seen = new Set<string>([keyOf(node)])
    const nodes: FlatSymbol[] = []
    const queue = [node]
    while (queue.length > 0) {
      for (const sub of await this.subtypes(queue.shift()!, new Set(), 0)) {
        if (seen.has(keyOf(sub))) continue
        if (nodes.length >= maxTransitive) return { nodes, truncated: true }
        seen.add(keyOf(sub))
        nodes.push(sub)
        queue.push(sub)
      }
    }
    return { nodes, truncated: false }
  }

  /** Subclasses of a class; the overriding members in every transitive subclass for a member. */
  async implementations(path: string, position: LspPosition): Promise<{ nodes: FlatSymbol[]; truncated: boolean }> {
    let node = await this.files.symbolNamedAt(path, position)
    if (node === undefined || !(typeKinds.has(node.symbol.kind) || memberKinds.has(node.symbol.kind))) {
      const { locations } = await this.files.ask({ operation: 'definition', root: this.files.root, path, position })
      const first = locations[0]
      node =
        first === undefined ? undefined : await this.files.symbolNamedAt(first.path, first.targetSelectionRange?.start ?? first.range.start)
    }
    if (node === undefined) return { nodes: [], truncated: false }
    if (typeKinds.has(node.symbol.kind)) return this.transitiveSubtypes(node)
    const owner = node.parent
    if (!memberKinds.has(node.symbol.kind) || owner === undefined || !typeKinds.has(owner.symbol.kind))
      return { nodes: [], truncated: false }
    const name = node.symbol.name
    const subclasses = await this.transitiveSubtypes(owner)
    const overrides: FlatSymbol[] = []
    for (const subclass of subclasses.nodes) {
      const outline = await this.files.outline(subclass.path)
      overrides.push(...outline.filter((m) => m.parent === subclass && m.symbol.name === name && memberKinds.has(m.symbol.kind)))
    }
    return { nodes: overrides, truncated: subclasses.truncated }
  }
}

function keyOf(node: FlatSymbol): string {
  const { start } = node.symbol.selectionRange
  return `${node.path}:${start.line}:${start.character}`
}

function unique(items: LspHierarchyItem[]): LspHierarchyItem[] {
  return [...new Map(items.map((item) => [item.id, item])).values()]
}

function locationOf(node: FlatSymbol): LspLocation {
  return { uri: node.uri, path: node.path, range: node.symbol.selectionRange }
}

/** The derived answer's metadata: the native answers' state, and how it was derived. */
function derivedMeta(files: DerivationFiles, unresolved: ReadonlyArray<string>, truncated: boolean): LspResultMeta {
  const metas = files.metas
  const rank = { ready: 0, indexing: 1, degraded: 2 } as const
  const coverage = metas.flatMap((meta) => (meta.coverage === undefined ? [] : [meta.coverage]))
  const incomplete = coverage.find((c) => !c.complete)
  return {
    providerId: metas[0]?.providerId ?? 'derived',
    status: metas.reduce<LspResultMeta['status']>((worst, meta) => (rank[meta.status] > rank[worst] ? meta.status : worst), 'ready'),
    warm: metas.every((meta) => meta.warm),
    truncated: truncated || metas.some((meta) => meta.truncated),
    ...(metas.some((meta) => meta.stale === true) ? { stale: true } : {}),
    ...(coverage.length > 0 ? { coverage: incomplete ?? coverage[coverage.length - 1]! } : {}),
    derived: { from: [...files.asked], ...(unresolved.length > 0 ? { unresolved: [...unresolved] } : {}) },
    elapsedMs: 0,
  }
}
