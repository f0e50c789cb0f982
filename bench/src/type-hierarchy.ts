// The read mix's derived operation: the type hierarchy of a class (prepareTypeHierarchy + subtypes). The
// native TS 7 server has no type hierarchy; lsp-local derives it from document symbols, the class headers'
// text and references (packages/lsp/src/derive/). Every layer answers it; the floor, which has nothing to
// derive with, answers the native requests the derivation is built from, so the ratio is what the
// derivation layer costs on top of its ingredients.
import { fileURLToPath } from 'node:url'

import type { DocumentSymbol, Location, SymbolInformation } from 'vscode-languageserver-protocol'

import { relativeTo } from './layers/read-layer.js'
import type { ReadQuery } from './read-mix.js'
import type { DerivedOperationInfo } from './report.js'

/** The read mix's derived operations (one so far). */
export const derivedOperationInfos: ReadonlyArray<DerivedOperationInfo> = [
  {
    operation: 'typeHierarchy',
    asked:
      'the direct subtypes of the module’s class: ctx.lsp prepareTypeHierarchy + subtypes; tools and MCP code_hierarchy kind "subtypes"',
    derivedFrom: ['documentSymbols', 'references', 'file text (class headers)'],
    floor:
      'the bare server answering the ingredients, one after another as a client would: documentSymbols of the class’s file, references at the class name, then documentSymbols of every other file the references name (in parallel)',
    verified:
      'exactly the two direct subclasses the generator wrote, by name, file and line (not the subclass of a subclass, not a plain use); the floor: its references hold each subclass’s `extends` and its outlines each subclass',
  },
]

/** The floor's answer: the raw ingredients of the derivation. */
export interface FloorTypeHierarchy {
  readonly outline: ReadonlyArray<DocumentSymbol | SymbolInformation>
  readonly references: ReadonlyArray<Location>
  readonly outlines: ReadonlyArray<{ readonly uri: string; readonly symbols: ReadonlyArray<DocumentSymbol | SymbolInformation> }>
}

/** What the floor needs of its client: outlines and references, raw. */
export interface FloorRequests {
  readonly root: string
  documentSymbols(path: string): Promise<ReadonlyArray<DocumentSymbol | SymbolInformation> | null>
  references(path: string, position: { readonly line: number; readonly character: number }): Promise<Location[] | null>
}

/** The bare way to the ingredients: the class's outline, its references, the referencing files' outlines. */
export async function floorTypeHierarchy(client: FloorRequests, query: ReadQuery): Promise<FloorTypeHierarchy> {
  const outline = (await client.documentSymbols(query.path)) ?? []
  const references = (await client.references(query.path, query.position)) ?? []
  const own = relativeTo(client.root, query.path)
  const others = [...new Set(references.map((l) => l.uri))].filter((uri) => relativeTo(client.root, uri) !== own)
  const outlines = await Promise.all(
    others.map(async (uri) => ({ uri, symbols: (await client.documentSymbols(fileURLToPath(uri))) ?? [] })),
  )
  return { outline, references, outlines }
}

function names(symbols: ReadonlyArray<DocumentSymbol | SymbolInformation>): string[] {
  return symbols.flatMap((s) => [s.name, ...('children' in s ? names(s.children ?? []) : [])])
}

/** `name@path:line` split back into its parts. */
function parseKey(key: string): { name: string; path: string; line: number } {
  const at = key.indexOf('@')
  const colon = key.lastIndexOf(':')
  return { name: key.slice(0, at), path: key.slice(at + 1, colon), line: Number(key.slice(colon + 1)) }
}

/**
 * The floor answered correctly when its ingredients hold the answer: the class in its own outline, and for
 * every expected subtype a reference on the subtype's declaration line (its `extends`) and the subtype in
 * that file's outline.
 */
export function floorHoldsSubtypes(root: string, query: ReadQuery, answer: unknown): boolean {
  const expected = query.expect.subtypes ?? []
  const floor = answer as Partial<FloorTypeHierarchy> | null
  if (floor?.outline === undefined || floor.references === undefined || floor.outlines === undefined) return false
  if (!names(floor.outline).includes(query.matchText)) return false
  return expected.map(parseKey).every(({ name, path, line }) => {
    const referenced = floor.references!.some((l) => relativeTo(root, l.uri) === path && l.range.start.line + 1 === line)
    const outlined = floor.outlines!.some((o) => relativeTo(root, o.uri) === path && names(o.symbols).includes(name))
    return referenced && outlined
  })
}

/** Sorted lists equal, item by item. */
function sameKeys(expected: ReadonlyArray<string>, actual: ReadonlyArray<string>): boolean {
  const sorted = [...actual].sort()
  return expected.length === sorted.length && [...expected].sort().every((key, i) => key === sorted[i])
}

interface SeamHierarchyAnswer {
  readonly kind: string
  readonly items?: ReadonlyArray<{ name: string; path: string; selectionRange: { start: { line: number } } }>
  readonly meta?: { readonly derived?: unknown }
}

/**
 * ctx.lsp: exactly the expected subtypes, and marked derived (`meta.derived`): the row is reported as a
 * derived operation, so a native answer would make it say something untrue.
 */
export function seamHasSubtypes(root: string, query: ReadQuery, answer: unknown): boolean {
  const result = answer as SeamHierarchyAnswer
  if (result.kind !== 'hierarchyItems' || result.meta?.derived === undefined) return false
  const keys = (result.items ?? []).map((i) => `${i.name}@${relativeTo(root, i.path)}:${i.selectionRange.start.line + 1}`)
  return sameKeys(query.expect.subtypes ?? [], keys)
}

/** code_hierarchy (kind subtypes): exactly the expected subtypes in `direct`, and as many in the page total. */
export function toolHasSubtypes(query: ReadQuery, structured: Record<string, unknown>): boolean {
  const direct = (structured['direct'] ?? []) as ReadonlyArray<{ name: string; path: string; line: number }>
  const total = (structured['page'] as { total?: unknown } | undefined)?.total
  const expected = query.expect.subtypes ?? []
  return (
    total === expected.length &&
    sameKeys(
      expected,
      direct.map((d) => `${d.name}@${d.path}:${d.line}`),
    )
  )
}
