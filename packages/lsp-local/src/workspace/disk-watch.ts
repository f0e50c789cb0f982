import { watch, statSync, type FSWatcher } from 'node:fs'
import { readdir } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { extensionOf, pathToUri } from '@codeseam/lsp'
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol/node'

import { skippedFolders } from '../profile/files.js'

import type { ConfigWatch } from '../languages/record.js'

export type { ConfigWatch } from '../languages/record.js'

/**
 * Watches one server's project folder for files of its languages created, changed or deleted by someone
 * else (an agent's own file tools), so the server can be told with didChangeWatchedFiles before
 * whole-workspace queries. One non-recursive watcher per folder (dependency and build folders skipped);
 * events are collected and handed out by {@link DiskWatch.take}.
 */
export class DiskWatch {
  private readonly watchers = new Map<string, FSWatcher>()
  private readonly known = new Set<string>()
  private readonly pending = new Map<string, FileChangeType>()
  /** Symbolic links with a language's name found by the first walk (not followed): the caller checks where they point. */
  readonly links: string[] = []
  /** Folders created since being watched, still being read. */
  private readonly scans = new Set<Promise<void>>()
  private closed = false
  /** False when the tree has too many folders to watch: callers fall back to scanning. */
  complete = true

  private constructor(
    private readonly extensions: ReadonlySet<string>,
    private readonly maxFolders: number,
    private readonly config: ConfigWatch | undefined,
  ) {}

  /** Watches every folder under `roots` (a server's folder, and the other workspace roots it serves: RFC 0025). */
  static async start(
    roots: ReadonlyArray<string>,
    extensions: ReadonlySet<string>,
    maxFolders = 4_000,
    config?: ConfigWatch,
  ): Promise<DiskWatch> {
    const disk = new DiskWatch(extensions, maxFolders, config)
    for (const root of roots) await disk.add(root, false)
    return disk
  }

  private matches(path: string): boolean {
    const extension = extensionOf(path)
    if (extension !== undefined && this.extensions.has(extension)) return true
    // Exact file names a profile claims (`Dockerfile`) are in the same set (RFC 0020).
    if (this.extensions.has(nodePath.basename(path))) return true
    return this.config?.isConfig(path) === true
  }

  /** A watched project config changed: tell the owner once per event. */
  private configChanged(path: string): void {
    if (this.config?.isConfig(path) === true) this.config.onConfigChange()
  }

  /** Watches a folder and everything under it; `announce` marks files found as created. */
  private async add(dir: string, announce: boolean): Promise<void> {
    const queue = [dir]
    while (queue.length > 0 && !this.closed) {
      const current = queue.shift() as string
      if (this.watchers.has(current)) continue
      if (this.watchers.size >= this.maxFolders) {
        // Too many folders to watch: callers scan instead, so the watchers opened so far are of no use.
        this.complete = false
        this.close()
        return
      }
      try {
        const watcher = watch(current, { persistent: false }, (_event, name) =>
          this.changed(current, name === null ? undefined : String(name)),
        )
        watcher.on('error', () => this.forget(current))
        this.watchers.set(current, watcher)
      } catch {
        continue
      }
      let entries: import('node:fs').Dirent[]
      try {
        entries = await readdir(current, { withFileTypes: true })
      } catch {
        continue
      }
      for (const entry of entries) {
        const path = nodePath.join(current, entry.name)
        if (entry.isDirectory()) {
          if (!skippedFolders.has(entry.name) && !entry.name.startsWith('.')) queue.push(path)
        } else if (entry.isSymbolicLink() && !announce && this.matches(path)) {
          this.links.push(path)
        } else if (entry.isFile() && this.matches(path) && !this.known.has(path)) {
          this.known.add(path)
          if (announce) {
            this.pending.set(path, FileChangeType.Created)
            this.configChanged(path)
          }
        }
      }
    }
  }

  private forget(dir: string): void {
    this.watchers.get(dir)?.close()
    this.watchers.delete(dir)
  }

  private changed(dir: string, name: string | undefined): void {
    if (name === undefined || this.closed) return
    const path = nodePath.join(dir, name)
    const info = statSync(path, { throwIfNoEntry: false })
    if (info?.isDirectory()) {
      if (!skippedFolders.has(name) && !name.startsWith('.')) {
        // A new folder's files are announced once it has been read: take() waits for that.
        const scan = this.add(path, true).finally(() => this.scans.delete(scan))
        this.scans.add(scan)
      }
      return
    }
    if (info === undefined) {
      // A deleted folder takes its files with it.
      for (const [watched] of this.watchers) if (watched === path || watched.startsWith(path + nodePath.sep)) this.forget(watched)
      for (const file of this.known) {
        if (file === path || file.startsWith(path + nodePath.sep)) {
          this.known.delete(file)
          // Created and deleted again before anyone was told: the server never knew it, so say nothing.
          if (this.pending.get(file) === FileChangeType.Created) this.pending.delete(file)
          else this.pending.set(file, FileChangeType.Deleted)
          this.configChanged(file)
        }
      }
      return
    }
    if (!info.isFile() || !this.matches(path)) return
    this.configChanged(path)
    if (this.known.has(path)) {
      if (!this.pending.has(path)) this.pending.set(path, FileChangeType.Changed)
    } else {
      this.known.add(path)
      this.pending.set(path, FileChangeType.Created)
    }
  }

  /**
   * The changes seen since the last call. Yields to the event loop first, so changes made just before
   * the query (already queued by the kernel) are read.
   */
  async take(): Promise<FileEvent[]> {
    await new Promise((resolve) => setImmediate(resolve))
    while (this.scans.size > 0) await Promise.all(this.scans)
    const events = [...this.pending].map(([path, type]) => ({ uri: pathToUri(path), type }))
    this.pending.clear()
    return events
  }

  close(): void {
    this.closed = true
    for (const watcher of this.watchers.values()) watcher.close()
    this.watchers.clear()
  }
}

/** One watch telling every owner of what each watches (undefined when none watches anything). */
export function combinedWatch(watches: ReadonlyArray<ConfigWatch | undefined>): ConfigWatch | undefined {
  const given = watches.filter((watch): watch is ConfigWatch => watch !== undefined)
  if (given.length <= 1) return given[0]
  return {
    isConfig: (path) => given.some((watch) => watch.isConfig(path)),
    onConfigChange: () => {
      for (const watch of given) watch.onConfigChange()
    },
  }
}
