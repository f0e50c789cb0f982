import { randomUUID } from 'node:crypto'
import { chmod, lstat, rename, rm, stat, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

/**
 * Replaces a file's text all at once (temp file + rename), keeping its permission bits (an executable
 * script stays executable). A file with other hard links is rewritten in place instead: a rename would
 * give this name a new inode and silently cut it off from its other names.
 */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const existing = await stat(path).catch(() => undefined)
  if (existing !== undefined && existing.nlink > 1) {
    await writeFile(path, text, 'utf8')
    return
  }
  const temp = nodePath.join(nodePath.dirname(path), `.${nodePath.basename(path)}.codeseam-${randomUUID()}.tmp`)
  try {
    await writeFile(temp, text, { encoding: 'utf8', ...(existing === undefined ? {} : { mode: existing.mode & 0o7777 }) })
    // writeFile's mode passes through the umask; the original's bits are restored exactly.
    if (existing !== undefined) await chmod(temp, existing.mode & 0o7777)
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
