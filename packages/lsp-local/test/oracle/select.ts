// Symbol selection (issue 13): from the oracle's document symbols of every file, the exported symbols with
// the most references in the oracle whose references span two or more projects, plus more picked with a
// fixed seed. TypeScript: `export`ed top-level declarations (found with the compiler API's parser, matched
// to the document symbols by position); Python: top-level classes and functions not starting with `_`; Go and
// Rust: the declared names of each outline's top two levels (toolchainCandidates).
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import ts from 'typescript'
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver-protocol/node'

import { fileOfKey, unique } from './keys.js'
import { isToolchainLanguage, type OracleServer, type SymbolTarget } from './oracle.js'
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
  /** `top`: among the most referenced across projects; `seeded`: picked with the seed; `fixed`: named by the caller. */
  readonly reason: 'top' | 'seeded' | 'fixed'
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

/** Go and Rust: what a symbol to ask about may be (no locals, parameters, impl blocks or type parameters). */
const toolchainKinds: ReadonlySet<SymbolKind> = new Set<SymbolKind>([
  SymbolKind.Module,
  SymbolKind.Class,
  SymbolKind.Method,
  SymbolKind.Field,
  SymbolKind.Enum,
  SymbolKind.Interface,
  SymbolKind.Function,
  SymbolKind.Variable,
  SymbolKind.Constant,
  SymbolKind.EnumMember,
  SymbolKind.Struct,
  SymbolKind.TypeParameter,
])

/** A Go or Rust identifier (a raw Rust one too). */
const toolchainIdentifier = /^(?:r#)?[\p{L}_][\p{L}\p{N}_]*$/u

/**
 * Go and Rust: every declared name a file's outline holds at the top level and one level down (a struct's
 * fields, a trait's or an impl block's methods, an enum's variants; gopls lists methods at the top level as
 * `(*T).M`), named by the identifier under its selection range (so `(*Router).Match` is asked about as
 * `Match`); one per position; names starting with `_` left out, and `TypeParameter` only at the top level
 * (rust-analyzer lists type aliases so).
 */
function toolchainCandidates(oracle: OracleServer): Candidate[] {
  const symbols: Candidate[] = []
  for (const file of oracle.files) {
    const path = nodePath.relative(oracle.root, file).split(nodePath.sep).join('/')
    const lines = readFileSync(file, 'utf8').split('\n')
    const taken = new Set<string>()
    const consider = (symbol: DocumentSymbol, depth: number) => {
      const { start, end } = symbol.selectionRange
      const name = start.line === end.line ? (lines[start.line] ?? '').slice(start.character, end.character) : ''
      const position = `${start.line}:${start.character}`
      const allowed = toolchainKinds.has(symbol.kind) && !(depth > 0 && symbol.kind === SymbolKind.TypeParameter)
      if (allowed && toolchainIdentifier.test(name) && !name.startsWith('_') && !taken.has(position)) {
        taken.add(position)
        symbols.push({
          symbol: { path, name, kind: kindName(symbol.kind), line: start.line, character: start.character },
          isDefault: false,
        })
      }
      if (depth === 0) for (const child of symbol.children ?? []) consider(child, depth + 1)
    }
    for (const symbol of oracle.documentSymbols(file)) consider(symbol, 0)
  }
  return symbols
}

function candidatesOf(oracle: OracleServer): Candidate[] {
  if (isToolchainLanguage(oracle.language)) return toolchainCandidates(oracle)
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
  options: { top?: number; seeded?: number; seed?: number; maxRanked?: number; fillTo?: number } = {},
): Promise<Selection> {
  const top = options.top ?? 20
  // A bound on the reference queries ranking may ask (rust-analyzer's common method names — `new`, `len` —
  // occur hundreds of times each): the top picks are then the best of those asked, in the same order.
  const maxRanked = options.maxRanked ?? Number.POSITIVE_INFINITY
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
    if (bound(candidate) < floor || ranked >= maxRanked) break
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
  // `fillTo`: seeded picks make up for top ones the workspace has too few of (a one-package Go module has none).
  const seededCount = Math.max(seeded, (options.fillTo ?? 0) - best.length)
  for (let i = 0; i < Math.min(seededCount, pool.length); i++) {
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
