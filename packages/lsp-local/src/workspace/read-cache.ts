import { BoundedCache, type LspDocumentSnapshot } from '@codeseam/lsp'

import { changedAt, statKey } from '../documents/stat-key.js'

/**
 * Snapshots of files a workspace read, each served again only while the file's stat key (mtime, ctime,
 * size, inode: the key document sync already trusts) is unchanged: a warm read costs one synchronous stat
 * instead of an open, a stat, a read and a close through the thread pool. Keys are canonical paths, looked
 * up only after the caller contained the path at the moment of reading (symbolic links followed).
 */

/** How much one workspace keeps, and when a read is kept at all. */
export const readCacheLimits = {
  /**
   * Beyond either limit the least recently used snapshots go. The text is held on the host's heap (a byte a
   * character for Latin-1 text, two otherwise): 8 Mi characters, so one workspace's cache stays well inside the
   * 80 MB codeseam's own processes aim at (issue 51; docs/performance.md, "Own RSS").
   */
  entries: 2048,
  characters: 8 * 1024 * 1024,
  /**
   * A file that changed this close (ms) before it was read is not kept: a file system's clock may be coarse,
   * so a second same-size write in the same tick could leave the stat key as it was. Older files are told
   * apart by their ctime, which every later write moves past the read.
   */
  racyChangeMs: 1000,
}

type Revised = LspDocumentSnapshot & { readonly revision: string }

export class ReadCache {
  private readonly entries = new BoundedCache<string, Revised>({
    get entries() {
      return readCacheLimits.entries
    },
    get size() {
      return readCacheLimits.characters
    },
  })

  /** The snapshot of `path` when the file has not changed since it was read; a fresh object each time. */
  get(path: string): LspDocumentSnapshot | undefined {
    const entry = this.entries.get(path)
    if (entry === undefined) return undefined
    if (statKey(path) !== entry.revision) {
      this.entries.delete(path)
      return undefined
    }
    // A copy: the seam freezes and binds each call's snapshot to the path it resolved in that call.
    return { ...entry }
  }

  /** Keeps a snapshot read from disk at `readStartedAt` (epoch ms), unless it changed too close to the read. */
  remember(snapshot: LspDocumentSnapshot, readStartedAt: number): void {
    const { revision } = snapshot
    if (revision === undefined || changedAt(revision) > readStartedAt - readCacheLimits.racyChangeMs) return
    this.entries.set(snapshot.path, { ...snapshot, revision }, snapshot.text.length)
  }

  clear(): void {
    this.entries.clear()
  }
}
