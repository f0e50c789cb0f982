import { readdir } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { compareText, extensionOf, normalizeExtension } from '@codeseam/lsp'

import type { ServerProfile } from './profiles.js'

/** Folders never walked: dependencies, build output, VCS and caches. */
export const skippedFolders: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  'dist',
  'build',
  'out',
  'target',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.next',
  '.turbo',
  'coverage',
])

/**
 * Files under `root` (breadth-first, bounded) whose extension is in `extensions`, or whose name is in
 * `names`. Symbolic links are not followed, so the walk never leaves the root; those with a matching name are
 * listed apart (`links`), for the caller to check where they point.
 */
export async function listFiles(
  root: string,
  match: { readonly extensions?: ReadonlySet<string>; readonly names?: ReadonlySet<string> },
  limit = 10_000,
): Promise<{ files: string[]; complete: boolean; links: string[] }> {
  const files: string[] = []
  const links: string[] = []
  const queue = [root]
  let visitedDirs = 0
  while (queue.length > 0) {
    const dir = queue.shift() as string
    if (++visitedDirs > 20_000) return { files, complete: false, links }
    let entries: import('node:fs').Dirent[]
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch {
      continue
    }
    entries.sort((a, b) => compareText(a.name, b.name))
    for (const entry of entries) {
      const path = nodePath.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name) && !entry.name.startsWith('.')) queue.push(path)
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        const extension = extensionOf(entry.name)
        if ((extension !== undefined && match.extensions?.has(extension)) || match.names?.has(entry.name)) {
          if (entry.isSymbolicLink()) links.push(path)
          else files.push(path)
          if (files.length >= limit) return { files, complete: false, links }
        }
      }
    }
  }
  return { files, complete: true, links }
}

/** The extensions of a profile's languages, normalized as {@link listFiles} matches them. */
export function profileExtensions(profile: ServerProfile): Set<string> {
  return new Set(Object.keys(profile.extensions).flatMap((e) => normalizeExtension(e) ?? []))
}

/**
 * The language id a profile gives a file by its exact name, else its extension ('' when it names none: a file
 * routed by its `#!` line takes the seam's language id). The one answer every part of the host uses (RFC 0020).
 */
export function languageIdOf(profile: Pick<ServerProfile, 'extensions' | 'fileNames'>, path: string): string {
  return profile.fileNames?.[nodePath.basename(path)] ?? profile.extensions[extensionOf(path) ?? ''] ?? ''
}

/** The extensions and exact file names a profile claims: what the disk watch and file listings match. */
export function profileFileNames(profile: ServerProfile): Set<string> {
  return new Set(Object.keys(profile.fileNames ?? {}))
}
