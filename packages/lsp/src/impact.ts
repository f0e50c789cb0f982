/**
 * `impact`: the dependents of a symbol to a depth, derived from `references` and `documentSymbols` (RFC 0019).
 *
 * A seam-level derived function over {@link LspService}, not a member of the closed operation union: any
 * provider that answers references and document symbols (the local host, VS Code) gets it unchanged.
 */
import { existsSync } from 'node:fs'
import * as path from 'node:path'

import { compareText } from './compare-text.js'
import { comparePositions, rangeContains } from './coordinates.js'
import { manifestNames } from './languages/index.js'
import { isWithin, rootHolding } from './paths.js'
import type { LspService } from './service.js'
import type { LspDocumentSymbol, LspOperation, LspPosition, LspRange, LspResultMeta, LspSymbolKind } from './vocabulary.js'

/** Limits of a walk. */
export const impactLimits = { defaultDepth: 2, maxDepth: 5, defaultMaxSymbols: 200 } as const

export interface ImpactRequest {
  readonly root: string
  /** Absolute path of the target's file. */
  readonly path: string
  /** A position on the target's name. */
  readonly position: LspPosition
  /** Levels of dependents (1–5, default 2). */
  readonly depth?: number
  /** Symbols whose references are asked for, the target included (default 200); the rest are counted. */
  readonly maxSymbols?: number
}

/** A symbol that depends on the target (or on another dependent). */
export interface ImpactSymbol {
  /** `qualified.name@path:line` (path relative to the root, line 1-based). */
  readonly id: string
  readonly name: string
  readonly qualifiedName: string
  readonly kind: LspSymbolKind
  /** Absolute path. */
  readonly path: string
  readonly range: LspRange
  readonly selectionRange: LspRange
}

/** One dependent: a symbol (or a file, for a reference outside every symbol) and where it refers. */
export interface ImpactDependent {
  /** The enclosing symbol; absent for a file-level reference (imports, module code), which is not expanded. */
  readonly symbol?: ImpactSymbol
  /** Absolute path. */
  readonly path: string
  /** Levels away from the target (1 = direct). */
  readonly depth: number
  /** Ids of what it refers to (the target's id at depth 1). */
  readonly dependsOn: ReadonlyArray<string>
  /** Reference sites, in this file. */
  readonly sites: ReadonlyArray<LspRange>
  readonly test: boolean
  /** Package or module: the nearest folder with a manifest under the root, else the top-level folder, relative. */
  readonly module: string
}

export interface ImpactResult {
  readonly target: ImpactSymbol
  readonly depth: number
  /** Every dependent found, by depth then path then position. */
  readonly dependents: ReadonlyArray<ImpactDependent>
  /** Symbols whose references were asked, the target included. */
  readonly expanded: number
  /** Symbols found but not expanded because the symbol cap was reached (they are still listed as dependents). */
  readonly notExpanded: number
  /** References that fell on an already visited symbol (cycles and repeats), counted, not listed twice. */
  readonly revisits: number
  /** The target's references answer (readiness, coverage), with `derived.from` naming the operations used. */
  readonly meta: LspResultMeta
  /** The metadata of every answer the walk used, for a combined readiness. */
  readonly answers: ReadonlyArray<LspResultMeta>
}

/** Whether a workspace-relative path is a test: a test/tests/__tests__ segment or a test file name. */
export function isTestPath(relative: string): boolean {
  const parts = relative.split(/[\\/]/)
  const base = parts.at(-1) ?? ''
  if (parts.slice(0, -1).some((p) => p === 'test' || p === 'tests' || p === '__tests__')) return true
  return /\.(test|spec)\.[^.]+$/.test(base) || base.endsWith('_test.go') || /^test_.*\.py$/.test(base) || base.endsWith('_test.py')
}

/** The module of an absolute path: nearest folder (below the root) holding a manifest, else the top-level folder. */
export function moduleOf(root: string, file: string, hasManifest: (dir: string) => boolean = defaultHasManifest): string {
  let dir = path.dirname(file)
  while (dir.startsWith(root) && dir !== root) {
    if (hasManifest(dir)) return path.relative(root, dir).split(path.sep).join('/')
    const up = path.dirname(dir)
    if (up === dir) break
    dir = up
  }
  const relative = path.relative(root, file).split(path.sep)
  return relative.length > 1 ? relative[0]! : '.'
}

const manifestCache = new Map<string, boolean>()
function defaultHasManifest(dir: string): boolean {
  let known = manifestCache.get(dir)
  if (known === undefined) {
    known = manifestNames.some((m) => existsSync(path.join(dir, m)))
    if (manifestCache.size > 10_000) manifestCache.clear()
    manifestCache.set(dir, known)
  }
  return known
}

interface Flat {
  readonly name: string
  readonly qualifiedName: string
  readonly kind: LspSymbolKind
  readonly range: LspRange
  readonly selectionRange: LspRange
}

const callables: ReadonlySet<LspSymbolKind> = new Set(['function', 'method', 'constructor'])
const bindings: ReadonlySet<LspSymbolKind> = new Set(['variable', 'constant'])

/**
 * The outline, flattened with qualified names. The variables and constants of a function or method (its
 * locals) are left out: a reference in `const x = f()` inside `g` is a dependency of `g`, not of `x`.
 */
function flatten(symbols: ReadonlyArray<LspDocumentSymbol>, prefix = '', out: Flat[] = [], inCallable = false): Flat[] {
  for (const s of symbols) {
    if (inCallable && bindings.has(s.kind)) continue
    // A container the outline names without nesting (a Go method's receiver type) qualifies the name too.
    const own = s.containerName === undefined ? s.name : `${s.containerName}.${s.name}`
    const qualifiedName = prefix === '' ? own : `${prefix}.${own}`
    out.push({ name: s.name, qualifiedName, kind: s.kind, range: s.range, selectionRange: s.selectionRange })
    flatten(s.children, qualifiedName, out, inCallable || callables.has(s.kind))
  }
  return out
}

/** A reference on the name of a variable or constant that is not the walked symbol: an import or re-export binding. */
function isBinding(symbol: Flat, position: LspPosition): boolean {
  return bindings.has(symbol.kind) && rangeContains(symbol.selectionRange, position)
}

function size(range: LspRange): number {
  return (range.end.line - range.start.line) * 1_000_000 + (range.end.character - range.start.character)
}

/** The innermost symbol whose range contains `position`. */
export function enclosingSymbol(symbols: ReadonlyArray<Flat>, position: LspPosition): Flat | undefined {
  let best: Flat | undefined
  for (const s of symbols) {
    if (!rangeContains(s.range, position)) continue
    if (best === undefined || size(s.range) < size(best.range)) best = s
  }
  return best
}

function toSymbol(root: string, file: string, s: Flat): ImpactSymbol {
  const relative = path.relative(root, file).split(path.sep).join('/')
  return {
    id: `${s.qualifiedName}@${relative}:${s.selectionRange.start.line + 1}`,
    name: s.name,
    qualifiedName: s.qualifiedName,
    kind: s.kind,
    path: file,
    range: s.range,
    selectionRange: s.selectionRange,
  }
}

/**
 * The dependents of the symbol at `request.position`: each reference's enclosing symbol (depth 1), then the
 * references of those (depth 2), and so on. Visited symbols are not walked twice, so cycles end; past
 * `maxSymbols` expansions the remaining symbols are listed but not expanded, and counted in `notExpanded`.
 */
export async function impactOf(lsp: LspService, request: ImpactRequest, signal?: AbortSignal): Promise<ImpactResult> {
  const started = performance.now()
  const root = request.root
  const depth = Math.min(Math.max(request.depth ?? impactLimits.defaultDepth, 1), impactLimits.maxDepth)
  const maxSymbols = Math.max(request.maxSymbols ?? impactLimits.defaultMaxSymbols, 1)
  const from: LspOperation[] = []
  const asked = (operation: LspOperation): void => {
    if (!from.includes(operation)) from.push(operation)
  }
  const metas: LspResultMeta[] = []
  // A file of another root of the workspace (RFC 0025) is asked about in its own root.
  const otherRoot = (file: string) => (isWithin(root, file) ? undefined : rootHolding(lsp.workspaces(), file))
  const rootOf = (file: string): string => otherRoot(file)?.root ?? root
  // Its module is named in its own root, after that root's id.
  const moduleIn = (file: string): string => {
    const other = otherRoot(file)
    return other === undefined ? moduleOf(root, file) : `${other.id}:${moduleOf(other.root, file)}`
  }
  const outlines = new Map<string, Promise<Flat[]>>()
  const outline = (file: string): Promise<Flat[]> => {
    let known = outlines.get(file)
    if (known === undefined) {
      asked('documentSymbols')
      known = lsp.query({ operation: 'documentSymbols', root: rootOf(file), path: file }, signal).then((r) => {
        metas.push(r.meta)
        return flatten(r.symbols)
      })
      outlines.set(file, known)
    }
    return known
  }

  const targetOutline = await outline(request.path)
  const targetFlat =
    enclosingSymbol(
      targetOutline.filter((s) => rangeContains(s.selectionRange, request.position)),
      request.position,
    ) ?? enclosingSymbol(targetOutline, request.position)
  const target: ImpactSymbol =
    targetFlat === undefined
      ? {
          id: `@${path.relative(root, request.path)}:${request.position.line + 1}`,
          name: '',
          qualifiedName: '',
          kind: 'variable',
          path: request.path,
          range: { start: request.position, end: request.position },
          selectionRange: { start: request.position, end: request.position },
        }
      : toSymbol(root, request.path, targetFlat)

  const visited = new Set<string>([target.id])
  const byKey = new Map<string, { dependent: Omit<ImpactDependent, 'dependsOn' | 'sites'>; dependsOn: Set<string>; sites: LspRange[] }>()
  let expanded = 0
  let notExpanded = 0
  let revisits = 0
  let firstReferences: LspResultMeta | undefined
  let frontier: Array<{ symbol: ImpactSymbol; position: LspPosition }> = [{ symbol: target, position: request.position }]

  for (let level = 1; level <= depth && frontier.length > 0; level++) {
    const next: typeof frontier = []
    for (const entry of frontier) {
      if (expanded >= maxSymbols) {
        notExpanded++
        continue
      }
      expanded++
      asked('references')
      const refs = await lsp.query(
        { operation: 'references', root: rootOf(entry.symbol.path), path: entry.symbol.path, position: entry.position },
        signal,
      )
      metas.push(refs.meta)
      firstReferences ??= refs.meta
      for (const location of refs.locations) {
        const flats = await outline(location.path)
        const inner = enclosingSymbol(flats, location.range.start)
        // An import binding (`import { f }`, which an outline may list as a variable) is a file-level dependent.
        const enclosing =
          inner !== undefined && isBinding(inner, location.range.start) && location.path !== entry.symbol.path ? undefined : inner
        // The declaration itself (the reference on the symbol's own name) is not a dependent.
        if (
          enclosing !== undefined &&
          location.path === entry.symbol.path &&
          rangeContains(enclosing.selectionRange, location.range.start)
        ) {
          const own = toSymbol(root, location.path, enclosing)
          if (own.id === entry.symbol.id) continue
        }
        const symbol = enclosing === undefined ? undefined : toSymbol(root, location.path, enclosing)
        if (symbol !== undefined && symbol.id === entry.symbol.id) continue // recursion inside the symbol itself
        const key = symbol?.id ?? `file:${location.path}`
        const known = byKey.get(key)
        if (known !== undefined) {
          known.dependsOn.add(entry.symbol.id)
          if (known.dependent.depth === level) known.sites.push(location.range)
          else revisits++
          continue
        }
        if (symbol !== undefined && visited.has(symbol.id)) {
          revisits++
          continue
        }
        if (symbol !== undefined) visited.add(symbol.id)
        const relative = path.relative(root, location.path).split(path.sep).join('/')
        byKey.set(key, {
          dependent: {
            ...(symbol === undefined ? {} : { symbol }),
            path: location.path,
            depth: level,
            test: isTestPath(relative),
            module: moduleIn(location.path),
          },
          dependsOn: new Set([entry.symbol.id]),
          sites: [location.range],
        })
        if (symbol !== undefined && level < depth) next.push({ symbol, position: symbol.selectionRange.start })
      }
    }
    frontier = next
  }
  const dependents: ImpactDependent[] = [...byKey.values()]
    .map(({ dependent, dependsOn, sites }) => ({
      ...dependent,
      dependsOn: [...dependsOn],
      sites: sites.sort((a, b) => comparePositions(a.start, b.start)),
    }))
    .sort(
      (a, b) =>
        a.depth - b.depth ||
        compareText(a.path, b.path) ||
        comparePositions((a.symbol?.range ?? a.sites[0]!).start, (b.symbol?.range ?? b.sites[0]!).start),
    )

  const first = firstReferences ?? metas[0]!
  const meta: LspResultMeta = { ...first, derived: { from }, elapsedMs: Math.round(performance.now() - started) }
  return { target, depth, dependents, expanded, notExpanded, revisits, meta, answers: metas }
}
