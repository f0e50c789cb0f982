import { existsSync, realpathSync, statSync } from 'node:fs'
import * as nodePath from 'node:path'

import { isWithin } from '@codeseam/lsp'

import { ownPackageRequire } from './own-packages.js'

/*
 * Finding executables without a shell, and telling whether a path is the workspace's: PATH lookups, PATH
 * sanitizing, version-manager shims, codeseam's own tsserver. Used by the trust rules and the profiles.
 */

/** PATH without entries that resolve inside the workspace: relative ones resolve against the cwd, which is the root. */
export function sanitizePath(path: string | undefined, workspaceRoot: string): string {
  return (path ?? '')
    .split(nodePath.delimiter)
    .filter((dir) => dir !== '' && nodePath.isAbsolute(dir) && !isWithin(workspaceRoot, canonical(dir)))
    .join(nodePath.delimiter)
}

/** Version-manager shim folders: the executable they run is chosen by files in the cwd (`.python-version`, `.tool-versions`, …). */
export function isShimDirectory(dir: string): boolean {
  return /[\\/](shims|\.?asdf[\\/]shims|mise[\\/]shims)$/.test(dir) || /[\\/]\.pyenv[\\/]plugins[\\/][^\\/]+[\\/]shims$/.test(dir)
}

/** The real path, or the resolved one when it does not exist (yet). */
export function canonical(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return nodePath.resolve(path)
  }
}

/** Whether `path` is a regular file (or a link to one); its mode bits are not checked. */
export function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** Finds an executable on a PATH string without a shell, optionally skipping version-manager shims. */
export function lookUp(name: string, path: string, options: { skipShims?: boolean } = {}): string | undefined {
  for (const dir of path.split(nodePath.delimiter)) {
    if (dir === '' || (options.skipShims === true && isShimDirectory(dir))) continue
    const candidate = nodePath.join(dir, name)
    if (isRegularFile(candidate)) return candidate
  }
  return undefined
}

/** Our own TypeScript's tsserver.js (never the workspace's node_modules/typescript). */
export function ownTsserverPath(): string | undefined {
  try {
    const path = nodePath.join(nodePath.dirname(ownPackageRequire().resolve('typescript/package.json')), 'lib', 'tsserver.js')
    return existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
}

/** Looks a bare executable name up on PATH without a shell. */
export function findOnPath(name: string, path = process.env['PATH'] ?? ''): string | undefined {
  for (const dir of path.split(nodePath.delimiter)) {
    if (dir === '') continue
    const candidate = nodePath.join(dir, name)
    if (existsSync(candidate)) return candidate
  }
  return undefined
}
