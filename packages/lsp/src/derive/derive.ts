// Type hierarchy and implementation, derived from what every server offers: outlines (document symbols),
// the declaration header's text, definitions of each base name, and references. One way for every
// language; the server's own answer is always preferred where it has one (the provider decides).
import { comparePositions, rangeContains } from '../coordinates.js'
import { LspError } from '../errors.js'
import type { LspHierarchyItem, LspLocation, LspPosition, LspRange, LspRequestFor, LspResultFor } from '../vocabulary.js'
import { aliasedName, baseEntries, declarationOnly, type BaseEntry } from './header.js'
import type { LspDerivableOperation, LspDerivationHost } from './host.js'
import { derivedMeta, locationOf, unique } from './result.js'
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
  const path = 'item' in request ? request.item.path : (request as { path: string }).path
  return { ...result, meta: derivedMeta(files, unresolved, truncated, path) } as LspResultFor<O>
}

class Derivation {
  private readonly bases = new Map<FlatSymbol, Promise<BaseEntry[]>>()

  constructor(private readonly files: DerivationFiles) {}

  /** The type declared or named at a position: its own name, or where a name there leads. */
  async typeAt(path: string, position: LspPosition): Promise<FlatSymbol | undefined> {
    const node = await this.files.symbolNamedAt(path, position)
    if (node !== undefined && typeKinds.has(node.symbol.kind) && (await this.alias(node)) === undefined) return node
    if (node === undefined) {
      const redeclared = await this.redeclaredAt(path, position)
      if (redeclared !== undefined) return redeclared
    }
    return (await this.resolve(path, position, 0))[0]
  }

  /**
   * A type declared at the position that the outline lost: a name bound again later in the same scope
   * (pyright keeps only the last `class Module` of a function that declares it eleven times). Built from the
   * header's text, so the answer is about the declaration asked about, not another one of the same name.
   */
  private async redeclaredAt(path: string, position: LspPosition): Promise<FlatSymbol | undefined> {
    const lines = await this.files.lines(path)
    const line = lines.lineText(position.line)
    const word = /[A-Za-z_$][\w$]*/y
    let start = position.character
    while (start > 0 && /[\w$]/.test(line[start - 1]!)) start--
    word.lastIndex = start
    const name = word.exec(line)?.[0]
    if (name === undefined || !/\b(class|struct|interface)\s+$/.test(line.slice(0, start))) return undefined
    const namesake = (await this.files.outline(path)).find((n) => n.symbol.name === name && typeKinds.has(n.symbol.kind))
    if (namesake === undefined) return undefined
    const selectionRange = {
      start: { line: position.line, character: start },
      end: { line: position.line, character: start + name.length },
    }
    const symbol = {
      name,
      kind: namesake.symbol.kind,
      range: { start: { line: position.line, character: 0 }, end: selectionRange.end },
      selectionRange,
      children: [],
    }
    return { symbol, path, uri: namesake.uri, ...(namesake.parent === undefined ? {} : { parent: namesake.parent }) }
  }

  /** A hierarchy item's declaration in the file's current outline (or its header, for one the outline lost). */
  async nodeOf(item: LspHierarchyItem): Promise<FlatSymbol> {
    const node =
      (await this.files.symbolNamedAt(item.path, item.selectionRange.start)) ??
      (await this.redeclaredAt(item.path, item.selectionRange.start))
    if (node === undefined || node.symbol.name !== item.name) {
      throw new LspError(
        'NOT_FOUND',
        `${item.name} is no longer declared at ${item.path}:${item.selectionRange.start.line + 1}: prepare it again`,
      )
    }
    return node
  }

  /**
   * Where the name at a position leads, followed through imports and aliases to type declarations — every
   * one the server names (a TypeScript interface merged from several declarations is each of them).
   */
  async resolve(path: string, position: LspPosition, hops: number): Promise<FlatSymbol[]> {
    if (hops > maxHops) return []
    const { locations } = await this.files.ask({ operation: 'definition', root: this.files.root, path, position })
    const found: FlatSymbol[] = []
    for (const location of locations) {
      const at = location.targetSelectionRange?.start ?? location.range.start
      const node = (await this.files.symbolNamedAt(location.path, at)) ?? (await this.declarationStartingAt(location.path, at))
      if (node !== undefined) {
        const alias = await this.alias(node)
        if (alias !== undefined) {
          found.push(...(await this.resolve(node.path, (await this.files.lines(node.path)).positionAt(alias.lastStart), hops + 1)))
        } else if (typeKinds.has(node.symbol.kind)) {
          found.push(node)
        }
      } else if (location.path !== path || comparePositions(at, position) !== 0) {
        // Not a declaration of the outline (an import statement): ask where that name leads.
        found.push(...(await this.resolve(location.path, at, hops + 1)))
      }
    }
    return [...new Map(found.map((node) => [keyOf(node), node])).values()]
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
      ? ((await this.resolve(declared.path, declared.symbol.selectionRange.start, 0)).find((n) => keyOf(n) !== keyOf(declared)) ?? declared)
      : declared
    const lines = await this.files.lines(node.path)
    const entries = await this.basesOf(node)
    const targets = await Promise.all(
      entries.map((entry) => (entry.call ? undefined : this.resolve(node.path, lines.positionAt(entry.lastStart), 0))),
    )
    const found: FlatSymbol[] = []
    targets.forEach((target, i) =>
      target === undefined || target.length === 0 ? unresolved.push(entries[i]!.name) : found.push(...target),
    )
    return found
  }

  /** Types naming this one as a base, found through its references (and through aliases of it). */
  subtypes(node: FlatSymbol, seen: Set<string>, hops: number): Promise<FlatSymbol[]> {
    return this.subtypesOfName(node.path, node.symbol.selectionRange, seen, hops)
  }

  /** Types whose base list holds a reference to the name at `name` (a type's, an alias's, an import's). */
  private async subtypesOfName(path: string, name: LspRange, seen: Set<string>, hops: number): Promise<FlatSymbol[]> {
    seen.add(siteKey(path, name.start))
    const { locations } = await this.files.ask({ operation: 'references', root: this.files.root, path, position: name.start })
    const perLocation = await Promise.all(
      locations.map(async (location) => {
        const at = location.range.start
        if (location.path === path && rangeContains(name, at)) return []
        const lines = await this.files.lines(location.path)
        const offset = lines.offsetAt(at)
        // The reference names the base itself (its last part), not a qualifier (`Outer` in `Outer::Inner`).
        const within = (entry: BaseEntry) => offset >= entry.lastStart && offset <= entry.end
        const found: FlatSymbol[] = []
        for (const candidate of await this.files.outline(location.path)) {
          const { range, selectionRange } = candidate.symbol
          if (rangeContains(range, at) && typeKinds.has(candidate.symbol.kind) && (await this.basesOf(candidate)).some(within)) {
            found.push(candidate)
          }
          // An alias of this type declared here (its outline range may cover the name only): follow it.
          const onItsLine = selectionRange.start.line === at.line && comparePositions(selectionRange.end, at) <= 0
          if ((rangeContains(range, at) || onItsLine) && hops < maxHops && !seen.has(siteKey(candidate.path, selectionRange.start))) {
            const alias = await this.alias(candidate)
            if (alias !== undefined && within(alias))
              found.push(...(await this.subtypesOfName(candidate.path, selectionRange, seen, hops + 1)))
          }
        }
        // An import that renames it (`from .core import Base as Root`): the server's references to the type
        // stop at the import (pyright), so the new name's references are asked too.
        const end = lines.offsetAt(location.range.end)
        const rename = /^\s+as\s+([A-Za-z_$][\w$]*)/.exec(lines.text.slice(end, end + 200))
        if (rename !== null && hops < maxHops) {
          const aliasStart = end + rename[0].length - rename[1]!.length
          const aliasRange = { start: lines.positionAt(aliasStart), end: lines.positionAt(aliasStart + rename[1]!.length) }
          if (!seen.has(siteKey(location.path, aliasRange.start))) {
            found.push(...(await this.subtypesOfName(location.path, aliasRange, seen, hops + 1)))
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

function siteKey(path: string, position: LspPosition): string {
  return `${path}:${position.line}:${position.character}`
}

function keyOf(node: FlatSymbol): string {
  return siteKey(node.path, node.symbol.selectionRange.start)
}
