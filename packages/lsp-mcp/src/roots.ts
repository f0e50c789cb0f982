import { statSync } from 'node:fs'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'

/**
 * A workspace root given on the command line, made absolute and checked to be an existing folder (a cheap
 * `stat`, so `codeseam mcp` can refuse a bad --root before it serves; opening the session comes later).
 */
export function checkRootFolder(root: string): string {
  const absolute = nodePath.resolve(root)
  let info
  try {
    info = statSync(absolute)
  } catch {
    throw new LspError('NOT_FOUND', `workspace root ${absolute} does not exist: pass an existing folder with --root`)
  }
  if (!info.isDirectory()) throw new LspError('INVALID_ARGUMENT', `workspace root ${absolute} is not a folder`)
  return absolute
}

/** The roots a session opens: the given ones, or the current directory. */
export function givenRoots(roots: ReadonlyArray<string> | undefined): ReadonlyArray<string> {
  return roots === undefined || roots.length === 0 ? [process.cwd()] : roots
}
