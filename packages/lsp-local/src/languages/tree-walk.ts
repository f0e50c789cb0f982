import { readdirSync, statSync, type Dirent } from 'node:fs'
import * as nodePath from 'node:path'

/*
 * The walk untrusted-root rules use to find the workspace files no setting can neutralise (a `.cargo/config.toml`,
 * a `buf.yaml` that names plugins): every folder but version control, dependencies and build output, bounded.
 */

const skipped = new Set(['.git', '.hg', '.svn', 'node_modules', 'target'])

/** Whether the walk leaves a folder of this name out (version control, dependencies, build output). */
export const isSkippedFolder = (name: string): boolean => skipped.has(name)

/** At most this many folders are walked; past it the root is refused (nothing unseen is assumed safe). */
export const configWalkLimit = 20_000

/**
 * Calls `visit` for every entry below `root` (folders are entered after their visit, unless skipped); false when
 * the walk hit {@link configWalkLimit}.
 */
export function walkTree(root: string, visit: (entry: Dirent, path: string) => void): boolean {
  const pending = [root]
  let walked = 0
  while (pending.length > 0) {
    const folder = pending.pop() as string
    if (++walked > configWalkLimit) return false
    let entries
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      continue
    }
    for (const entry of entries) {
      const path = nodePath.join(folder, entry.name)
      visit(entry, path)
      if (entry.isDirectory() && !skipped.has(entry.name)) pending.push(path)
    }
  }
  return true
}

/** What a stat says of each path (identity, size, modification time; `-` when missing): changes when any changes. */
export function statPrint(paths: ReadonlyArray<string>): string {
  return paths
    .map((path) => {
      const info = statSync(path, { throwIfNoEntry: false, bigint: true })
      return info === undefined ? '-' : `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
    })
    .join('|')
}
