import { readFileSync, statSync } from 'node:fs'
import * as nodePath from 'node:path'

/*
 * Git worktrees of one repository are roots whose files differ (another branch checked out): one server must not
 * hold both, or a definition in one could answer from the other's copy (RFC 0025). Told from the root's own `.git`
 * alone — nothing outside the root is read: a `.git` folder is a repository's main working tree; a `.git` file
 * (`gitdir: <repo>/.git/worktrees/<name>`) is a linked worktree of `<repo>/.git`.
 */

/** The repository (its common `.git` folder) a root is a working tree of, when the root is a working tree's top. */
export function repositoryOf(root: string): string | undefined {
  const dotGit = nodePath.join(root, '.git')
  const info = statSync(dotGit, { throwIfNoEntry: false })
  if (info === undefined) return undefined
  if (info.isDirectory()) return dotGit
  if (!info.isFile()) return undefined
  let text: string
  try {
    text = readFileSync(dotGit, 'utf8')
  } catch {
    return undefined
  }
  const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1]
  if (gitdir === undefined) return undefined
  const absolute = nodePath.resolve(root, gitdir)
  // A linked worktree's git dir lives in its repository's `worktrees/` folder; anything else names its own.
  return nodePath.basename(nodePath.dirname(absolute)) === 'worktrees' ? nodePath.dirname(nodePath.dirname(absolute)) : absolute
}

/** Whether two roots are different working trees of one repository (worktrees: never served by one server). */
export function worktreesOfOneRepository(roots: ReadonlyArray<string>): boolean {
  const seen = new Set<string>()
  for (const root of roots) {
    const repository = repositoryOf(root)
    if (repository === undefined) continue
    if (seen.has(repository)) return true
    seen.add(repository)
  }
  return false
}
