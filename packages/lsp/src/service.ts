// Over 300 lines: the service is one closure over its registries, which registration and queries share.
import { setMaxListeners } from 'node:events'
import * as nodePath from 'node:path'

import type { Attributes } from '@opentelemetry/api'

import { LspError, toLspError } from './errors.js'
import { extensionOf, isWithin, normalizeExtension, normalizeRoot, resolveInRoot } from './paths.js'
import { firstLineIn, Routes } from './routing.js'
import { relativizeResult, textRelativizer, type TextRelativizer } from './relative-text.js'
import type {
  LspApplyEditOptions,
  LspApplyEditResult,
  LspDocumentSnapshot,
  LspProvider,
  LspProviderStatus,
  LspReadAlong,
  LspSpeculatedFile,
  LspSpeculationRequest,
  LspSpeculationResult,
  LspWorkspace,
  ProviderId,
} from './provider.js'
import { builtInLanguageFacts, validateIdentifier, type LspLanguageFacts } from './language-facts.js'
import { OperationRollup, type LspOperationRollup } from './rollup.js'
import { requestFile, withoutDocument } from './target-file.js'
import {
  activeQuerySpanOwner,
  errorCodeOf,
  fileAttributes,
  inSpan,
  rootAttributes,
  TelemetryAttr,
  TelemetrySpan,
  telemetryId,
  telemetryInstruments,
  type QuerySpanOwner,
} from './telemetry.js'

/** Where a query's result attributes go: its span, or the span of the caller that owns it. */
type AttributeSink = Pick<QuerySpanOwner, 'setAttributes'>
import {
  lspOperations,
  operationInfo,
  resultKindByOperation,
  type LspLocation,
  type LspOperation,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultFor,
  type LspResultMeta,
  type LspFilesSkipped,
  type LspLibraryLocation,
  type LspSearchCoverage,
  type LspWorkspaceEdit,
  type LspWorkspaceSymbol,
} from './vocabulary.js'

// The rewriting the service applies to every answer, for harness code that shows other text to a model.
export { relativizeResult, relativizeText, textRelativizer, type TextRelativizer } from './relative-text.js'

/** Releases a registration. Idempotent: later calls resolve at once. */
export type Disposer = () => Promise<void>

/** A registered provider as introspection shows it. */
export interface LspProviderInfo {
  readonly id: ProviderId
  readonly extensions: Readonly<Record<string, string>>
  /** Exact file names it serves (RFC 0020); `{}` when none. */
  readonly fileNames: Readonly<Record<string, string>>
  /** Interpreters of `#!` lines it serves (RFC 0020); `{}` when none. */
  readonly interpreters: Readonly<Record<string, string>>
  readonly operations: ReadonlyArray<LspOperation>
}

/** An open workspace root as introspection shows it. */
export interface LspWorkspaceInfo {
  readonly id: string
  readonly root: string
}

/**
 * `ctx.lsp`: the one service harness code talks to. A plain Promise + AbortSignal API; see `Lsp` for the
 * Effect service.
 */
export interface LspService {
  /** Reserves the provider's id and every extension atomically; throws LspError and publishes nothing on failure. */
  registerProvider(provider: LspProvider): Disposer
  /** Opens a workspace root with its file reader and edit applier. One workspace per root and per id. */
  registerWorkspace(workspace: LspWorkspace): Disposer
  /**
   * Runs one operation. Typed by operation: `references` resolves to the `locations` variant. The request's
   * file is resolved and contained once, here; `document`, a snapshot `resolveTarget` read in this call, is
   * passed to the provider so it need not read the file again.
   */
  query<R extends LspQueryRequest>(request: R & LspReadAlong, signal?: AbortSignal): Promise<LspResultFor<R['operation']>>
  /** Applies a whole edit through the applier of the workspace that owns `options.root`. */
  applyEdit(edit: LspWorkspaceEdit, options: LspApplyEditOptions & { readonly root: string }): Promise<LspApplyEditResult>
  /** Registered providers. */
  providers(): ReadonlyArray<LspProviderInfo>
  /** Open workspaces. */
  workspaces(): ReadonlyArray<LspWorkspaceInfo>
  /** The workspace for a root path or id, if open. */
  workspace(rootOrId: string): LspWorkspace | undefined
  /** The provider (and language id) that owns a file, if any. */
  providerFor(path: string): { readonly providerId: ProviderId; readonly languageId: string } | undefined
  /** Operations available for a file (empty when no provider owns it). */
  operationsFor(path: string): ReadonlyArray<LspOperation>
  /** The language facts for a language id: a provider's own first, else the seam's table (RFC 0018). */
  languageFacts(languageId: string): LspLanguageFacts | undefined
  /**
   * Diagnostics of files as an edit would leave them, computed in the servers' memory only, never on disk
   * (RFC 0018). One entry per requested path; a file whose provider cannot speculate is `unavailable`, with why.
   */
  speculate(request: LspSpeculationRequest, signal?: AbortSignal): Promise<LspSpeculationResult>
  /** Live status of every provider, per root. */
  status(): ReadonlyArray<LspProviderStatus>
  /** Subscribes to status changes of every provider; returns an unsubscribe function. */
  onStatusChange(listener: (status: LspProviderStatus) => void): () => void
  /** Per operation since the service started: calls, failures by code, p50/p95 latency (what `code_status` shows). */
  rollup(): ReadonlyArray<LspOperationRollup>
  /** Releases every registration; afterwards every call fails with DISPOSED. */
  dispose(): Promise<void>
}

/** Harness context types include this to say they carry `ctx.lsp`. */
export interface LspCapability {
  readonly lsp: LspService
}

/** Validates and brands a provider id. */
export function providerId(id: string): ProviderId {
  if (typeof id !== 'string' || id.length === 0 || id.trim() !== id || /\s/.test(id)) {
    throw new LspError('INVALID_PROVIDER', `provider id ${JSON.stringify(id)} must be a non-empty string without whitespace`)
  }
  return id as ProviderId
}

interface Registration {
  readonly info: LspProviderInfo
  readonly provider: LspProvider
  readonly unsubscribe: () => void
}

const operationSet: ReadonlySet<string> = new Set(lspOperations)

function validateProvider(provider: LspProvider): LspProviderInfo {
  if (provider === null || typeof provider !== 'object') {
    throw new LspError('INVALID_PROVIDER', 'a provider must be an object with id, extensions, operations and query')
  }
  const id = providerId(provider.id)
  if (typeof provider.query !== 'function') throw new LspError('INVALID_PROVIDER', `provider "${id}" has no query function`)
  const entries = provider.extensions !== null && typeof provider.extensions === 'object' ? Object.entries(provider.extensions) : []
  const fileNames = claimsOf(id, provider.fileNames, 'file name', /^[^/\\\0]+$/, '"Dockerfile" or ".bashrc"')
  const interpreters = claimsOf(id, provider.interpreters, 'interpreter', /^[A-Za-z0-9_.+-]+$/, '"bash" or "python3"')
  if (entries.length === 0 && Object.keys(fileNames).length === 0 && Object.keys(interpreters).length === 0) {
    throw new LspError('INVALID_PROVIDER', `provider "${id}" claims no extensions, file names or interpreters`)
  }
  const extensions: Record<string, string> = {}
  for (const [key, languageId] of entries) {
    const normalized = normalizeExtension(key)
    if (normalized === undefined) {
      throw new LspError('INVALID_PROVIDER', `provider "${id}": "${key}" is not a file extension (expected e.g. ".ts")`)
    }
    if (typeof languageId !== 'string' || languageId.trim().length === 0) {
      throw new LspError('INVALID_PROVIDER', `provider "${id}": extension "${key}" has an empty language id`)
    }
    if (normalized in extensions) {
      throw new LspError('INVALID_PROVIDER', `provider "${id}": two keys normalize to the extension "${normalized}"`)
    }
    extensions[normalized] = languageId
  }
  if (!Array.isArray(provider.operations) || provider.operations.length === 0) {
    throw new LspError('INVALID_PROVIDER', `provider "${id}" declares no operations`)
  }
  for (const operation of provider.operations) {
    if (!operationSet.has(operation)) {
      throw new LspError('INVALID_PROVIDER', `provider "${id}" declares unknown operation "${String(operation)}"`)
    }
  }
  return { id, extensions, fileNames, interpreters, operations: [...new Set(provider.operations)] }
}

/** A provider's optional file-name or interpreter claims, validated: key → non-empty language id. */
function claimsOf(id: string, given: unknown, what: string, shape: RegExp, example: string): Record<string, string> {
  if (given === undefined) return {}
  if (given === null || typeof given !== 'object') throw new LspError('INVALID_PROVIDER', `provider "${id}": ${what}s must be an object`)
  const claims: Record<string, string> = {}
  for (const [key, languageId] of Object.entries(given)) {
    if (!shape.test(key) || key === '.' || key === '..') {
      throw new LspError(
        'INVALID_PROVIDER',
        `provider "${id}": "${key}" is not ${what === 'interpreter' ? 'an' : 'a'} ${what} (expected e.g. ${example})`,
      )
    }
    if (typeof languageId !== 'string' || languageId.trim().length === 0) {
      throw new LspError('INVALID_PROVIDER', `provider "${id}": ${what} "${key}" has an empty language id`)
    }
    claims[key] = languageId
  }
  return claims
}

function isNonNegativeInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

function validatePosition(request: LspQueryRequest): void {
  if (!('position' in request)) return
  const position: unknown = request.position
  if (
    position === null ||
    typeof position !== 'object' ||
    !isNonNegativeInteger((position as { line?: unknown }).line) ||
    !isNonNegativeInteger((position as { character?: unknown }).character)
  ) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `position ${JSON.stringify(position)} is invalid: line and character must be zero-based non-negative integers`,
    )
  }
}

/** Whether a string is well-formed UTF-16: no surrogate without its pair (text no UTF-8 encoder can carry). */
const wellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed()

/**
 * What {@link illFormedText} does not walk: the caller's read-along snapshot (its text is a whole file, decoded
 * from UTF-8 by the seam, so well-formed; scanning it on every query would cost milliseconds on a large file)
 * and the seam's own resolved file.
 */
const notCallerText: ReadonlySet<string> = new Set(['document', 'file'])

/** Where, in a request, the first string with a lone surrogate is (`newName`, `only[0]`), if any. */
function illFormedText(value: unknown, where: string, depth = 0): string | undefined {
  if (typeof value === 'string') return wellFormed(value) ? undefined : where
  if (value === null || typeof value !== 'object' || depth > 8) return undefined
  for (const [key, child] of Object.entries(value)) {
    if (depth === 0 && notCallerText.has(key)) continue
    const found = illFormedText(child, Array.isArray(value) ? `${where}[${key}]` : where === '' ? key : `${where}.${key}`, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Refuses a request with a string that is not well-formed Unicode (a lone surrogate, e.g. a rename's
 * `newName: "\ud800"`): no JSON-RPC peer can decode it, and the native TypeScript server, for one, drops
 * the whole message and never answers, so the call would hang until its deadline.
 */
function validateText(request: LspQueryRequest): void {
  const where = illFormedText(request, '')
  if (where !== undefined) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `${where} is not well-formed Unicode: it has a lone surrogate (a UTF-16 code unit U+D800–U+DFFF without its pair); send text a language server can read`,
    )
  }
}

/** Result metadata with defaults (ready, warm, not truncated); the service fills in provider id and time. */
export function resultMeta(providerId: string, overrides: Partial<LspResultMeta> = {}): LspResultMeta {
  return { providerId, status: 'ready', warm: true, truncated: false, elapsedMs: 0, ...overrides }
}

/** Files over a per-file limit, summed by limit (the ceiling is the host's, the same in every part). */
function mergeSkipped(parts: ReadonlyArray<{ readonly filesSkipped?: ReadonlyArray<LspFilesSkipped> }>): {
  filesSkipped?: ReadonlyArray<LspFilesSkipped>
} {
  const skipped = new Map<LspFilesSkipped['limit'], LspFilesSkipped>()
  for (const entry of parts.flatMap((c) => c.filesSkipped ?? [])) {
    skipped.set(entry.limit, { ...entry, count: (skipped.get(entry.limit)?.count ?? 0) + entry.count })
  }
  return skipped.size === 0 ? {} : { filesSkipped: [...skipped.values()] }
}

/** The search coverage of a fan-out: the sum of its parts (absent when no part reports one). */
function mergeCoverage(results: ReadonlyArray<LspQueryResult>): { coverage?: LspSearchCoverage } {
  const parts = results.flatMap((r) => (r.meta.coverage === undefined ? [] : [r.meta.coverage]))
  if (parts.length === 0) return {}
  const notOpened = parts.reduce((sum, c) => sum + (c.filesNotSearched ?? 0), 0)
  const roots = parts.flatMap((c) => c.rootsNotSearched ?? [])
  return {
    coverage: {
      projectsSearched: parts.reduce((sum, c) => sum + c.projectsSearched, 0),
      projectsFound: parts.reduce((sum, c) => sum + c.projectsFound, 0),
      ...(notOpened > 0 ? { filesNotSearched: notOpened } : {}),
      ...(roots.length > 0 ? { rootsNotSearched: roots } : {}),
      ...mergeSkipped(parts),
      complete: parts.every((c) => c.complete),
    },
  }
}

/**
 * What each answer of a fan-out says it left out of the workspace: the dropped count summed, the library
 * locations it named kept (each once), so a merged answer never hides what one provider dropped.
 */
function mergeDropped(
  results: ReadonlyArray<LspQueryResult>,
): Pick<LspResultMeta, 'droppedOutsideWorkspace' | 'libraryLocations' | 'disk'> {
  const dropped = results.reduce((sum, r) => sum + (r.meta.droppedOutsideWorkspace ?? 0), 0)
  const libraries = new Map<string, LspLibraryLocation>()
  for (const r of results) for (const location of r.meta.libraryLocations ?? []) libraries.set(JSON.stringify(location), location)
  const disks = results.flatMap((r) => (r.meta.disk === undefined ? [] : [r.meta.disk]))
  const locationsDropped = disks.reduce((sum, d) => sum + (d.locationsDropped ?? 0), 0)
  return {
    ...(dropped > 0 ? { droppedOutsideWorkspace: dropped } : {}),
    ...(libraries.size > 0 ? { libraryLocations: [...libraries.values()] } : {}),
    ...(disks.length > 0
      ? {
          disk: {
            filesChanged: disks.reduce((sum, d) => sum + d.filesChanged, 0),
            method: disks.some((d) => d.method === 'scan') ? 'scan' : 'watch',
            ...(locationsDropped > 0 ? { locationsDropped } : {}),
          },
        }
      : {}),
  }
}

/** Merges the answers of a fan-out. Only workspace-scoped kinds reach here. */
function mergeFanOut(
  results: ReadonlyArray<LspQueryResult>,
  failures: ReadonlyArray<{ providerId: string; code: string; message: string }>,
): LspQueryResult {
  const first = results[0]
  if (first === undefined) throw new Error('mergeFanOut needs at least one result')
  const statusRank = { ready: 0, degraded: 1, indexing: 2 } as const
  const meta: LspResultMeta = {
    providerId: results.map((r) => r.meta.providerId).join(','),
    status: results.reduce<LspResultMeta['status']>(
      (worst, r) => (statusRank[r.meta.status] > statusRank[worst] ? r.meta.status : worst),
      failures.length > 0 ? 'degraded' : 'ready',
    ),
    warm: results.every((r) => r.meta.warm),
    truncated: results.some((r) => r.meta.truncated),
    elapsedMs: 0,
    ...mergeCoverage(results),
    ...mergeDropped(results),
    ...(failures.length > 0 ? { failures } : {}),
  }
  if (first.kind === 'workspaceSymbols') {
    return {
      kind: 'workspaceSymbols',
      symbols: uniqueSymbols(results.flatMap((r) => (r.kind === 'workspaceSymbols' ? r.symbols : []))),
      meta,
    }
  }
  if (first.kind === 'diagnostics') {
    const all = results.flatMap((r) => (r.kind === 'diagnostics' ? [r] : []))
    const eligible = all.every((r) => r.coverage.eligible !== undefined)
      ? all.reduce((sum, r) => sum + (r.coverage.eligible ?? 0), 0)
      : undefined
    return {
      kind: 'diagnostics',
      files: all.flatMap((r) => r.files),
      coverage: {
        analysed: all.flatMap((r) => r.coverage.analysed),
        ...(eligible === undefined ? {} : { eligible }),
        ...mergeSkipped(all.map((r) => r.coverage)),
        ...(all.some((r) => (r.coverage.notAnalysed?.length ?? 0) > 0)
          ? { notAnalysed: all.flatMap((r) => r.coverage.notAnalysed ?? []) }
          : {}),
        complete: failures.length === 0 && all.every((r) => r.coverage.complete),
      },
      meta,
    }
  }
  throw new LspError('MALFORMED_RESPONSE', `a fan-out produced a "${first.kind}" result, which cannot be merged`)
}

/**
 * Workspace symbols without repeats: the same name and kind at the same range of the same file is one symbol,
 * whether one server listed it twice or two answers of a fan-out both hold it. The first occurrence is kept.
 */
function uniqueSymbols(symbols: ReadonlyArray<LspWorkspaceSymbol>): ReadonlyArray<LspWorkspaceSymbol> {
  const seen = new Set<string>()
  const kept: LspWorkspaceSymbol[] = []
  for (const symbol of symbols) {
    const { start, end } = symbol.location.range
    const key = JSON.stringify([symbol.location.path, start.line, start.character, end.line, end.character, symbol.name, symbol.kind])
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(symbol)
  }
  return kept.length === symbols.length ? symbols : kept
}

/**
 * Drops locations outside the root (defence in depth: providers must already do this) and counts them;
 * drops repeated workspace symbols.
 */
function containLocations<T extends LspQueryResult>(result: T, root: string): T {
  const inside = (location: LspLocation) => isWithin(root, location.path)
  if (result.kind === 'locations') {
    const kept = result.locations.filter(inside)
    const dropped = result.locations.length - kept.length
    if (dropped === 0) return result
    return {
      ...result,
      locations: kept,
      meta: { ...result.meta, droppedOutsideWorkspace: (result.meta.droppedOutsideWorkspace ?? 0) + dropped },
    }
  }
  if (result.kind === 'workspaceSymbols') {
    const kept = result.symbols.filter((s) => inside(s.location))
    const dropped = result.symbols.length - kept.length
    const unique = uniqueSymbols(kept)
    if (dropped === 0) return unique === result.symbols ? result : { ...result, symbols: unique }
    return {
      ...result,
      symbols: unique,
      meta: { ...result.meta, droppedOutsideWorkspace: (result.meta.droppedOutsideWorkspace ?? 0) + dropped },
    }
  }
  return result
}

/** Relativizers kept per root (the canonical path costs a system call); bounded, oldest dropped first. */
const maxRelativizers = 64

/**
 * A signal for a fan-out that follows the caller's: every provider (and each of its roots and servers) listens
 * for the abort at once, which is no leak, so the many listeners sit on a signal of the seam's own (no
 * MaxListenersExceededWarning in the caller's process), with one listener on the caller's, removed after.
 */
function fanOutSignal(signal: AbortSignal | undefined): { readonly signal: AbortSignal | undefined; readonly release: () => void } {
  if (signal === undefined) return { signal, release: () => {} }
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  const forward = () => controller.abort(signal.reason)
  if (signal.aborted) forward()
  else signal.addEventListener('abort', forward, { once: true })
  return { signal: controller.signal, release: () => signal.removeEventListener('abort', forward) }
}

/**
 * Runs `run` with the caller's signal (a fresh one when there is none) and rejects with CANCELLED as soon as
 * that signal aborts, whether or not the provider notices.
 */
function withCancellation<T>(signal: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (signal?.aborted) return Promise.reject(new LspError('CANCELLED', 'the request was cancelled before it started'))
  if (signal === undefined) return run(new AbortController().signal)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new LspError('CANCELLED', 'the request was cancelled'))
    signal.addEventListener('abort', onAbort, { once: true })
    const done = () => signal.removeEventListener('abort', onAbort)
    let running: Promise<T>
    try {
      running = run(signal)
    } catch (error) {
      done()
      reject(error)
      return
    }
    running.then(
      (value) => {
        done()
        resolve(value)
      },
      (error: unknown) => {
        done()
        reject(error)
      },
    )
  })
}

/** Creates a fresh `ctx.lsp` service with no providers and no workspaces. */
export function createLsp(): LspService {
  const registrations = new Map<string, Registration>()
  const routes = new Routes<Registration>()
  const workspacesByRoot = new Map<string, LspWorkspace>()
  const workspacesById = new Map<string, LspWorkspace>()
  const listeners = new Set<(status: LspProviderStatus) => void>()
  const relativizers = new Map<string, TextRelativizer>()
  let disposed = false

  const relativizerFor = (root: string): TextRelativizer => {
    let relativizer = relativizers.get(root)
    if (relativizer === undefined) {
      relativizer = textRelativizer(root)
      if (relativizers.size >= maxRelativizers) relativizers.delete(relativizers.keys().next().value as string)
      relativizers.set(root, relativizer)
    }
    return relativizer
  }

  const resolveRequestFile = (root: string, path: string, document: LspDocumentSnapshot | undefined) =>
    requestFile(workspacesByRoot.get(root), path, document)

  const ensureLive = () => {
    if (disposed) throw new LspError('DISPOSED', 'this ctx.lsp service was disposed; create a new one with createLsp()')
  }

  const registered = () => [...registrations.values()]

  /** A file's provider: by name, extension, or `#!` line (read only inside an open workspace root; RFC 0020). */
  const ownerOf = (path: string): { registration: Registration; languageId: string } | undefined => {
    const route = routes.ownerOf(path, () => firstLineIn(path, workspacesByRoot.keys()))
    return route === undefined ? undefined : { registration: route.owner, languageId: route.languageId }
  }

  const selectForFile = (path: string): { registration: Registration; languageId: string } => {
    const owner = ownerOf(path)
    if (owner === undefined) {
      const known = [...routes.extensions.keys()].sort().join(', ') || 'none'
      const names = [...routes.fileNames.keys()].sort()
      const interpreters = [...routes.interpreters.keys()].sort()
      const extension = extensionOf(path)
      const also = `${names.length === 0 ? '' : `; file names: ${names.join(', ')}`}${interpreters.length === 0 ? '' : `; #! interpreters: ${interpreters.join(', ')}`}`
      throw new LspError(
        'UNAVAILABLE',
        extension === undefined
          ? `no language provider serves "${nodePath.basename(path)}": it has no file extension, its name is not one a provider claims, and its first line names no interpreter one serves (registered extensions: ${known}${also})`
          : `no language provider is registered for "${extension}" files (registered extensions: ${known}${also})`,
        {
          data: {
            ...(extension === undefined ? {} : { extension }),
            registered: [...routes.extensions.keys()],
            fileNames: names,
            interpreters,
          },
        },
      )
    }
    return owner
  }

  /** The most recently registered provider that knows the language wins; then the seam's own table. */
  const factsFor = (languageId: string): LspLanguageFacts | undefined => {
    for (const registration of [...registered()].reverse()) {
      const facts = registration.provider.languageFacts?.find((f) => f.languageIds.includes(languageId))
      if (facts !== undefined) return facts
    }
    return builtInLanguageFacts.find((f) => f.languageIds.includes(languageId))
  }

  /** Splits a speculative check by the provider that owns each file; what no provider can check is said so. */
  const speculateAcross = async (request: LspSpeculationRequest, signal: AbortSignal | undefined): Promise<LspSpeculationResult> => {
    const workspace = workspacesByRoot.get(normalizeRoot(request.root))
    if (workspace === undefined) throw new LspError('UNAVAILABLE', `no workspace is open at "${request.root}"`)
    const root = workspace.root
    const inside = (path: string): string => {
      const absolute = resolveInRoot(root, path)
      if (!isWithin(root, absolute)) throw new LspError('OUTSIDE_WORKSPACE', `"${path}" is outside the workspace ${root}`)
      return absolute
    }
    const groups = new Map<Registration, { documents: LspSpeculationRequest['documents'][number][]; paths: string[] }>()
    const group = (registration: Registration) => {
      let known = groups.get(registration)
      if (known === undefined) groups.set(registration, (known = { documents: [], paths: [] }))
      return known
    }
    const unchecked = new Map<string, LspSpeculatedFile>()
    for (const document of request.documents) {
      const owner = ownerOf(inside(document.path))
      if (owner !== undefined) group(owner.registration).documents.push({ path: inside(document.path), text: document.text })
    }
    const paths = [...new Set(request.paths.map(inside))]
    for (const path of paths) {
      const owner = ownerOf(path)
      if (owner === undefined) {
        unchecked.set(path, { path, freshness: 'unavailable', diagnostics: [], note: 'no language provider serves this file' })
      } else if (owner.registration.provider.speculate === undefined) {
        unchecked.set(path, {
          path,
          freshness: 'unavailable',
          diagnostics: [],
          note: `provider "${owner.registration.info.id}" cannot check an edit before it is written`,
        })
      } else group(owner.registration).paths.push(path)
    }
    const controller = new AbortController()
    const abort = () => controller.abort(signal?.reason)
    if (signal?.aborted === true) abort()
    signal?.addEventListener('abort', abort, { once: true })
    try {
      const answers = await Promise.all(
        [...groups]
          .filter(([registration, g]) => g.paths.length > 0 && registration.provider.speculate !== undefined)
          .map(async ([registration, g]) => {
            try {
              return (
                await registration.provider.speculate!(
                  { root, documents: g.documents, paths: g.paths, waitMs: request.waitMs },
                  controller.signal,
                )
              ).files
            } catch (cause) {
              const error = toLspError(cause, 'SERVER_ERROR', 'speculate')
              if (error.code === 'CANCELLED' || controller.signal.aborted) throw error
              return g.paths.map((path): LspSpeculatedFile => ({
                path,
                freshness: 'unavailable',
                diagnostics: [],
                note: `${error.code}: ${error.message}`,
              }))
            }
          }),
      )
      const byPath = new Map(answers.flat().map((file) => [file.path, file]))
      return {
        files: paths.map(
          (path) =>
            unchecked.get(path) ??
            byPath.get(path) ?? { path, freshness: 'unavailable', diagnostics: [], note: 'the provider returned no entry for this file' },
        ),
      }
    } finally {
      signal?.removeEventListener('abort', abort)
    }
  }

  const runOne = async (
    registration: Registration,
    request: LspQueryRequest,
    languageId: string,
    signal: AbortSignal | undefined,
  ): Promise<LspQueryResult> => {
    const { info, provider } = registration
    if (!info.operations.includes(request.operation)) {
      throw new LspError(
        'UNSUPPORTED_OPERATION',
        `provider "${info.id}" does not support "${request.operation}" (it supports: ${info.operations.join(', ')})`,
        { data: { providerId: info.id, operation: request.operation } },
      )
    }
    const started = performance.now()
    let result: LspQueryResult
    try {
      result = await withCancellation(signal, (inner) => provider.query({ ...request, languageId }, inner))
    } catch (error) {
      throw toLspError(error, 'SERVER_ERROR', `provider "${info.id}" failed on ${request.operation}`)
    }
    const expected = resultKindByOperation[request.operation]
    if (result === null || typeof result !== 'object' || result.kind !== expected) {
      throw new LspError(
        'MALFORMED_RESPONSE',
        `provider "${info.id}" answered ${request.operation} with a "${String((result as { kind?: unknown } | null)?.kind)}" result; expected "${expected}"`,
        { data: { providerId: info.id } },
      )
    }
    // Paths in free text (names, hovers, messages) become workspace-relative; `path`/`uri` fields stay absolute.
    const contained = relativizeResult(containLocations(result, request.root), relativizerFor(request.root))
    return { ...contained, meta: { ...contained.meta, providerId: info.id, elapsedMs: performance.now() - started } }
  }

  const fanOut = async (request: LspQueryRequest, signal: AbortSignal | undefined): Promise<LspQueryResult> => {
    const targets = registered().filter((r) => r.info.operations.includes(request.operation))
    if (targets.length === 0) {
      throw new LspError(
        registrations.size === 0 ? 'UNAVAILABLE' : 'UNSUPPORTED_OPERATION',
        registrations.size === 0 ? 'no language provider is registered' : `no registered provider supports "${request.operation}"`,
      )
    }
    const started = performance.now()
    const scoped = fanOutSignal(signal)
    let settled: PromiseSettledResult<LspQueryResult>[]
    try {
      settled = await Promise.allSettled(
        targets.map((r) =>
          runOne(
            r,
            request,
            Object.values(r.info.extensions)[0] ?? Object.values(r.info.fileNames)[0] ?? Object.values(r.info.interpreters)[0] ?? '',
            scoped.signal,
          ),
        ),
      )
    } finally {
      scoped.release()
    }
    if (signal?.aborted) throw new LspError('CANCELLED', 'the request was cancelled')
    const results: LspQueryResult[] = []
    const failures: { providerId: string; code: string; message: string }[] = []
    settled.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') results.push(outcome.value)
      else {
        const error = toLspError(outcome.reason, 'SERVER_ERROR', 'fan-out')
        failures.push({
          providerId: targets[index]?.info.id ?? '?',
          code: error.code,
          message: relativizerFor(request.root)(error.message),
        })
      }
    })
    if (results.length === 0) {
      const firstFailure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
      throw toLspError(firstFailure?.reason, 'SERVER_ERROR', `every provider failed on ${request.operation}`)
    }
    const merged = mergeFanOut(results, failures)
    return { ...merged, meta: { ...merged.meta, elapsedMs: performance.now() - started } }
  }

  const rollup = new OperationRollup()

  /** A query, validated and sent to its provider(s); `query` wraps it in its span, metrics and rollup. */
  const runQuery = async (request: LspQueryRequest & LspReadAlong, signal: AbortSignal | undefined): Promise<LspQueryResult> => {
    ensureLive()
    if (signal?.aborted) throw new LspError('CANCELLED', 'the request was cancelled before it started')
    if (request === null || typeof request !== 'object' || !operationSet.has(request.operation)) {
      throw new LspError('INVALID_ARGUMENT', `unknown operation ${JSON.stringify((request as { operation?: unknown } | null)?.operation)}`)
    }
    if (typeof request.root !== 'string' || !nodePath.isAbsolute(request.root)) {
      throw new LspError('INVALID_ARGUMENT', `request.root ${JSON.stringify(request.root)} must be an absolute workspace root`)
    }
    validatePosition(request)
    validateText(request)
    const root = normalizeRoot(request.root)
    const scope = operationInfo[request.operation].scope
    if (request.operation === 'workspaceSymbols' && (typeof request.query !== 'string' || request.query.trim() === '')) {
      throw new LspError('INVALID_ARGUMENT', 'workspaceSymbols needs a non-empty query: give part of a symbol name')
    }
    let result: LspQueryResult
    const filePath = 'path' in request && typeof request.path === 'string' ? request.path : undefined
    if (scope === 'workspace' || (scope === 'fileOrWorkspace' && filePath === undefined)) {
      result = await fanOut({ ...request, root }, signal)
    } else if (scope === 'item') {
      const item = (request as { item?: { path?: unknown } }).item
      if (item === null || typeof item !== 'object' || typeof item.path !== 'string') {
        throw new LspError('INVALID_ARGUMENT', `${request.operation} needs an item returned by a prepare operation`)
      }
      const itemPath = resolveInRoot(root, item.path)
      const { registration, languageId } = selectForFile(itemPath)
      const { file } = resolveRequestFile(root, item.path, undefined)
      result = await runOne(
        registration,
        { ...withoutDocument(request), root, ...(file === undefined ? {} : { file }) },
        languageId,
        signal,
      )
    } else {
      if (filePath === undefined) throw new LspError('INVALID_ARGUMENT', `${request.operation} needs a file path`)
      const path = resolveInRoot(root, filePath)
      const { registration, languageId } = selectForFile(path)
      // A new name that is no identifier of the language (or a keyword) is refused before any server is asked.
      if (request.operation === 'rename') validateIdentifier(factsFor(languageId), languageId, request.newName)
      const { file, snapshot } = resolveRequestFile(root, filePath, request.document)
      const forwarded = {
        ...withoutDocument(request),
        root,
        path,
        ...(file === undefined ? {} : { file }),
        ...(snapshot === undefined ? {} : { snapshot }),
      }
      result = await runOne(registration, forwarded as LspQueryRequest, languageId, signal)
    }
    return result
  }

  const service: LspService = {
    registerProvider(provider) {
      ensureLive()
      const info = validateProvider(provider)
      if (registrations.has(info.id)) {
        throw new LspError('CONFLICT', `a provider with id "${info.id}" is already registered`, { data: { providerId: info.id } })
      }
      const conflict = routes.conflict(info)
      if (conflict !== undefined) {
        const what = { extension: 'extension', fileName: 'file name', interpreter: 'interpreter' }[conflict.kind]
        throw new LspError('CONFLICT', `${what} "${conflict.key}" is already served by provider "${conflict.owner.info.id}"`, {
          data: { [conflict.kind]: conflict.key, owner: conflict.owner.info.id },
        })
      }
      // Everything validated: publish.
      const unsubscribe =
        provider.onStatusChange?.((status) => {
          for (const listener of listeners) listener(status)
        }) ?? (() => {})
      const registration: Registration = { info, provider, unsubscribe }
      registrations.set(info.id, registration)
      routes.add(registration)
      let released: Promise<void> | undefined
      return () => {
        released ??= (async () => {
          if (registrations.get(info.id) !== registration) return
          registrations.delete(info.id)
          routes.remove(registration)
          registration.unsubscribe()
          await provider.dispose?.()
        })()
        return released
      }
    },

    registerWorkspace(workspace) {
      ensureLive()
      if (workspace === null || typeof workspace !== 'object') throw new LspError('INVALID_ARGUMENT', 'a workspace must be an object')
      if (typeof workspace.id !== 'string' || workspace.id.trim().length === 0 || workspace.id.trim() !== workspace.id) {
        throw new LspError('INVALID_ARGUMENT', `workspace id ${JSON.stringify(workspace.id)} must be a non-empty trimmed string`)
      }
      if (typeof workspace.root !== 'string' || !nodePath.isAbsolute(workspace.root)) {
        throw new LspError('INVALID_ARGUMENT', `workspace root ${JSON.stringify(workspace.root)} must be an absolute path`)
      }
      for (const method of ['readFile', 'exists', 'applyEdit'] as const) {
        if (typeof workspace[method] !== 'function') {
          throw new LspError('INVALID_ARGUMENT', `workspace "${workspace.id}" has no ${method} function`)
        }
      }
      const root = normalizeRoot(workspace.root)
      if (workspacesByRoot.has(root)) throw new LspError('CONFLICT', `a workspace is already open at ${root}`)
      if (workspacesById.has(workspace.id)) throw new LspError('CONFLICT', `a workspace with id "${workspace.id}" is already open`)
      workspacesByRoot.set(root, workspace)
      workspacesById.set(workspace.id, workspace)
      let released = false
      return async () => {
        if (released) return
        released = true
        if (workspacesByRoot.get(root) === workspace) workspacesByRoot.delete(root)
        if (workspacesById.get(workspace.id) === workspace) workspacesById.delete(workspace.id)
      }
    },

    async query<R extends LspQueryRequest>(request: R & LspReadAlong, signal?: AbortSignal): Promise<LspResultFor<R['operation']>> {
      // An unknown operation is the caller's text: recorded as "invalid", never as given.
      const operation =
        request !== null && typeof request === 'object' && operationSet.has(request.operation) ? request.operation : 'invalid'
      const started = performance.now()
      const attributes = (): Attributes => {
        const root = (request as { root?: unknown } | null)?.root
        const path = (request as { path?: unknown } | null)?.path
        if (typeof root !== 'string' || !nodePath.isAbsolute(root)) return { [TelemetryAttr.operation]: operation }
        return {
          [TelemetryAttr.operation]: operation,
          ...rootAttributes(normalizeRoot(root), workspacesByRoot.get(normalizeRoot(root))?.id ?? nodePath.basename(root)),
          ...(typeof path === 'string' ? fileAttributes(nodePath.resolve(root, path), root) : {}),
        }
      }
      const finish = (result: LspQueryResult | undefined, error: unknown, span: AttributeSink | undefined) => {
        const elapsedMs = performance.now() - started
        rollup.record(operation, elapsedMs, error)
        const instruments = telemetryInstruments()
        const provider = telemetryId(result?.meta.providerId ?? 'none')
        if (error === undefined)
          instruments.operationDuration.record(elapsedMs, { [TelemetryAttr.operation]: operation, [TelemetryAttr.provider]: provider })
        else {
          const code = errorCodeOf(error)
          instruments.operationDuration.record(elapsedMs, { [TelemetryAttr.operation]: operation, [TelemetryAttr.errorCode]: code })
          instruments.errors.add(1, { [TelemetryAttr.operation]: operation, [TelemetryAttr.errorCode]: code })
          return
        }
        const meta = result?.meta
        if (meta === undefined) return
        const incomplete = meta.coverage !== undefined && !meta.coverage.complete
        const derived = meta.derived !== undefined
        for (const [mark, on] of [
          ['incomplete', incomplete],
          ['derived', derived],
          ['truncated', meta.truncated],
        ] as const) {
          if (on) instruments.answersMarked.add(1, { [TelemetryAttr.operation]: operation, [TelemetryAttr.mark]: mark })
        }
        span?.setAttributes({
          [TelemetryAttr.provider]: provider,
          [TelemetryAttr.incomplete]: incomplete,
          [TelemetryAttr.derived]: derived,
          [TelemetryAttr.truncated]: meta.truncated,
          [TelemetryAttr.resultStatus]: meta.status,
          [TelemetryAttr.warm]: meta.warm,
        })
      }
      const run = async (span: AttributeSink | undefined): Promise<LspResultFor<R['operation']>> => {
        try {
          const result = await runQuery(request, signal)
          finish(result, undefined, span)
          return result as LspResultFor<R['operation']>
        } catch (error) {
          finish(undefined, error, span)
          throw error
        }
      }
      // Inside the Effect API's span: its attributes go there too; when it is an OpenTelemetry span it is the
      // query's span, and no second one opens.
      const owner = activeQuerySpanOwner()
      owner?.setAttributes(attributes())
      if (owner?.ownsSpan === true) return run(owner)
      return inSpan(TelemetrySpan.query, attributes, (span) =>
        run(
          owner === undefined
            ? span.isRecording()
              ? span
              : undefined
            : {
                setAttributes: (a) => {
                  owner.setAttributes(a)
                  if (span.isRecording()) span.setAttributes(a)
                },
              },
        ),
      )
    },

    rollup() {
      return rollup.snapshot()
    },

    async applyEdit(edit, options) {
      ensureLive()
      const root = typeof options?.root === 'string' ? normalizeRoot(options.root) : undefined
      const workspace = root === undefined ? undefined : workspacesByRoot.get(root)
      if (workspace === undefined) {
        throw new LspError('UNAVAILABLE', `no workspace is open at ${String(options?.root)}, so nothing can apply edits there`, {
          data: { open: [...workspacesByRoot.keys()] },
        })
      }
      const { root: _root, ...applyOptions } = options
      return workspace.applyEdit(edit, applyOptions)
    },

    providers() {
      return registered().map((r) => r.info)
    },

    workspaces() {
      return [...workspacesByRoot.values()].map((w) => ({ id: w.id, root: w.root }))
    },

    workspace(rootOrId) {
      return workspacesById.get(rootOrId) ?? workspacesByRoot.get(normalizeRoot(rootOrId))
    },

    providerFor(path) {
      const owner = ownerOf(path)
      if (owner === undefined) return undefined
      return { providerId: owner.registration.info.id, languageId: owner.languageId }
    },

    operationsFor(path) {
      return ownerOf(path)?.registration.info.operations ?? []
    },

    languageFacts(languageId) {
      return factsFor(languageId)
    },

    async speculate(request, signal) {
      ensureLive()
      return speculateAcross(request, signal)
    },

    status() {
      return registered().flatMap((r) => r.provider.status?.() ?? [{ providerId: r.info.id, state: 'ready' as const }])
    },

    onStatusChange(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },

    async dispose() {
      if (disposed) return
      disposed = true
      const all = registered()
      registrations.clear()
      routes.clear()
      workspacesByRoot.clear()
      workspacesById.clear()
      listeners.clear()
      for (const r of all) r.unsubscribe()
      await Promise.allSettled(all.map((r) => r.provider.dispose?.()))
    },
  }
  return service
}
