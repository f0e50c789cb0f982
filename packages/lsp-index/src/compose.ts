import { existsSync } from 'node:fs'
import * as nodePath from 'node:path'

import {
  LspError,
  isWithin,
  normalizeRoot,
  resolveInRoot,
  toLspError,
  type LspAnswerSource,
  type LspIndexBuild,
  type LspLocation,
  type LspOperation,
  type LspProvider,
  type LspProviderRequest,
  type LspProviderStatus,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultFor,
  type LspResultMeta,
} from '@codeseam/lsp'

import type { DecodedIndex } from './decode.js'
import { readScipIndexWithTable } from './decode.js'
import { DiskState, diskHashesFile, staleOf, type DiskView } from './disk-state.js'
import { createIndexProvider, defaultExtensions, indexOperations, type IndexProvider } from './provider.js'
import { ScipIndex } from './scip-index.js'
import { openOutlineCache, outlinesFile, writeOutlineCache, type OutlineCache } from './outline-cache.js'
import { findStoredIndex, readStoredIndex, type IndexSidecar } from './store.js'

/*
 * Index and live together (issue 52 item 2, RFC 0034): one provider that owns a live provider (lsp-local's
 * TypeScript provider, passed in: this package never imports a backend) and the stored index of each root, registered
 * once with the live provider's extensions. Per question: a file whose content equals what was indexed is answered
 * from the index; a changed, added or deleted one by the live server; references, implementations and workspace
 * symbols merge the index's (minus stale files) with the live server's in stale files. Once the live server of a root
 * is ready it answers everything there (`takeOver`). Every answer says where it came from (`meta.source`).
 */

/** An index and the sidecar saying what it was built from. */
export interface LoadedIndex {
  readonly index: DecodedIndex | ScipIndex
  readonly sidecar: IndexSidecar
  /**
   * The disk of the sidecar's root compared with it, shared by every composition answering from this entry (its
   * hash cache: a file is read again only once written). A composition for another root makes its own.
   */
  readonly disk?: DiskState
  /** The outlines this build of codeseam kept beside the entry's index (see `openOutlineCache`), when it has them. */
  readonly outlines?: OutlineCache
}

/** Options of {@link createIndexAndLiveProvider}. */
export interface IndexAndLiveOptions {
  /** The live provider (answers what the index cannot); its id, extensions and status are the composition's. */
  readonly live: LspProvider
  /** The index of a root, or undefined when it has none (asked once per root; a rejection counts as none). */
  readonly indexFor: (root: string) => Promise<LoadedIndex | undefined>
  /**
   * When the live server of a root is ready (status `ready`, every project it found loaded), it answers every
   * question there and the index is no longer asked. Default true.
   */
  readonly takeOver?: boolean
}

/**
 * Decoded entries by store folder (content-addressed, never rewritten), held weakly: the sessions of one process (a
 * daemon's) share one decoded index per entry while any of them holds it, and it is freed after the last.
 */
const decodedEntries = new Map<string, WeakRef<LoadedIndex> | Promise<LoadedIndex>>()

/**
 * The stored index of a canonical root (`findStoredIndex`, the newest entry), read and tabled; undefined when the
 * store has none. Within one process an entry is decoded once while it is in use.
 */
export async function loadStoredIndex(root: string, options: { readonly store?: string } = {}): Promise<LoadedIndex | undefined> {
  const stored = await findStoredIndex(root, options)
  if (stored === undefined) return undefined
  const held = decodedEntries.get(stored.directory)
  const reused = held instanceof WeakRef ? held.deref() : await held
  if (reused !== undefined) return reused
  // What a previous process (or `codeseam index`) left beside the index: the scan's table (the index is not scanned
  // again) and the files' hashes (only files written since are read and hashed).
  const hashesFile = nodePath.join(stored.directory, diskHashesFile)
  const loading = readScipIndexWithTable(stored.indexPath, nodePath.join(stored.directory, indexTableFile)).then(async (read) => {
    const index = new ScipIndex(read.decoded)
    const extensions = new Set(Object.keys(defaultExtensions(index)))
    const disk = new DiskState(stored.sidecar.root, stored.sidecar, extensions, { hashesFile })
    await disk.loadHashes()
    const outlines = await openOutlineCache(stored.directory, read.fingerprint)
    const loaded: LoadedIndex = { index, sidecar: stored.sidecar, disk, ...(outlines === undefined ? {} : { outlines }) }
    if (!read.fromTable) unsavedTables.set(loaded, read.save)
    return loaded
  })
  decodedEntries.set(stored.directory, loading)
  try {
    const loaded = await loading
    decodedEntries.set(stored.directory, new WeakRef(loaded))
    return loaded
  } catch (error) {
    decodedEntries.delete(stored.directory)
    throw error
  }
}

/** The file beside an entry's index holding its scan's table (see `readScipIndexWithTable`). */
export const indexTableFile = 'index-table.json'

/** Loaded entries whose table is not written yet: how to write it. */
const unsavedTables = new WeakMap<LoadedIndex, () => Promise<void>>()

/**
 * Loads the stored index of a canonical root and compares the disk with its sidecar once (every file hashed), so the
 * first question of a session finds both done: a session starts it when it opens a root, while the live host starts.
 * Resolves to the loaded index (hold it: entries are held weakly), or undefined when there is none or it failed.
 */
export async function prepareStoredIndex(root: string, options: { readonly store?: string } = {}): Promise<LoadedIndex | undefined> {
  try {
    const loaded = await loadStoredIndex(root, options)
    await loaded?.disk?.view()
    // For the next process: the table of the scan and the hashes just read (caches; a failure to write is ignored).
    await loaded?.disk?.saveHashes()
    const saveTable = loaded === undefined ? undefined : unsavedTables.get(loaded)
    if (loaded !== undefined && saveTable !== undefined) {
      unsavedTables.delete(loaded)
      await saveTable()
    }
    return loaded
  } catch {
    return undefined
  }
}

/**
 * Prepares a store entry for the first process answering from it: the scan's table and the root's files' hashes,
 * kept beside its index (`index-table.json`, `disk-hashes.json`): what `codeseam index` does once it has written an
 * entry. Errors are swallowed (they are caches).
 */
export async function prepareStoredEntry(directory: string): Promise<void> {
  try {
    // Prepared before (by this build: the outlines are named by it): nothing to read again.
    const caches = [nodePath.join(directory, indexTableFile), nodePath.join(directory, diskHashesFile), await outlinesFile(directory)]
    if (caches.every((file) => existsSync(file))) return
    const stored = await readStoredIndex(directory)
    if (stored === undefined) return
    const read = await readScipIndexWithTable(stored.indexPath, nodePath.join(directory, indexTableFile))
    await read.save()
    const { sidecar } = stored
    const index = new ScipIndex(read.decoded)
    const extensions = new Set(Object.keys(defaultExtensions(index)))
    const disk = new DiskState(sidecar.root, sidecar, extensions, { hashesFile: nodePath.join(directory, diskHashesFile) })
    await disk.view()
    await disk.saveHashes()
    const { answers } = createIndexProvider({ index, root: sidecar.root })
    await writeOutlineCache(directory, answers, read.fingerprint)
  } catch {
    // Caches: the first process makes them.
  }
}

/** The most stale files an answer names (the rest are counted). */
const maxNamed = 100

interface RootIndex {
  readonly provider: IndexProvider
  readonly disk: DiskState
  readonly build: LspIndexBuild
}

type Answer = LspQueryResult
const indexOps = new Set<LspOperation>(indexOperations)

function locationKey(l: LspLocation): string {
  return `${l.path}:${l.range.start.line}:${l.range.start.character}:${l.range.end.line}:${l.range.end.character}`
}

function openRoot(found: LoadedIndex, root: string, id: string): RootIndex {
  const provider = createIndexProvider({
    index: found.index,
    root,
    id,
    ...(found.outlines === undefined ? {} : { outlines: found.outlines }),
  })
  const { sidecar } = found
  const build: LspIndexBuild = {
    indexedAt: sidecar.indexedAt,
    indexer: { name: sidecar.indexer.name, version: sidecar.indexer.version },
    ...(sidecar.compiler === undefined ? {} : { compiler: sidecar.compiler }),
  }
  const disk =
    found.disk !== undefined && found.disk.root === root
      ? found.disk
      : new DiskState(root, sidecar, new Set(Object.keys(provider.extensions)))
  return { provider, disk, build }
}

const relativeOf = (root: string, path: string): string => nodePath.relative(root, path).split(nodePath.sep).join('/')

/** An answer's source; stale files (relative) are named absolute, at most {@link maxNamed}. */
function source(
  origin: LspAnswerSource['origin'],
  build: LspIndexBuild | undefined,
  root: string,
  stale: string[] = [],
  notIndexed = 0,
): LspAnswerSource {
  const named = stale.slice(0, maxNamed).map((r) => nodePath.join(root, ...r.split('/')))
  return {
    origin,
    ...(build === undefined ? {} : { index: build }),
    ...(named.length === 0 ? {} : { staleFiles: named }),
    ...(stale.length > maxNamed ? { staleCount: stale.length } : {}),
    ...(notIndexed > 0 ? { notIndexed } : {}),
  }
}

/** Source files the index never held and an answer from it did not search: JSON (which holds no references) left out. */
const unsearched = (view: DiskView): number => [...view.notIndexed].filter((relative) => !relative.endsWith('.json')).length

const withSource = (answer: Answer, value: LspAnswerSource, overrides: Partial<LspResultMeta> = {}): Answer =>
  ({ ...answer, meta: { ...answer.meta, ...overrides, source: value } }) as Answer

type Failure = { providerId: string; code: string; message: string }

/** A merged answer's meta: the live server's (readiness, coverage, disk catch-up describe the stale files' part), or the index's with the live server's failure. */
function finish(
  answer: Answer,
  fromServer: Answer | undefined,
  failure: Failure | undefined,
  root: string,
  index: RootIndex,
  stale: string[],
  notIndexed: number,
): Answer {
  if (fromServer === undefined) {
    return withSource(answer, source('index', index.build, root, stale, notIndexed), failure === undefined ? {} : { failures: [failure] })
  }
  // The live server's meta (readiness, coverage, disk catch-up) describes the stale files' part.
  const { meta } = fromServer
  return withSource(
    { ...answer, meta: { ...meta, elapsedMs: answer.meta.elapsedMs } } as Answer,
    source('both', index.build, root, stale, notIndexed),
  )
}

/** The live server's statuses, each root with an index naming it as a companion (a root whose server has not started has no status: its answers say the index). */
function statusWithIndexes(statuses: ReadonlyArray<LspProviderStatus>, loaded: ReadonlyMap<string, RootIndex>): LspProviderStatus[] {
  const companion = (r: RootIndex) => ({
    id: `index (${r.build.indexer.name} ${r.build.indexer.version}, built ${r.build.indexedAt})`,
    operations: [...indexOperations],
  })
  return statuses.map((s) => {
    const r = s.root === undefined ? undefined : loaded.get(s.root)
    return r === undefined ? s : { ...s, companions: [...(s.companions ?? []), companion(r)] }
  })
}

/** A provider answering from a root's stored index where the disk still holds what was indexed, else from `live`. */
export function createIndexAndLiveProvider(options: IndexAndLiveOptions): LspProvider {
  const { live } = options
  const takeOver = options.takeOver ?? true
  const roots = new Map<string, Promise<RootIndex | undefined>>()
  const loaded = new Map<string, RootIndex>()

  const load = (root: string): Promise<RootIndex | undefined> => {
    let entry = roots.get(root)
    if (entry === undefined) {
      entry = options.indexFor(root).then(
        (found) => {
          if (found === undefined) return undefined
          const rootIndex = openRoot(found, root, live.id)
          loaded.set(root, rootIndex)
          return rootIndex
        },
        () => undefined,
      )
      roots.set(root, entry)
    }
    return entry
  }

  const liveReady = (root: string): boolean =>
    (live.status?.() ?? []).some(
      (s) => s.root === root && s.state === 'ready' && (s.projects === undefined || s.projects.loaded >= s.projects.found),
    )

  async function fromLive(request: LspProviderRequest, signal: AbortSignal, value: LspAnswerSource): Promise<Answer> {
    return withSource((await live.query(request, signal)) as Answer, value)
  }

  /** Index locations minus stale files, plus the live server's in stale files (RFC 0034, "Merging"). */
  async function merged(request: LspProviderRequest, signal: AbortSignal, root: string, index: RootIndex, view: DiskView): Promise<Answer> {
    const fresh = (path: string) => {
      const relative = relativeOf(root, path)
      return index.disk.indexed(relative) && !view.changed.has(relative) && !view.missing.has(relative)
    }
    const stale = staleOf(view)
    const fromIndex = (await index.provider.query(request, signal)) as Answer
    let fromServer: Answer | undefined
    let failure: Failure | undefined
    try {
      fromServer = (await live.query(request, signal)) as Answer
    } catch (error) {
      if (signal.aborted) throw error
      const e = toLspError(error, 'SERVER_ERROR', `the live server could not answer ${request.operation}`)
      failure = { providerId: live.id, code: e.code, message: e.message }
    }
    const gone = (path: string) => view.missing.has(relativeOf(root, path))
    if (fromIndex.kind === 'locations') {
      const kept = fromIndex.locations.filter((l) => fresh(l.path))
      const added = fromServer?.kind === 'locations' ? fromServer.locations.filter((l) => !fresh(l.path) && !gone(l.path)) : []
      const seen = new Set<string>()
      const locations = [...kept, ...added].filter((l) => (seen.has(locationKey(l)) ? false : (seen.add(locationKey(l)), true)))
      return finish({ kind: 'locations', locations, meta: fromIndex.meta }, fromServer, failure, root, index, stale, unsearched(view))
    }
    if (fromIndex.kind === 'workspaceSymbols') {
      const kept = fromIndex.symbols.filter((s) => fresh(s.location.path))
      const added =
        fromServer?.kind === 'workspaceSymbols'
          ? fromServer.symbols.filter((s) => isWithin(root, s.location.path) && !fresh(s.location.path) && !gone(s.location.path))
          : []
      return finish(
        { kind: 'workspaceSymbols', symbols: [...kept, ...added], meta: fromIndex.meta },
        fromServer,
        failure,
        root,
        index,
        stale,
        unsearched(view),
      )
    }
    return withSource(fromIndex, source('index', index.build, root, stale, unsearched(view)))
  }

  /** The request's file, absolute, or undefined for workspace-wide requests. */
  const fileOf = (request: LspProviderRequest): string | undefined =>
    request.file?.path ?? ('path' in request && typeof request.path === 'string' ? resolveInRoot(request.root, request.path) : undefined)

  /** The files of a locations answer the index holds stale (changed, missing, or not indexed). */
  async function staleIn(root: string, index: RootIndex, locations: ReadonlyArray<LspLocation>): Promise<string[]> {
    const relatives = [...new Set(locations.filter((l) => isWithin(root, l.path)).map((l) => relativeOf(root, l.path)))]
    const states = await Promise.all(relatives.map(async (r) => [r, await index.disk.fileState(r)] as const))
    return states.filter(([, state]) => state !== 'unchanged').map(([r]) => r)
  }

  async function answer(request: LspProviderRequest, signal: AbortSignal): Promise<Answer> {
    // A view of the disk taken since this moment saw every change made before the question: it is reused (the one a
    // session takes while it starts, when the first question came before it; the one a change mark took for it).
    const asked = request.askedAt ?? performance.now()
    const root = normalizeRoot(request.root)
    const otherRoots = (request.workspaceRoots ?? []).map(normalizeRoot).filter((r) => r !== root)
    const index = indexOps.has(request.operation) && otherRoots.length === 0 ? await load(root) : undefined
    if (index === undefined || (takeOver && liveReady(root))) return fromLive(request, signal, source('live', undefined, root))
    if (request.operation === 'workspaceSymbols') {
      const view = await index.disk.view(asked)
      if (staleOf(view).length === 0)
        return withSource((await index.provider.query(request, signal)) as Answer, source('index', index.build, root, [], unsearched(view)))
      return merged(request, signal, root, index, view)
    }
    const path = fileOf(request)
    if (path === undefined || !isWithin(root, path)) return fromLive(request, signal, source('live', undefined, root))
    const relative = relativeOf(root, path)
    const known = request.snapshot !== undefined && request.snapshot.path === path ? request.snapshot.hash : undefined
    const state = await index.disk.fileState(relative, known)
    // A file that differs from the indexed content is never answered from the index.
    if (state !== 'unchanged') return fromLive(request, signal, source('live', index.build, root, [relative]))
    switch (request.operation) {
      case 'references':
      case 'implementation': {
        const view = await index.disk.view(asked)
        if (staleOf(view).length > 0) return merged(request, signal, root, index, view)
        return withSource((await index.provider.query(request, signal)) as Answer, source('index', index.build, root, [], unsearched(view)))
      }
      case 'definition':
      case 'declaration':
      case 'typeDefinition':
      case 'hover': {
        const fromIndex = (await index.provider.query(request, signal)) as Answer
        // A definition (or the declaration a hover shows) in a stale file: its position or text may have moved.
        const targets =
          fromIndex.kind === 'locations'
            ? fromIndex.locations
            : (
                (await index.provider.query({ ...request, operation: 'definition' } as LspProviderRequest, signal)) as Answer & {
                  kind: 'locations'
                }
              ).locations
        const stale = await staleIn(root, index, targets)
        if (stale.length > 0) return fromLive(request, signal, source('live', index.build, root, stale))
        return withSource(fromIndex, source('index', index.build, root))
      }
      default:
        return withSource((await index.provider.query(request, signal)) as Answer, source('index', index.build, root))
    }
  }

  const liveMark = live.changeMark?.bind(live)
  const status = (): ReadonlyArray<LspProviderStatus> => statusWithIndexes(live.status?.() ?? [], loaded)

  return {
    id: live.id,
    extensions: live.extensions,
    ...(live.fileNames === undefined ? {} : { fileNames: live.fileNames }),
    ...(live.interpreters === undefined ? {} : { interpreters: live.interpreters }),
    ...(live.languageFacts === undefined ? {} : { languageFacts: live.languageFacts }),
    operations: [...new Set([...live.operations, ...indexOperations])],
    async query<R extends LspQueryRequest>(request: LspProviderRequest<R>, signal: AbortSignal): Promise<LspResultFor<R['operation']>> {
      if (signal.aborted) throw new LspError('CANCELLED', `${request.operation} was cancelled`)
      return (await answer(request, signal)) as LspResultFor<R['operation']>
    },
    status,
    ...(live.onStatusChange === undefined ? {} : { onStatusChange: live.onStatusChange.bind(live) }),
    ...(live.speculate === undefined ? {} : { speculate: live.speculate.bind(live) }),
    // RFC 0026: the live provider's mark and, for a root with an index, what its disk holds against the index (an
    // answer from the index depends on nothing else). Without the live provider's, no answer is kept.
    ...(liveMark === undefined
      ? {}
      : {
          async changeMark(root: string, signal: AbortSignal): Promise<string> {
            const [own, index] = await Promise.all([liveMark(root, signal), load(normalizeRoot(root))])
            return index === undefined ? own : `${own}\0index ${index.build.indexedAt} ${await index.disk.mark()}`
          },
        }),
    dispose: () => live.dispose?.(),
  }
}
