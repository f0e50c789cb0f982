import type { WorkspacePath } from './containment.js'
import { linesFor, type TextLines } from './coordinates.js'
import { LspError } from './errors.js'
import { displayPath } from './paths.js'
import { locateAndRead, type ResolvedFile } from './locate.js'
import type { LspDocumentSnapshot } from './provider.js'
import type { LspService } from './service.js'
import { annotateActiveSpan, fileAttributes, inSpan, nameAttributes, TelemetryAttr, TelemetrySpan } from './telemetry.js'

export { resolveFile, type ResolvedFile } from './locate.js'
import type { LspDocumentSymbol, LspPosition, LspRange, LspSymbolKind } from './vocabulary.js'

/**
 * What a model names instead of a position: a file, and a symbol (dotted `Container.member`, optionally a
 * kind) or a 1-based line with matchText or column.
 */
export interface LspTarget {
  readonly path: string
  /** Picks the workspace when a relative path exists in several open roots. */
  readonly rootId?: string
  readonly symbol?: string
  readonly kind?: LspSymbolKind
  /** 1-based line. With `symbol`, it narrows to the symbol whose range contains the line. */
  readonly line?: number
  /** 1-based UTF-16 column. */
  readonly column?: number
  /** Text on `line` to land on (its first occurrence). */
  readonly matchText?: string
}

/** A document symbol with its container chain, as target resolution sees it. */
export interface LspFlatSymbol {
  readonly name: string
  /** Names from the outermost container down to this symbol, joined with dots. */
  readonly qualifiedName: string
  readonly container?: string
  readonly kind: LspSymbolKind
  readonly range: LspRange
  readonly selectionRange: LspRange
  readonly detail?: string
}

/** An exact position and how it was found. */
export interface ResolvedTarget {
  readonly root: string
  readonly rootId: string
  /** Absolute path. */
  readonly path: string
  /** Workspace-relative path with forward slashes. */
  readonly displayPath: string
  /**
   * The file as the seam resolved it, once for the whole call (pass `document` along to queries so they do
   * not resolve or read it again). Always set by {@link resolveTarget}; optional for hand-made targets.
   */
  readonly file?: WorkspacePath
  readonly position: LspPosition
  readonly document: LspDocumentSnapshot
  readonly lines: TextLines
  readonly symbol?: LspFlatSymbol
  readonly resolvedBy: 'symbol' | 'matchText' | 'column' | 'line'
}

/** Options for {@link resolveTarget}. */
export interface ResolveTargetOptions {
  /** Take the first of several matches instead of failing with AMBIGUOUS. Reads only; mutations never. */
  readonly firstMatch?: boolean
  readonly signal?: AbortSignal
  /** Called once the file is located (contained, not read yet): throw to refuse it (a root a tool may not use). */
  readonly accept?: (file: ResolvedFile) => void
}

/**
 * Go methods in gopls' own labels: `(*Router).Match`, `(Router).Match`, `(*List[T]).Push` — receiver type and method.
 * The local host's outline names them already (`Match` in `Router`, RFC 0024); an outline passed through unnamed (an
 * editor's) still has them, and a target may still be spelled so.
 */
const receiverMethod = /^\(\*?([\p{L}_][\p{L}\p{N}_]*)(?:\[[^\]]*\])?\)\.(.+)$/u
/** Rust impl blocks in rust-analyzer outlines: `impl Shape for Circle`, `impl<T> Buf for Take<T>`, `impl Circle`. */
const implBlock = /^impl\b(?:\s*<.*?>)?\s+(?:.*?\s+for\s+)?(?:[\p{L}\p{N}_]+::)*([\p{L}_][\p{L}\p{N}_]*)/u

/**
 * A symbol's qualified name as people write it, and the container its children are qualified with: a Go method
 * is its receiver type and name (`Router.Match` for `(*Router).Match`); a Rust impl block keeps its own name, but
 * its methods are the implemented type's (`Circle.area` under `impl Shape for Circle`).
 */
function qualify(
  name: string,
  container: string | undefined,
  named?: string,
): { readonly qualifiedName: string; readonly container?: string; readonly children: string } {
  const join = (part: string) => (container === undefined ? part : `${container}.${part}`)
  if (named !== undefined) {
    // A container the outline names without nesting (a Go method's receiver type).
    const receiver = join(named)
    return { qualifiedName: `${receiver}.${name}`, container: receiver, children: `${receiver}.${name}` }
  }
  const method = receiverMethod.exec(name)
  if (method !== null) {
    const receiver = join(method[1] ?? '')
    return { qualifiedName: `${receiver}.${method[2]}`, container: receiver, children: `${receiver}.${method[2]}` }
  }
  const impl = implBlock.exec(name)
  const own = join(name)
  return { qualifiedName: own, ...(container === undefined ? {} : { container }), children: impl?.[1] === undefined ? own : join(impl[1]) }
}

/** Flattens a document outline into symbols with qualified names, in document order. */
export function flattenSymbols(symbols: ReadonlyArray<LspDocumentSymbol>, container?: string): LspFlatSymbol[] {
  const out: LspFlatSymbol[] = []
  for (const symbol of symbols) {
    const qualified = qualify(symbol.name, container, symbol.containerName)
    out.push({
      name: symbol.name,
      qualifiedName: qualified.qualifiedName,
      ...(qualified.container === undefined ? {} : { container: qualified.container }),
      kind: symbol.kind,
      range: symbol.range,
      selectionRange: symbol.selectionRange,
      ...(symbol.detail === undefined ? {} : { detail: symbol.detail }),
    })
    out.push(...flattenSymbols(symbol.children, qualified.children))
  }
  return out
}

const symbolCache = new WeakMap<LspService, Map<string, ReadonlyArray<LspFlatSymbol>>>()
const symbolCacheSize = 256

/** Document symbols of a file, flattened; cached per (path, content hash). */
export async function documentSymbolsFor(
  lsp: LspService,
  root: string,
  document: LspDocumentSnapshot,
  signal?: AbortSignal,
): Promise<ReadonlyArray<LspFlatSymbol>> {
  let cache = symbolCache.get(lsp)
  if (cache === undefined) {
    cache = new Map()
    symbolCache.set(lsp, cache)
  }
  const key = `${document.path}\0${document.hash}`
  const hit = cache.get(key)
  if (hit !== undefined) {
    cache.delete(key)
    cache.set(key, hit)
    return hit
  }
  // The snapshot goes along: when the seam read it in this call, the provider need not read the file again.
  const result = await lsp.query({ operation: 'documentSymbols', root, path: document.path, document }, signal)
  const flat = flattenSymbols(result.symbols)
  // An outline from a server still indexing may be incomplete: use it, but ask again next time.
  if (result.meta.status === 'indexing') return flat
  cache.set(key, flat)
  if (cache.size > symbolCacheSize) cache.delete(cache.keys().next().value as string)
  return flat
}

/** A target spelled as gopls labels a method (`(*Router).Match`) is the method people write `Router.Match`. */
function asWritten(wanted: string): string {
  const method = receiverMethod.exec(wanted)
  return method === null ? wanted : `${method[1]}.${method[2]}`
}

function matchesSymbol(symbol: LspFlatSymbol, wanted: string): boolean {
  return symbol.qualifiedName === wanted || symbol.qualifiedName.endsWith(`.${wanted}`) || symbol.name === wanted
}

/**
 * For `Container.member` when the container is in this file but the member is not: where a member of that name is
 * declared in the workspace (a base class in another file), from a workspace symbol search; none when the search
 * cannot be asked or finds nothing.
 */
async function inheritedFrom(
  lsp: LspService,
  root: string,
  symbols: ReadonlyArray<{ readonly qualifiedName: string }>,
  wanted: string,
  signal: AbortSignal | undefined,
): Promise<Array<{ label: string; path: string; line: number }>> {
  const dot = wanted.lastIndexOf('.')
  if (dot <= 0) return []
  const container = wanted.slice(0, dot)
  const member = wanted.slice(dot + 1)
  if (!symbols.some((s) => s.qualifiedName === container || s.qualifiedName.endsWith(`.${container}`))) return []
  try {
    const found = await lsp.query({ operation: 'workspaceSymbols', root, query: member }, signal)
    return found.symbols
      .filter((s) => s.name === member && s.containerName !== undefined && s.containerName !== container)
      .slice(0, 5)
      .map((s) => {
        const shown = displayPath(root, s.location.path)
        const line = s.location.range.start.line + 1
        return { label: `${s.containerName}.${member} (${s.kind}) ${shown}:${line}`, path: shown, line }
      })
  } catch {
    return []
  }
}

/** Names closest to `wanted`, for NOT_FOUND messages. */
function nearestNames(symbols: ReadonlyArray<LspFlatSymbol>, wanted: string, count = 5): string[] {
  const last = wanted.split('.').pop()?.toLowerCase() ?? wanted.toLowerCase()
  const scored = symbols.map((s) => ({
    name: s.qualifiedName,
    score: editDistance(s.name.toLowerCase(), last) - (s.name.toLowerCase().includes(last) ? 3 : 0),
  }))
  scored.sort((a, b) => a.score - b.score)
  return [...new Set(scored.map((s) => s.name))].slice(0, count)
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length]!
}

/**
 * Turns a target into an exact position: symbol via document symbols, else line + matchText, else
 * line + column, else line (its first non-blank character).
 */
export function resolveTarget(lsp: LspService, target: LspTarget, options: ResolveTargetOptions = {}): Promise<ResolvedTarget> {
  const kind =
    target === null || typeof target !== 'object'
      ? 'invalid'
      : target.symbol !== undefined
        ? 'symbol'
        : target.line !== undefined
          ? 'position'
          : 'file'
  return inSpan(TelemetrySpan.target, { [TelemetryAttr.targetKind]: kind }, async (span) => {
    const resolved = await resolveTargetNow(lsp, target, options)
    if (span.isRecording()) {
      span.setAttributes({
        [TelemetryAttr.resolvedBy]: resolved.resolvedBy,
        ...fileAttributes(resolved.path, resolved.root),
        ...nameAttributes(resolved.symbol?.qualifiedName),
      })
    }
    return resolved
  })
}

async function resolveTargetNow(lsp: LspService, target: LspTarget, options: ResolveTargetOptions): Promise<ResolvedTarget> {
  if (target === null || typeof target !== 'object') throw new LspError('INVALID_ARGUMENT', 'target must be an object with a path')
  const { file, resolved, document } = await locateAndRead(lsp, target, options)
  const { workspace } = file
  const lines = linesFor(document)
  const base = {
    root: workspace.root,
    rootId: workspace.id,
    path: file.path,
    displayPath: file.displayPath,
    file: resolved,
    document,
    lines,
  }

  if (target.line !== undefined && (!Number.isInteger(target.line) || target.line < 1 || target.line > lines.lineCount)) {
    throw new LspError('INVALID_ARGUMENT', `line ${target.line} does not exist: ${file.displayPath} has ${lines.lineCount} lines`)
  }

  if (target.symbol !== undefined) {
    const wanted = asWritten(target.symbol.trim())
    if (wanted.length === 0) throw new LspError('INVALID_ARGUMENT', 'symbol is empty: give a name such as "Router.match"')
    const symbols = await documentSymbolsFor(lsp, workspace.root, document, options.signal)
    let matches = symbols.filter((s) => matchesSymbol(s, wanted) && (target.kind === undefined || s.kind === target.kind))
    if (target.line !== undefined && matches.length > 1) {
      const line = target.line - 1
      const onLine = matches.filter((s) => s.range.start.line <= line && line <= s.range.end.line)
      if (onLine.length > 0) matches = onLine
    }
    // An exact qualified match beats a suffix match.
    const exact = matches.filter((s) => s.qualifiedName === wanted)
    if (exact.length === 1) matches = exact
    if (matches.length === 0) {
      const nearest = nearestNames(symbols, wanted)
      const elsewhere = await inheritedFrom(lsp, workspace.root, symbols, wanted, options.signal)
      throw new LspError(
        'NOT_FOUND',
        `no symbol "${wanted}"${target.kind ? ` of kind ${target.kind}` : ''} in ${file.displayPath}${
          elsewhere.length > 0
            ? `: its container is here, but "${wanted.slice(wanted.lastIndexOf('.') + 1)}" is declared elsewhere (inherited?): ${elsewhere.map((c) => c.label).join(', ')}; aim at that declaration`
            : nearest.length
              ? `; nearest: ${nearest.join(', ')}`
              : ''
        }`,
        { data: { nearest, ...(elsewhere.length > 0 ? { candidates: elsewhere } : {}) } },
      )
    }
    annotateActiveSpan(() => ({ [TelemetryAttr.candidates]: matches.length }))
    if (matches.length > 1 && options.firstMatch !== true) {
      throw new LspError(
        'AMBIGUOUS',
        `"${wanted}" matches ${matches.length} symbols in ${file.displayPath}: add kind, a dotted container name, or line`,
        {
          data: {
            candidates: matches.map((s) => ({
              label: `${s.qualifiedName} (${s.kind}) ${file.displayPath}:${s.selectionRange.start.line + 1}`,
              qualifiedName: s.qualifiedName,
              kind: s.kind,
              path: file.displayPath,
              line: s.range.start.line + 1,
              endLine: s.range.end.line + 1,
              ...(s.container === undefined ? {} : { container: s.container }),
            })),
          },
        },
      )
    }
    const symbol = matches[0]!
    return { ...base, position: symbol.selectionRange.start, symbol, resolvedBy: 'symbol' }
  }

  if (target.line === undefined) {
    const message = 'a target needs a symbol, or a line (with matchText or column)'
    // The caller's argument mistake (the CLI's usage error), said as the schema's issues are.
    throw new LspError('INVALID_ARGUMENT', message, { data: { issues: [{ path: 'target', message }] } })
  }
  const line = target.line - 1
  if (target.matchText !== undefined) {
    if (target.matchText.length === 0) throw new LspError('INVALID_ARGUMENT', 'matchText is empty')
    const text = lines.lineText(line)
    const from = target.column === undefined ? 0 : target.column - 1
    const index = text.indexOf(target.matchText, from)
    if (index < 0) {
      throw new LspError(
        'NOT_FOUND',
        `"${target.matchText}" is not on line ${target.line} of ${file.displayPath}; that line reads: ${JSON.stringify(text)}`,
        {
          data: { lineText: text },
        },
      )
    }
    return { ...base, position: { line, character: index }, resolvedBy: 'matchText' }
  }
  if (target.column !== undefined) {
    return { ...base, position: lines.fromModel({ line: target.line, column: target.column }), resolvedBy: 'column' }
  }
  return { ...base, position: lines.firstNonBlank(line), resolvedBy: 'line' }
}
