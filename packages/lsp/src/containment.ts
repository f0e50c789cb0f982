import { realpathSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { LspError } from './errors.js'
import { canonicalPath, extensionOf, isWithin, resolveInRoot, uriToPath } from './paths.js'

declare const workspacePathBrand: unique symbol

/**
 * A caller path the seam resolved and checked against one workspace root: lexically inside, and inside
 * after symbolic links are followed. Only {@link Containment} makes them (the brand cannot be forged: see
 * {@link isWorkspacePath}), so a provider or workspace handed one uses it as is instead of resolving the
 * caller's spelling again. A value for one call: it says where the path led when it was resolved.
 */
export interface WorkspacePath {
  readonly [workspacePathBrand]: true
  /** Canonical absolute path (symbolic links followed; a missing tail joined to its real parent). */
  readonly path: string
  /** The absolute path as the caller spelled it, normalized (the name an editor may know the file by). */
  readonly lexical: string
  /** The canonical root it is inside. */
  readonly root: string
  /** Root-relative path with forward slashes (`.` for the root itself). */
  readonly relative: string
  /** `.ts` for `a.d.ts`; undefined without one (see {@link extensionOf}). */
  readonly extension: string | undefined
  /** Whether it existed when resolved (its realpath succeeded). */
  readonly exists: boolean
}

/** Every WorkspacePath made here: what {@link isWorkspacePath} trusts. */
const issued = new WeakSet<object>()

/** Whether `value` is a WorkspacePath this seam made (under `root`, when given). */
export function isWorkspacePath(value: unknown, root?: string): value is WorkspacePath {
  return typeof value === 'object' && value !== null && issued.has(value) && (root === undefined || (value as WorkspacePath).root === root)
}

/** Caches stay bounded: past the limit one starts over (they only save work). */
const cacheLimit = 50_000

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= cacheLimit) cache.clear()
  cache.set(key, value)
}

/**
 * The one containment rule of the seam, for every backend: a path is inside a canonical root when it is
 * lexically inside it and still inside after symbolic links are followed. Caller input that escapes fails
 * with OUTSIDE_WORKSPACE (over `maxPathLength` characters: INVALID_ARGUMENT, before any file-system
 * work, see `maxPathLength`); server output that escapes is dropped (undefined) and counted by the caller.
 */
export class Containment {
  /** realpath results per path; symlinks inside a workspace rarely change while a host runs. */
  private readonly realCache = new Map<string, string>()
  /** Answers built only from cached realpath results (so they hold exactly as long as those do). */
  private readonly inputCache = new Map<string, WorkspacePath>()
  private readonly outputCache = new Map<string, string | undefined>()

  /** `root` must be canonical (see {@link forRoot}). */
  constructor(readonly root: string) {}

  /** Canonicalizes a root (realpath). NOT_FOUND when it does not exist. */
  static async forRoot(root: string): Promise<Containment> {
    if (!nodePath.isAbsolute(root)) throw new LspError('INVALID_ARGUMENT', `workspace root "${root}" must be an absolute path`)
    try {
      return new Containment(await realpath(root))
    } catch (error) {
      throw new LspError('NOT_FOUND', `workspace root ${root} does not exist`, { cause: error })
    }
  }

  /** Canonical path of an existing file (cached), or of its nearest existing ancestor joined with the rest (not cached). */
  private canonical(path: string): { real: string; exists: boolean } {
    const cached = this.realCache.get(path)
    if (cached !== undefined) return { real: cached, exists: true }
    let real: string
    try {
      real = realpathSync(path)
    } catch {
      const parent = nodePath.dirname(path)
      return { real: parent === path ? path : nodePath.join(canonicalPath(parent), nodePath.basename(path)), exists: false }
    }
    if (this.realCache.size >= cacheLimit) this.invalidate()
    this.realCache.set(path, real)
    return { real, exists: true }
  }

  /** Forgets cached symlink resolutions (after files were created, renamed or deleted, or a link escaped). */
  invalidate(): void {
    this.realCache.clear()
    this.inputCache.clear()
    this.outputCache.clear()
  }

  /**
   * A caller path (absolute, relative to the root, or a file URI) resolved inside the root. Traversal,
   * external paths, encoded traversal, non-file URIs and symlinks out → OUTSIDE_WORKSPACE.
   */
  resolve(path: string): WorkspacePath {
    const known = this.inputCache.get(path)
    if (known !== undefined) return known
    const lexical = resolveInRoot(this.root, path)
    const { real, exists } = this.canonical(lexical)
    if (!isWithin(this.root, real)) {
      throw new LspError(
        'OUTSIDE_WORKSPACE',
        `"${path}" resolves (through a symbolic link) to ${real}, outside the workspace root ${this.root}`,
        { data: { path, root: this.root } },
      )
    }
    const relative = nodePath.relative(this.root, real)
    const resolved = {
      path: real,
      lexical,
      root: this.root,
      relative: relative === '' ? '.' : relative.split(nodePath.sep).join('/'),
      extension: extensionOf(real),
      exists,
    } as WorkspacePath
    // Frozen: a provider trusts what it says, so nobody may point it elsewhere afterwards.
    issued.add(Object.freeze(resolved))
    if (exists) remember(this.inputCache, path, resolved)
    return resolved
  }

  /**
   * {@link resolve} without the caches, for the moment a file is read or written: a file checked before may
   * since have been replaced by a symbolic link that points out. Refreshes the caches.
   */
  fresh(path: string): WorkspacePath {
    const lexical = resolveInRoot(this.root, path)
    const before = this.realCache.get(lexical)
    this.inputCache.delete(path)
    this.realCache.delete(lexical)
    try {
      return this.resolve(path)
    } finally {
      // Resolved differently than before: answers built on the old resolution (other spellings of this
      // path, URIs of files under it) are wrong too.
      if (before !== undefined && this.realCache.get(lexical) !== before) this.invalidate()
    }
  }

  /** {@link resolve}'s canonical path (the spelling a local host uses). */
  input(path: string): string {
    return this.resolve(path).path
  }

  /** A server-produced URI as a path inside the root (its lexical spelling), or undefined when it must be dropped. */
  output(uri: string): string | undefined {
    if (this.outputCache.has(uri)) return this.outputCache.get(uri)
    const path = uriToPath(uri)
    if (path === undefined || !isWithin(this.root, path)) {
      remember(this.outputCache, uri, undefined)
      return undefined
    }
    const { real, exists } = this.canonical(path)
    const answer = isWithin(this.root, real) ? path : undefined
    if (exists) remember(this.outputCache, uri, answer)
    return answer
  }

  /**
   * The canonical path of an absolute path when that is inside the root, else undefined: for a backend whose
   * answers may name files through a symbolic link to the root (an editor folder opened through a link).
   */
  canonicalInside(path: string): string | undefined {
    const { real } = this.canonical(nodePath.normalize(path))
    return isWithin(this.root, real) ? real : undefined
  }

  /** Whether a path (already absolute) is inside the root after symlink resolution. */
  contains(path: string): boolean {
    return isWithin(this.root, path) && isWithin(this.root, this.canonical(path).real)
  }
}

/**
 * Refuses to read `path` when it now resolves (through a symbolic link) outside `root`: the check every read
 * from disk makes at the moment of reading, whatever was cached about the path before.
 */
export function assertReadable(root: string, path: string): void {
  let real: string
  try {
    real = realpathSync(path)
  } catch {
    return // missing: the read itself reports NOT_FOUND
  }
  if (!isWithin(root, real)) {
    throw new LspError(
      'OUTSIDE_WORKSPACE',
      `${path} now resolves (through a symbolic link) to ${real}, outside the workspace root ${root}; it was not read`,
      { data: { path, root } },
    )
  }
}

/** Resolves `path` under a canonical `root` once, uncached: the seam's containment for a one-off check. */
export function containPath(root: string, path: string): WorkspacePath {
  return new Containment(root).resolve(path)
}
