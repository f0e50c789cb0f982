import { randomUUID } from 'node:crypto'
import type { Stats } from 'node:fs'
import { chmod, lstat, rename, rm, stat, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'

/** STALE_VERSION for a file that is no longer the one that was read: replaced, changed, or now a link. */
export function replacedError(path: string, now: Stats | undefined): LspError {
  const what =
    now === undefined
      ? 'was removed'
      : now.isSymbolicLink()
        ? 'was replaced by a symbolic link'
        : now.isFile()
          ? 'changed'
          : 'was replaced by something that is not a file'
  return new LspError(
    'STALE_VERSION',
    `${path} ${what} while the edit was being applied; nothing was written to it; compute the edit again`,
    {
      data: { path },
    },
  )
}

/** Whether the file at a path is still the one `read` describes: same inode, size and modification time, not a link. */
async function unchanged(path: string, read: Stats): Promise<Stats | undefined | true> {
  const now = await lstat(path).catch(() => undefined)
  if (
    now === undefined ||
    !now.isFile() ||
    now.ino !== read.ino ||
    now.dev !== read.dev ||
    now.size !== read.size ||
    now.mtimeMs !== read.mtimeMs
  )
    return now
  return true
}

/**
 * Replaces a file's text all at once (temp file + rename), keeping its permission bits (an executable
 * script stays executable). A file with other hard links is rewritten in place instead: a rename would
 * give this name a new inode and silently cut it off from its other names. With `read` (the lstat taken
 * before the file was read), the file must still be that file — same inode, size and modification time,
 * not a link — right before it is replaced, or nothing is written (STALE_VERSION): another writer's change
 * is not overwritten and a file swapped for a symbolic link is not replaced by a regular one. What is left
 * is the few microseconds between that check and the rename, which no portable call closes.
 */
export async function writeAtomically(path: string, text: string, read?: Stats): Promise<void> {
  const existing = await stat(path).catch(() => undefined)
  if (existing !== undefined && existing.nlink > 1) {
    if (read !== undefined) {
      const check = await unchanged(path, read)
      if (check !== true) throw replacedError(path, check)
    }
    await writeFile(path, text, 'utf8')
    return
  }
  const temp = nodePath.join(nodePath.dirname(path), `.${nodePath.basename(path)}.codeseam-${randomUUID()}.tmp`)
  try {
    await writeFile(temp, text, { encoding: 'utf8', ...(existing === undefined ? {} : { mode: existing.mode & 0o7777 }) })
    // writeFile's mode passes through the umask; the original's bits are restored exactly.
    if (existing !== undefined) await chmod(temp, existing.mode & 0o7777)
    if (read !== undefined) {
      const check = await unchanged(path, read)
      if (check !== true) throw replacedError(path, check)
    }
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    throw error
  }
}

/** Whether anything (a file, a folder, a link) is at `path`. */
export async function pathExists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  )
}
