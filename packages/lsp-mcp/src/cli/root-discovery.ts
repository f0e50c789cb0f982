import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import * as nodePath from 'node:path'

/*
 * Which folder a command started in a subfolder works on, as editors and peers find it: the enclosing version-control
 * root, else the nearest folder above holding a project's root file (a language record's root markers), else the
 * current folder. The home folder itself is never chosen from below it (a dotfiles repository there is not the
 * project). `--root` always wins; `--root .` keeps the current folder.
 */

/** Folders that make their parent a version-control root. */
export const vcsMarkers: ReadonlyArray<string> = ['.git', '.hg', '.svn', '.jj']

export interface DiscoveredRoot {
  readonly root: string
  /** How it was found: a VCS root, a project's root file, or nothing (the current folder). */
  readonly why: 'vcs' | 'project' | 'cwd'
  /** The marker that decided it (`.git`, `tsconfig.json`). */
  readonly marker?: string
}

export function discoverRoot(cwd: string, projectMarkers: ReadonlyArray<string>, home: string = homedir()): DiscoveredRoot {
  const start = nodePath.resolve(cwd)
  let project: { root: string; marker: string } | undefined
  for (let dir = start; ;) {
    if (dir === home && dir !== start) break
    const vcs = vcsMarkers.find((marker) => existsSync(nodePath.join(dir, marker)))
    if (vcs !== undefined) return { root: dir, why: 'vcs', marker: vcs }
    if (project === undefined) {
      const marker = projectMarkers.find((name) => existsSync(nodePath.join(dir, name)))
      if (marker !== undefined) project = { root: dir, marker }
    }
    const parent = nodePath.dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return project === undefined ? { root: start, why: 'cwd' } : { ...project, why: 'project' }
}

/** One line for stderr when the workspace is not the current folder: what was chosen, why, and how to narrow it. */
export function rootNote(found: DiscoveredRoot, cwd: string): string | undefined {
  if (found.root === nodePath.resolve(cwd)) return undefined
  const what = found.why === 'vcs' ? `the ${found.marker} root above this folder` : `the nearest folder above with ${found.marker}`
  return `workspace: ${found.root} (${what}; --root . for this folder only)`
}

/**
 * A PATH given on the command line, for the tool: taken from the current folder when it names something there,
 * else from the workspace root (as before root discovery, and as `--root DIR` from elsewhere needs).
 */
export function commandLinePath(path: string, cwd: string, root: string): string {
  if (nodePath.isAbsolute(path)) return path
  const fromCwd = nodePath.resolve(cwd, path)
  if (nodePath.resolve(cwd) === root || !existsSync(fromCwd)) return path
  const relative = nodePath.relative(root, fromCwd)
  return relative.startsWith('..') || nodePath.isAbsolute(relative) ? fromCwd : relative
}
