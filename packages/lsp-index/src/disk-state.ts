import { readdirSync, readFileSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { extensionOf } from '@codeseam/lsp'

import { sha256, writeCacheFile, type IndexSidecar } from './store.js'

/*
 * What the disk holds now against what was indexed (RFC 0034): per file `unchanged`, `changed`, `missing`, or
 * `added` (a file of the index's extensions the sidecar does not name). Hashes are cached by stat key (device,
 * inode, size, modification and change times in nanoseconds), so a question hashes only the files written since
 * the last one, not the whole tree. Nothing is run; files are listed, stat'ed and read, synchronously (profiled on
 * tanstack-query: a promise per directory, stat and read cost five times the work itself), yielding to the event
 * loop every few milliseconds.
 */

/** Longest stretch of synchronous file work before the event loop gets a turn, milliseconds. */
const sliceMs = 10

/**
 * The hash cache of an entry, kept beside its index (`disk-hashes.json`) so that a new process hashes only the files
 * written since a previous one looked: by relative path, the stat key and the hash read under it.
 */
export const diskHashesFile = 'disk-hashes.json'

/**
 * A hash is kept in the file only when the file's modification and change times are this much older than the moment
 * it was read: a file written again within the file system's timestamp granularity could keep its stat key with
 * other bytes (git's "racy clean" files), and would never be read again.
 */
const settledMs = 2000

interface CachedHash {
  readonly key: string
  readonly hash: string
  /** Whether the file was settled when read (see {@link settledMs}): only such hashes are written out. */
  readonly settled: boolean
}

/**
 * A file's state against the index. `notIndexed`: there at index time, unchanged since, and not a document of the
 * index (the sidecar's `unindexed`): the index has nothing for it, but nothing in it changed either.
 */
export type FileState = 'unchanged' | 'changed' | 'missing' | 'added' | 'notIndexed'

/** The files under the root that the index holds stale, by `/`-separated relative path, and those it never held. */
export interface DiskView {
  readonly changed: ReadonlySet<string>
  readonly missing: ReadonlySet<string>
  readonly added: ReadonlySet<string>
  /** Not stale: unchanged since indexing, never indexed. */
  readonly notIndexed: ReadonlySet<string>
}

/** A view and its {@link DiskState.mark}. */
interface Compared {
  readonly view: DiskView
  readonly mark: string
}

/** Every stale file of a view (changed, missing, added), sorted. */
export function staleOf(view: DiskView): string[] {
  return [...view.changed, ...view.missing, ...view.added].sort()
}

/** The disk of one indexed root, compared with its sidecar. */
export class DiskState {
  /** By relative path: the stat key a hash was read under, and the hash. */
  private readonly hashes = new Map<string, CachedHash>()
  /** Hashes read (or dropped) since the cache was last loaded or written. */
  private dirty = false
  /** The latest view and when it began ({@link view}'s `notBefore`). */
  private latest: { readonly began: number; readonly compared: Promise<Compared> } | undefined

  constructor(
    readonly root: string,
    private readonly sidecar: IndexSidecar,
    /** The extensions (lowercase, with the dot) whose files an index of this kind would hold. */
    private readonly extensions: ReadonlySet<string>,
    private readonly options: {
      /** Where the hash cache is kept between processes ({@link diskHashesFile} of the entry), if anywhere. */
      readonly hashesFile?: string
      /** The wall clock, milliseconds (default `Date.now`): when a file was read, against its times. */
      readonly now?: () => number
    } = {},
  ) {}

  /** Whether the index holds this document (relative path). */
  indexed(relative: string): boolean {
    return Object.hasOwn(this.sidecar.documents, relative)
  }

  /**
   * The state of one file. `knownHash` is the sha-256 of its UTF-8 text when the caller has it (the seam's
   * `snapshot.hash`): then nothing is read.
   */
  async fileState(relative: string, knownHash?: string): Promise<FileState> {
    return this.stateOf(relative, knownHash).state
  }

  private stateOf(relative: string, knownHash?: string): { readonly state: FileState; readonly hash?: string } {
    const indexed = this.sidecar.documents[relative]
    const hash = knownHash ?? this.hashOf(relative)
    if (hash === undefined) return { state: 'missing' }
    if (indexed === undefined) return { state: this.sidecar.unindexed?.[relative] === hash ? 'notIndexed' : 'added', hash }
    return { state: hash === indexed ? 'unchanged' : 'changed', hash }
  }

  /** The file's sha-256 now (cached by stat key), or undefined when it is not a readable file. */
  private hashOf(relative: string): string | undefined {
    const path = nodePath.join(this.root, ...relative.split('/'))
    try {
      const info = statSync(path, { bigint: true, throwIfNoEntry: false })
      if (info === undefined || !info.isFile()) {
        this.forget(relative)
        return undefined
      }
      const key = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
      const cached = this.hashes.get(relative)
      if (cached?.key === key) return cached.hash
      const read = (this.options.now ?? Date.now)()
      const hash = sha256(readFileSync(path))
      const touched = Number((info.mtimeNs > info.ctimeNs ? info.mtimeNs : info.ctimeNs) / 1_000_000n)
      this.hashes.set(relative, { key, hash, settled: touched < read - settledMs })
      this.dirty = true
      return hash
    } catch {
      this.forget(relative)
      return undefined
    }
  }

  private forget(relative: string): void {
    if (this.hashes.delete(relative)) this.dirty = true
  }

  /**
   * Takes in the hashes a previous process wrote (`disk-hashes.json` of the entry, see {@link saveHashes}); a missing or
   * malformed file adds none. A hash is used only while its file's stat key is unchanged.
   */
  async loadHashes(file = this.options.hashesFile): Promise<void> {
    if (file === undefined) return
    let entries: unknown
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as { format?: unknown; root?: unknown; hashes?: unknown }
      if (parsed.format !== 1 || parsed.root !== this.root) return
      entries = parsed.hashes
    } catch {
      return
    }
    if (typeof entries !== 'object' || entries === null) return
    for (const [relative, value] of Object.entries(entries)) {
      if (!Array.isArray(value) || value.length !== 2) continue
      const [key, hash] = value as unknown[]
      if (typeof key !== 'string' || typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) continue
      if (!this.hashes.has(relative)) this.hashes.set(relative, { key, hash, settled: true })
    }
  }

  /**
   * Writes the settled hashes read so far to `file` (atomically: a temporary file renamed), when any changed since
   * the cache was loaded or last written; errors are swallowed (it is a cache).
   */
  async saveHashes(file = this.options.hashesFile): Promise<void> {
    if (file === undefined || !this.dirty) return
    this.dirty = false
    const hashes: Record<string, [string, string]> = {}
    for (const [relative, cached] of this.hashes) if (cached.settled) hashes[relative] = [cached.key, cached.hash]
    if (!(await writeCacheFile(file, { format: 1, root: this.root, hashes }))) this.dirty = true
  }

  /**
   * Every stale file under the root: the indexed documents that changed or are gone, and the files of the index's
   * extensions it does not hold (outside `node_modules` and dot-folders, symbolic links not followed, as the
   * store's key walks).
   *
   * With `notBefore` (a `performance.now()` time, e.g. when a question came): a view that began at or after it is
   * reused, finished or under way (it saw every change made before that moment); otherwise a new one is taken.
   */
  async view(notBefore?: number): Promise<DiskView> {
    return (await this.compared(notBefore)).view
  }

  /**
   * A digest of what the disk holds against the index, from a view as {@link view} takes it: every stale file with
   * its content's hash (a missing one by its path). Equal marks: no file of the index's extensions under the root was
   * written, created or deleted in between with other content (a file written back to what was indexed is unchanged
   * again). A composition's change mark (RFC 0026). Always from a listing begun now; {@link view} may reuse it.
   */
  async mark(): Promise<string> {
    return (await this.compared(undefined)).mark
  }

  private compared(notBefore: number | undefined): Promise<Compared> {
    const latest = this.latest
    if (notBefore !== undefined && latest !== undefined && latest.began >= notBefore) return latest.compared
    const began = performance.now()
    const compared = this.walkAndCompare()
    this.latest = { began, compared }
    compared.catch(() => {
      if (this.latest?.compared === compared) this.latest = undefined
    })
    return compared
  }

  private async walkAndCompare(): Promise<Compared> {
    let since = performance.now()
    const turn = async () => {
      if (performance.now() - since < sliceMs) return
      await new Promise((resolve) => setImmediate(resolve))
      since = performance.now()
    }
    const listed: string[] = []
    const walk = async (folder: string, relative: string): Promise<void> => {
      let entries
      try {
        entries = readdirSync(folder, { withFileTypes: true })
      } catch {
        return
      }
      for (const entry of entries) {
        const name = relative === '' ? entry.name : `${relative}/${entry.name}`
        if (entry.isDirectory()) {
          if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
          await walk(nodePath.join(folder, entry.name), name)
        } else if (entry.isFile() && this.extensions.has(extensionOf(entry.name) ?? '')) {
          listed.push(name)
        }
      }
      await turn()
    }
    await walk(this.root, '')
    const changed = new Set<string>()
    const missing = new Set<string>()
    const added = new Set<string>()
    const notIndexed = new Set<string>()
    const stale: string[] = []
    for (const relative of listed) {
      if (this.indexed(relative)) continue
      const { state, hash } = this.stateOf(relative)
      if (state === 'notIndexed') notIndexed.add(relative)
      else {
        added.add(relative)
        stale.push(`${relative}\0${hash ?? ''}`)
      }
      await turn()
    }
    // Every indexed document is checked, listed or not (one under a dot-folder is stat'ed directly).
    for (const relative of Object.keys(this.sidecar.documents)) {
      const { state, hash } = this.stateOf(relative)
      if (state === 'changed') changed.add(relative)
      else if (state === 'missing') missing.add(relative)
      if (state === 'changed' || state === 'missing') stale.push(`${relative}\0${hash ?? ''}`)
      await turn()
    }
    return { view: { changed, missing, added, notIndexed }, mark: sha256(stale.sort().join('\n')) }
  }
}
