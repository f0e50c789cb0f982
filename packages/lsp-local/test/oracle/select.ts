// Symbol selection (issue 13): from the oracle's document symbols of every file, the exported symbols with
// the most references in the oracle whose references span two or more projects, plus more picked with a
// fixed seed. TypeScript: `export`ed top-level declarations (found with the compiler API's parser, matched
// to the document symbols by position); Python: top-level classes and functions not starting with `_`.
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import ts from 'typescript'
import { SymbolKind } from 'vscode-languageserver-protocol/node'

import { fileOfKey, unique } from './keys.js'
import type { OracleServer, SymbolTarget } from './oracle.js'
import type { ProjectModel } from './projects.js'

/** The seed used unless CODESEAM_ORACLE_SEED says otherwise. */
export const defaultSeed = 0x13c0de

/** A tiny seeded PRNG (mulberry32): the same seed gives the same picks on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

export interface SelectedSymbol extends SymbolTarget {
  /** `top`: among the most referenced across projects; `seeded`: picked with the seed. */
  readonly reason: 'top' | 'seeded'
  /** For `top`: the oracle's reference count and the projects those references are in. */
  readonly references?: number
  readonly projects?: ReadonlyArray<string>
}

export interface Selection {
  readonly seed: number
  /** Exported symbols found. */
  readonly candidates: number
  /** Candidates whose references the oracle was asked for while ranking. */
  readonly ranked: number
  readonly symbols: ReadonlyArray<SelectedSymbol>
}

const scriptKinds: Readonly<Record<string, ts.ScriptKind>> = {
  '.ts': ts.ScriptKind.TS,
  '.mts': ts.ScriptKind.TS,
  '.cts': ts.ScriptKind.TS,
  '.tsx': ts.ScriptKind.TSX,
  '.js': ts.ScriptKind.JS,
  '.mjs': ts.ScriptKind.JS,
  '.cjs': ts.ScriptKind.JS,
  '.jsx': ts.ScriptKind.JSX,
}

/**
 * Name positions (`line:character`) of a TypeScript file's exported top-level declarations, by name; a
 * position of a default export is marked with a trailing ` default` (its importers may call it anything).
 */
export function exportedDeclarations(path: string, text: string): Map<string, Set<string>> {
  const source = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    scriptKinds[nodePath.extname(path).toLowerCase()] ?? ts.ScriptKind.TS,
  )
  // `export { a, b as c }` (no module specifier) and `export default a` export local declarations.
  const exportedLater = new Map<string, boolean>()
  for (const statement of source.statements) {
    if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier === undefined &&
      statement.exportClause !== undefined &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const element of statement.exportClause.elements) {
        const local = (element.propertyName ?? element.name).text
        exportedLater.set(local, (exportedLater.get(local) ?? false) || element.name.text === 'default')
      }
    }
    if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) exportedLater.set(statement.expression.text, true)
  }
  const found = new Map<string, Set<string>>()
  const add = (name: ts.Node & { text: string }, exported: boolean, isDefault: boolean) => {
    if (!exported && !exportedLater.has(name.text)) return
    const { line, character } = source.getLineAndCharacterOfPosition(name.getStart(source))
    const positions = found.get(name.text) ?? new Set<string>()
    positions.add(`${line}:${character}${isDefault || exportedLater.get(name.text) === true ? ' default' : ''}`)
    found.set(name.text, positions)
  }
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : []
    const exported = modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
    const isDefault = modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword)
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) add(declaration.name, exported, false)
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isModuleDeclaration(statement)) &&
      statement.name !== undefined &&
      ts.isIdentifier(statement.name)
    ) {
      add(statement.name, exported, isDefault)
    }
  }
  return found
}

/** An exported symbol, and whether it is a default export (importers may give it another name). */
interface Candidate {
  readonly symbol: SymbolTarget
  readonly isDefault: boolean
}

/** Every exported symbol of the workspace, from the oracle's document symbols, in a stable order. */
export function exportedSymbols(oracle: OracleServer): SymbolTarget[] {
  return candidatesOf(oracle).map((candidate) => candidate.symbol)
}

function candidatesOf(oracle: OracleServer): Candidate[] {
  const symbols: Candidate[] = []
  for (const file of oracle.files) {
    const path = nodePath.relative(oracle.root, file).split(nodePath.sep).join('/')
    const outline = oracle.documentSymbols(file)
    const exported = oracle.language === 'typescript' ? exportedDeclarations(file, readFileSync(file, 'utf8')) : undefined
    const taken = new Set<string>()
    for (const symbol of outline) {
      const { line, character } = symbol.selectionRange.start
      let isDefault = false
      if (exported !== undefined) {
        // The outline's name position must be one of the exported declarations' name positions.
        const positions = exported.get(symbol.name)
        isDefault = positions?.has(`${line}:${character} default`) ?? false
        if (!(isDefault || (positions?.has(`${line}:${character}`) ?? false))) continue
      } else if ((symbol.kind !== SymbolKind.Class && symbol.kind !== SymbolKind.Function) || symbol.name.startsWith('_')) {
        continue
      }
      // Overloads and redeclarations: the first declaration stands for the symbol.
      if (taken.has(symbol.name)) continue
      taken.add(symbol.name)
      symbols.push({ symbol: { path, name: symbol.name, kind: kindName(symbol.kind), line, character }, isDefault })
    }
  }
  return symbols
}

function kindName(kind: SymbolKind): string {
  return (Object.entries(SymbolKind).find(([, value]) => value === kind)?.[0] ?? String(kind)).toLowerCase()
}

/**
 * How often each identifier occurs in the workspace's source files, and the projects of the files it occurs
 * in: an upper bound for a symbol's reference count and for the projects its references span.
 */
function identifierOccurrences(
  oracle: OracleServer,
  model: ProjectModel,
): { counts: Map<string, number>; projects: Map<string, Set<string>> } {
  const counts = new Map<string, number>()
  const projects = new Map<string, Set<string>>()
  for (const file of oracle.files) {
    const owners = model.projectsOf(nodePath.relative(oracle.root, file).split(nodePath.sep).join('/'))
    for (const match of readFileSync(file, 'utf8').matchAll(/[\p{L}\p{N}_$]+/gu)) {
      const name = match[0]
      counts.set(name, (counts.get(name) ?? 0) + 1)
      let where = projects.get(name)
      if (where === undefined) projects.set(name, (where = new Set()))
      for (const owner of owners) where.add(owner)
    }
  }
  return { counts, projects }
}

export function symbolId(symbol: SymbolTarget): string {
  return `${symbol.path}:${symbol.line}:${symbol.character} ${symbol.name}`
}

/**
 * Picks `top` exported symbols with the most oracle references spanning two or more projects, then
 * `seeded` more from the remaining exported symbols with a seeded PRNG. Fewer when the workspace has fewer.
 *
 * Ranking asks the oracle for references in decreasing order of each name's textual occurrence count (an
 * upper bound of its reference count: every reference is an occurrence of the name in a source file — an
 * aliased import still names it, `{ a as b }`) and stops once that bound falls below the `top`-th count
 * found; a name whose occurrences all lie in one project is not asked about. The result is the one asking
 * about every candidate would give, at a fraction of the cost. Default exports, whose importers may use any
 * name, are always asked about, first.
 */
export async function selectSymbols(
  oracle: OracleServer,
  model: ProjectModel,
  options: { top?: number; seeded?: number; seed?: number } = {},
): Promise<Selection> {
  const top = options.top ?? 20
  const seeded = options.seeded ?? 20
  const seed = options.seed ?? defaultSeed
  const found = candidatesOf(oracle)
  const candidates = found.map((candidate) => candidate.symbol)
  const occurrences = identifierOccurrences(oracle, model)
  const bound = ({ symbol, isDefault }: Candidate) => (isDefault ? Number.POSITIVE_INFINITY : (occurrences.counts.get(symbol.name) ?? 0))
  const spansProjects = ({ symbol, isDefault }: Candidate) => isDefault || (occurrences.projects.get(symbol.name)?.size ?? 0) >= 2
  const order = found
    .map((candidate, index) => ({ candidate, index }))
    .filter(({ candidate }) => spansProjects(candidate))
    .sort((a, b) => (bound(a.candidate) === bound(b.candidate) ? 0 : bound(b.candidate) > bound(a.candidate) ? 1 : -1) || a.index - b.index)
  const best: Array<{ symbol: SymbolTarget; index: number; references: number; projects: string[] }> = []
  let ranked = 0
  for (const { candidate, index } of order) {
    const { symbol } = candidate
    const floor = best.length >= top ? (best[top - 1]?.references ?? 0) : -1
    if (bound(candidate) < floor) break
    ranked++
    const references = (await oracle.ask('references', symbol)).filter((key) => !key.startsWith('!'))
    const projects = unique(references.flatMap((key) => model.projectsOf(fileOfKey(key))))
    if (projects.length < 2) continue
    best.push({ symbol, index, references: references.length, projects })
    best.sort((a, b) => b.references - a.references || a.index - b.index)
    best.splice(top)
  }
  const chosen = new Set(best.map((entry) => symbolId(entry.symbol)))
  const pool = candidates.filter((symbol) => !chosen.has(symbolId(symbol)))
  const random = seededRandom(seed)
  const picks: SymbolTarget[] = []
  for (let i = 0; i < Math.min(seeded, pool.length); i++) {
    const j = i + Math.floor(random() * (pool.length - i))
    const swap = pool[i] as SymbolTarget
    pool[i] = pool[j] as SymbolTarget
    pool[j] = swap
    picks.push(pool[i] as SymbolTarget)
  }
  return {
    seed,
    candidates: candidates.length,
    ranked,
    symbols: [
      ...best.map((entry) => ({ ...entry.symbol, reason: 'top' as const, references: entry.references, projects: entry.projects })),
      ...picks.map((symbol) => ({ ...symbol, reason: 'seeded' as const })),
    ],
  }
}
