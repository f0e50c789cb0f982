import { execFile } from 'node:child_process'
import { readdirSync, realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import * as nodePath from 'node:path'

import { ownPackageRequire } from '../profile/own-packages.js'

/*
 * Finding a server's executable without a shell and without running it: in this package's own npm
 * dependencies, on PATH, or in a fixed folder (Go's bin, a cargo root).
 */

/** The folder of one of this package's own npm dependencies, or undefined when it is not installed. */
export function packageDir(name: string): string | undefined {
  const require = ownPackageRequire()
  try {
    return nodePath.dirname(realpathSync(require.resolve(`${name}/package.json`)))
  } catch {
    // A package whose `exports` hide its package.json (some-sass-language-server): the folder where Node.js would
    // look for it, found by path.
    for (const modules of require.resolve.paths(name) ?? []) {
      try {
        return nodePath.dirname(realpathSync(nodePath.join(modules, name, 'package.json')))
      } catch {
        // not in this folder
      }
    }
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

/**
 * The lines a toolchain command prints (`go env GOROOT`, `rustc --print sysroot`), run in the home folder — never
 * in a workspace, whose files could choose the toolchain — without a shell, bounded; undefined when it fails.
 */
export function toolchainLines(
  command: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {},
): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile(
      command,
      [...args],
      { encoding: 'utf8', timeout: 10_000, cwd: homedir(), env: { ...process.env, ...env }, windowsHide: true },
      (error, out) =>
        resolve(
          error === null && typeof out === 'string'
            ? out
                .split('\n')
                .map((line) => line.trim())
                .filter((line) => line !== '')
            : undefined,
        ),
    )
  })
}

const versionProbes = new Map<string, Promise<string | undefined>>()

/**
 * An executable's version as it reports it (`gopls version`, `buf --version`): run in the home folder (never a
 * workspace), without a shell, bounded, once per executable and arguments; the first group of `pattern` in its
 * output, undefined when it fails.
 */
export function probeVersion(executable: string, args: ReadonlyArray<string>, pattern: RegExp): Promise<string | undefined> {
  const key = [executable, ...args].join('\0')
  let probe = versionProbes.get(key)
  if (probe === undefined) {
    probe = new Promise((resolve) => {
      execFile(executable, [...args], { encoding: 'utf8', timeout: 10_000, cwd: homedir(), windowsHide: true }, (error, out) => {
        resolve(error === null ? pattern.exec(typeof out === 'string' ? out : '')?.[1] : undefined)
      })
    })
    versionProbes.set(key, probe)
  }
  return probe
}

/** Where codeseam's own install commands put a built server: `$XDG_CACHE_HOME/codeseam/NAME`, else `~/.cache/codeseam/NAME`. */
export function codeseamCacheDir(name: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const cache =
    env['XDG_CACHE_HOME'] !== undefined && env['XDG_CACHE_HOME'] !== '' ? env['XDG_CACHE_HOME'] : nodePath.join(homedir(), '.cache')
  return nodePath.join(cache, 'codeseam', name)
}
