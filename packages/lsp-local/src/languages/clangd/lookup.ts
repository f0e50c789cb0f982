import { execFile } from 'node:child_process'
import { realpathSync, statSync } from 'node:fs'
import * as nodePath from 'node:path'

import { pathEntriesMatching } from '../lookup.js'

const versionedClangd = /^clangd-(\d+)$/

/**
 * The clangd executables on PATH, newest first, without running any: `clangd-NN` by descending NN (Debian's
 * `clangd-19` package installs `/usr/bin/clangd-19`), then plain `clangd`, whose version its name does not
 * tell. Equal versions keep PATH order; relative PATH entries are ignored.
 */
export function findClangdCandidates(path = process.env['PATH'] ?? ''): ReadonlyArray<string> {
  const found = pathEntriesMatching(/^clangd(-\d+)?$/, path)
  const versioned = found
    .map((entry, order) => ({ path: entry.path, major: Number(versionedClangd.exec(entry.name)?.[1] ?? NaN), order }))
    .filter((entry) => !Number.isNaN(entry.major))
  versioned.sort((a, b) => b.major - a.major || a.order - b.order)
  return [...versioned.map((v) => v.path), ...found.filter((entry) => entry.name === 'clangd').map((entry) => entry.path)]
}

/** The newest clangd on PATH (see {@link findClangdCandidates}), or undefined when there is none. */
export function findClangd(path = process.env['PATH'] ?? ''): string | undefined {
  return findClangdCandidates(path)[0]
}

/** `clangd --version` answers, by real path and modification time. */
const probedVersions = new Map<string, Promise<number | undefined>>()

/**
 * The major version of a clangd executable, without running it when its name (`clangd-19`) or its real path
 * (Debian's `/usr/bin/clangd` → `/usr/lib/llvm-14/bin/clangd`) tells; otherwise `clangd --version`, run
 * asynchronously without a shell and bounded, so the host's start never blocks the event loop on it, and
 * once per process for each real path and modification time.
 */
export async function clangdMajor(executable: string): Promise<number | undefined> {
  const fromName = versionedClangd.exec(nodePath.basename(executable))
  if (fromName !== null) return Number(fromName[1])
  let real: string
  let mtime: number
  try {
    real = realpathSync(executable)
    mtime = statSync(real).mtimeMs
  } catch {
    return undefined
  }
  const fromPath = /[/\\]llvm-(\d+)[/\\]/.exec(real)
  if (fromPath !== null) return Number(fromPath[1])
  // Asked once per executable and modification time: every host a process creates reuses the answer.
  const key = `${real}\0${mtime}`
  let probe = probedVersions.get(key)
  if (probe === undefined) {
    probe = new Promise<number | undefined>((resolve) => {
      execFile(executable, ['--version'], { encoding: 'utf8', timeout: 10_000, windowsHide: true }, (_error, out) => {
        const match = /clangd version (\d+)/.exec(typeof out === 'string' ? out : '')
        resolve(match?.[1] === undefined ? undefined : Number(match[1]))
      })
    })
    probedVersions.set(key, probe)
  }
  return probe
}
