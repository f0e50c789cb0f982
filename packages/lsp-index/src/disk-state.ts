import { readdirSync, readFileSync, statSync } from 'node:fs'
import * as nodePath from 'node:path'

import { extensionOf } from '@codeseam/lsp'

import { sha256, type IndexSidecar } from './store.js'

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

/** Every stale file of a view (changed, missing, added), sorted. */
export function staleOf(view: DiskView): string[] {
  return [...view.changed, ...view.missing, ...view.added].sort()
}

/** The disk of one indexed root, compared with its sidecar. */
export class DiskState {
  /** By relative path: the stat key a hash was read under, and the hash. */
  private readonly hashes = new Map<string, { readonly key: string; readonly hash: string }>()

  constructor(
    readonly root: string,
    private readonly sidecar: IndexSidecar,
    /** The extensions (lowercase, with the dot) whose files an index of this kind would hold. */
    private readonly extensions: ReadonlySet<string>,
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
    const indexed = this.sidecar.documents[relative]
    const hash = knownHash ?? this.hashOf(relative)
    if (hash === undefined) return 'missing'
    if (indexed === undefined) return this.sidecar.unindexed?.[relative] === hash ? 'notIndexed' : 'added'
    return hash === indexed ? 'unchanged' : 'changed'
  }

  /** The file's sha-256 now (cached by stat key), or undefined when it is not a readable file. */
  private hashOf(relative: string): string | undefined {
    const path = nodePath.join(this.root, ...relative.split('/'))
    try {
      const info = statSync(path, { bigint: true, throwIfNoEntry: false })
      if (info === undefined || !info.isFile()) {
        this.hashes.delete(relative)
        return undefined
      }
      const key = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
      const cached = this.hashes.get(relative)
      if (cached?.key === key) return cached.hash
      const hash = sha256(readFileSync(path))
      this.hashes.set(relative, { key, hash })
      return hash
    } catch {
      this.hashes.delete(relative)
      return undefined
    }
  }

  /**
   * Every stale file under the root: the indexed documents that changed or are gone, and the files of the index's
   * extensions it does not hold (outside `node_modules` and dot-folders, symbolic links not followed, as the
   * store's key walks).
   */
  async view(): Promise<DiskView> {
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
    for (const relative of listed) {
      if (this.indexed(relative)) continue
      ;((await this.fileState(relative)) === 'notIndexed' ? notIndexed : added).add(relative)
      await turn()
    }
    // Every indexed document is checked, listed or not (one under a dot-folder is stat'ed directly).
    for (const relative of Object.keys(this.sidecar.documents)) {
      const state = await this.fileState(relative)
      if (state === 'changed') changed.add(relative)
      else if (state === 'missing') missing.add(relative)
      await turn()
    }
    return { changed, missing, added, notIndexed }
  }
}
