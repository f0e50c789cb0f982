import * as nodePath from 'node:path'

import { LspError, toLspError } from './errors.js'
import { isWithin } from './paths.js'
import { resultMeta, type LspService } from './service.js'
import type { LspDerivation, LspDocumentSymbol, LspOperation, LspPosition, LspRange, LspResultMeta, LspSymbolKind } from './vocabulary.js'

/**
 * The impact of a change to a symbol (RFC 0018): its dependents to a depth, derived from `references` and
 * `documentSymbols` only, so every provider that answers those (the local host, VS Code) gets it. Depth 1:
 * the symbols enclosing each reference; depth 2: the symbols enclosing the references of those; and so on.
 * A reference outside every symbol (module level, an import) makes its file a dependent and is not expanded.
 * Cycles end at known dependents; past `maxExpanded` symbols the walk stops expanding and says how many it left.
 */

/** What to ask. */
export interface LspImpactRequest {
  readonly root: string
  readonly path: string
  readonly position: LspPosition
  /** Levels (1–5, default 2). */
  readonly depth?: number
  /** At most this many symbols are expanded (their references asked), default 200. */
  readonly maxExpanded?: number
}

/** One dependent: a symbol (or a file, for module-level uses) that uses the target or another dependent. */
export interface LspImpactDependent {
  readonly path: string
  /** Absent for a module-level use. */
  readonly symbol?: { readonly name: string; readonly kind: LspSymbolKind; readonly range: LspRange; readonly selectionRange: LspRange }
  /** 1 = uses the target; 2 = uses a depth-1 dependent; … */
  readonly depth: number
  /** The uses found inside it (of the symbol one level up). */
  readonly uses: ReadonlyArray<LspRange>
  /** The package or module it belongs to: the nearest folder with a project manifest, relative to the root. */
  readonly module: string
  /** Whether its file is a test (test folders, `*.test.*`, `*_test.go`, `test_*.py`, …). */
  readonly test: boolean
}

/** The answer. */
export interface LspImpactResult {
  readonly dependents: ReadonlyArray<LspImpactDependent>
  readonly depth: number
  /** Symbols whose references were asked, and dependents found but not expanded because of `maxExpanded`. */
  readonly expanded: number
  readonly notExpanded: number
  /** References that fell in no file the outline could be read for (outline failed), counted. */
  readonly unplaced: number
  readonly derived: LspDerivation
  /** The first references answer's metadata (coverage, readiness). */
  readonly meta: LspResultMeta
  /** What failed on the way (a file's outline, a symbol's references), never silently dropped. */
  readonly failures: ReadonlyArray<string>
}

const manifests = ['package.json', 'pyproject.toml', 'setup.py', 'go.mod', 'Cargo.toml']

/** The test-file rule: a `test`, `tests`, `__tests__` or `testdata` folder, or a test file name of a known convention. */
export function isTestPath(relative: string): boolean {
  const parts = relative.split('/')
  const name = parts.at(-1) ?? ''
  if (parts.slice(0, -1).some((p) => ['test', 'tests', '__tests__', 'spec', 'testdata'].includes(p))) return true
  return /\.(test|spec)\.[^.]+$/.test(name) || name.endsWith('_test.go') || /^test_.*\.py$/.test(name) || name.endsWith('_test.py')
}

interface Flat {
  readonly name: string
  readonly kind: LspSymbolKind
  readonly range: LspRange
  readonly selectionRange: LspRange
  readonly size: number
}

function flatten(symbols: ReadonlyArray<LspDocumentSymbol>, out: Flat[] = []): Flat[] {
  for (const s of symbols) {
    out.push({ name: s.name, kind: s.kind, range: s.range, selectionRange: s.selectionRange, size: rangeSize(s.range) })
    flatten(s.children ?? [], out)
  }
  return out
}

function rangeSize(r: LspRange): number {
  return (r.end.line - r.start.line) * 1_000_000 + (r.end.character - r.start.character)
}

function before(a: LspPosition, b: LspPosition): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character)
}

function contains(outer: LspRange, inner: LspRange): boolean {
  return before(outer.start, inner.start) && before(inner.end, outer.end)
}

/** Walks the dependents of the symbol at `request.position`. */
export async function impactOf(lsp: LspService, request: LspImpactRequest, signal?: AbortSignal): Promise<LspImpactResult> {
  const depth = request.depth ?? 2
  if (!Number.isInteger(depth) || depth < 1 || depth > 5) throw new LspError('INVALID_ARGUMENT', `depth must be 1–5 (got ${String(depth)})`)
  const maxExpanded = request.maxExpanded ?? 200
  const workspace = lsp.workspace(request.root)
  if (workspace === undefined) throw new LspError('UNAVAILABLE', `no workspace is open at "${request.root}"`)
  const root = workspace.root
  const from: LspOperation[] = []
  const used = (op: LspOperation) => {
    if (!from.includes(op)) from.push(op)
  }
  const outlines = new Map<string, Promise<Flat[] | undefined>>()
  const failures: string[] = []
  const outline = (path: string): Promise<Flat[] | undefined> => {
    let known = outlines.get(path)
    if (known === undefined) {
      used('documentSymbols')
      known = lsp.query({ operation: 'documentSymbols', root, path }, signal).then(
        (answer) => flatten(answer.symbols),
        (cause: unknown) => {
          const error = toLspError(cause, 'SERVER_ERROR', 'documentSymbols')
          if (error.code === 'CANCELLED') throw error
          failures.push(`outline of ${nodePath.relative(root, path)}: ${error.code}`)
          return undefined
        },
      )
      outlines.set(path, known)
    }
    return known
  }
  const moduleCache = new Map<string, Promise<string>>()
  const moduleOf = (path: string): Promise<string> => {
    const dir = nodePath.dirname(path)
    let known = moduleCache.get(dir)
    if (known === undefined) {
      known = (async () => {
        for (let at = dir; isWithin(root, at); at = nodePath.dirname(at)) {
          for (const manifest of manifests)
            if (await workspace.exists(nodePath.join(at, manifest))) return nodePath.relative(root, at) || '.'
          if (at === root) break
        }
        return nodePath.relative(root, dir).split(nodePath.sep)[0] || '.'
      })()
      moduleCache.set(dir, known)
    }
    return known
  }

  // The target itself: the symbol whose name is at the position (so its own declaration is not a dependent).
  const targetOutline = await outline(nodePath.resolve(root, request.path))
  const targetPath = nodePath.resolve(root, request.path)
  const targetSymbol = targetOutline
    ?.filter((s) => contains(s.selectionRange, { start: request.position, end: request.position }))
    .sort((a, b) => a.size - b.size)[0]
  const keyOf = (path: string, s: Flat | undefined) =>
    s === undefined ? `${path}#file` : `${path}#${s.selectionRange.start.line}:${s.selectionRange.start.character}`
  const visited = new Set<string>([keyOf(targetPath, targetSymbol)])
  const dependents = new Map<string, { path: string; symbol?: Flat; depth: number; uses: LspRange[] }>()
  let frontier: Array<{ path: string; position: LspPosition; self?: Flat }> = [
    { path: targetPath, position: request.position, ...(targetSymbol === undefined ? {} : { self: targetSymbol }) },
  ]
  let expanded = 0
  let notExpanded = 0
  let unplaced = 0
  let firstMeta: LspResultMeta | undefined
  for (let level = 1; level <= depth && frontier.length > 0; level++) {
    const next: typeof frontier = []
    for (const item of frontier) {
      if (expanded >= maxExpanded) {
        notExpanded += 1
        continue
      }
      expanded += 1
      used('references')
      let locations
      try {
        const answer = await lsp.query({ operation: 'references', root, path: item.path, position: item.position }, signal)
        firstMeta ??= answer.meta
        locations = answer.locations
      } catch (cause) {
        const error = toLspError(cause, 'SERVER_ERROR', 'references')
        if (level === 1 || error.code === 'CANCELLED') throw error
        failures.push(`references of ${item.self?.name ?? nodePath.relative(root, item.path)}: ${error.code}`)
        continue
      }
      for (const location of locations) {
        if (item.self !== undefined && location.path === item.path && contains(item.self.selectionRange, location.range)) continue
        const symbols = await outline(location.path)
        if (symbols === undefined) {
          unplaced += 1
          continue
        }
        const enclosing = symbols.filter((s) => contains(s.range, location.range)).sort((a, b) => a.size - b.size)[0]
        // A use inside the symbol being expanded itself (recursion) is no dependent.
        if (enclosing !== undefined && item.self !== undefined && location.path === item.path && enclosing === item.self) continue
        const key = keyOf(location.path, enclosing)
        const known = dependents.get(key)
        if (known !== undefined) {
          if (known.depth === level) known.uses.push(location.range)
          continue
        }
        if (visited.has(key)) continue
        visited.add(key)
        dependents.set(key, {
          path: location.path,
          ...(enclosing === undefined ? {} : { symbol: enclosing }),
          depth: level,
          uses: [location.range],
        })
        if (enclosing !== undefined && level < depth)
          next.push({ path: location.path, position: enclosing.selectionRange.start, self: enclosing })
      }
    }
    frontier = next
  }
  const list: LspImpactDependent[] = []
  for (const d of dependents.values()) {
    const relative = nodePath.relative(root, d.path).split(nodePath.sep).join('/')
    list.push({
      path: d.path,
      ...(d.symbol === undefined
        ? {}
        : { symbol: { name: d.symbol.name, kind: d.symbol.kind, range: d.symbol.range, selectionRange: d.symbol.selectionRange } }),
      depth: d.depth,
      uses: d.uses,
      module: await moduleOf(d.path),
      test: isTestPath(relative),
    })
  }
  return {
    dependents: list,
    depth,
    expanded,
    notExpanded,
    unplaced,
    derived: { from },
    meta: firstMeta ?? resultMeta('seam'),
    failures,
  }
}
