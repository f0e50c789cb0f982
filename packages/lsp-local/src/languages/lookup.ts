import { readdirSync, realpathSync, statSync } from 'node:fs'
import * as nodePath from 'node:path'

import { ownPackageRequire } from '../policy/own-packages.js'

/*
 * Finding a server's executable without a shell and without running it: in this package's own npm
 * dependencies, on PATH, or in a fixed folder (Go's bin, a cargo root).
 */

/** The folder of one of this package's own npm dependencies, or undefined when it is not installed. */
export function packageDir(name: string): string | undefined {
  try {
    return nodePath.dirname(realpathSync(ownPackageRequire().resolve(`${name}/package.json`)))
  } catch {
    return undefined
  }
}

/** True when `path` is a regular file (or a link to one) someone may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    const stat = statSync(path)
    return stat.isFile() && (process.platform === 'win32' || (stat.mode & 0o111) !== 0)
  } catch {
    return false
  }
}

/** The absolute PATH entries, in order, each once (a relative entry names a different folder for every cwd). */
export function absolutePathEntries(path = process.env['PATH'] ?? ''): string[] {
  return [...new Set(path.split(nodePath.delimiter).filter((dir) => dir !== '' && nodePath.isAbsolute(dir)))]
}

/** The executables named `name` in `dirs`, in order. */
export function executablesNamed(name: string, dirs: ReadonlyArray<string>): string[] {
  return dirs.map((dir) => nodePath.join(dir, name)).filter(isExecutableFile)
}

/** Every file name in the absolute PATH entries matching `pattern`, with its folder, in PATH order. */
export function pathEntriesMatching(
  pattern: RegExp,
  path = process.env['PATH'] ?? '',
): Array<{ readonly path: string; readonly name: string }> {
  const out: Array<{ readonly path: string; readonly name: string }> = []
  for (const dir of absolutePathEntries(path)) {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      continue
    }
    for (const name of names) {
      const candidate = nodePath.join(dir, name)
      if (pattern.test(name) && isExecutableFile(candidate)) out.push({ path: candidate, name })
    }
  }
  return out
}
