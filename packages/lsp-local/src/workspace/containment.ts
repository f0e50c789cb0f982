import { realpathSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { LspError, canonicalPath, isWithin, maxPathLength, resolveInRoot, uriToPath } from '@codeseam/lsp'

/** The seam's path-length limit (PATH_MAX), refused by `resolveInRoot` before any file-system work. */
export { maxPathLength }

/**
 * Keeps every path inside one canonical root. Inputs that escape fail with OUTSIDE_WORKSPACE; server
 * output that escapes is dropped and counted by the caller. Checked after symlink resolution.
 */
export class Containment {
  /** realpath results per path; symlinks inside a workspace rarely change while a host runs. */
  private readonly realCache = new Map<string, string>()
  /**
   * Answers of {@link input} and {@link output} built only from cached realpath results (so they hold
   * exactly as long as those do): the checks run on every query and every returned location.
   */
  private readonly inputCache = new Map<string, string>()
  private readonly outputCache = new Map<string, string | undefined>()

  private constructor(readonly root: string) {}

  /** Canonicalizes a root (realpath). NOT_FOUND when it does not exist. */
  static async forRoot(root: string): Promise<Containment> {
    if (!nodePath.isAbsolute(root)) throw new LspError('INVALID_ARGUMENT', `workspace root "${root}" must be an absolute path`)
    try {
      return new Containment(await realpath(root))
    } catch (error) {
      throw new LspError('NOT_FOUND', `workspace root ${root} does not exist`, { cause: error })
    }
  }

  /**
   * Canonical path of an existing file (cached), or of its nearest existing ancestor joined with the rest
   * (not cached: the file may appear later, and `cached` is false).
   */
  private canonical(path: string): { real: string; cached: boolean } {
    const cached = this.realCache.get(path)
    if (cached !== undefined) return { real: cached, cached: true }
    let real: string
    try {
      real = realpathSync(path)
    } catch {
      return { real: canonicalPath(path), cached: false }
    }
    if (this.realCache.size > 50_000) this.invalidate()
    this.realCache.set(path, real)
    return { real, cached: true }
  }

  /** Forgets cached symlink resolutions (after files were created, renamed or deleted). */
  invalidate(): void {
    this.realCache.clear()
    this.inputCache.clear()
    this.outputCache.clear()
  }

  /**
   * A caller path (absolute, relative to the root, or a file URI) as a canonical absolute path inside the
   * root. Traversal, external paths, encoded traversal, non-file URIs and symlinks out → OUTSIDE_WORKSPACE;
   * over {@link maxPathLength} characters → INVALID_ARGUMENT.
   */
  input(path: string): string {
    const known = this.inputCache.get(path)
    if (known !== undefined) return known
    const lexical = resolveInRoot(this.root, path)
    const { real, cached } = this.canonical(lexical)
    if (!isWithin(this.root, real)) {
      throw new LspError(
        'OUTSIDE_WORKSPACE',
        `"${path}" resolves (through a symbolic link) to ${real}, outside the workspace root ${this.root}`,
        {
          data: { path, root: this.root },
        },
      )
    }
    if (cached) remember(this.inputCache, path, real)
    return real
  }

  /**
   * {@link input} without the caches, for the moments a file is read or written: a file that was checked
   * before may since have been replaced by a symbolic link that points out. Refreshes the caches.
   */
  fresh(path: string): string {
    const lexical = resolveInRoot(this.root, path)
    const before = this.realCache.get(lexical)
    this.inputCache.delete(path)
    this.realCache.delete(lexical)
    try {
      return this.input(path)
    } finally {
      // Resolved differently than before: other answers built on the old resolution (other spellings of
      // this path, URIs of files under it) are wrong too.
      if (before !== undefined && this.realCache.get(lexical) !== before) this.invalidate()
    }
  }

  /** A server-produced URI as a path inside the root, or undefined when it must be dropped. */
  output(uri: string): string | undefined {
    if (this.outputCache.has(uri)) return this.outputCache.get(uri)
    const path = uriToPath(uri)
    if (path === undefined || !isWithin(this.root, path)) {
      remember(this.outputCache, uri, undefined)
      return undefined
    }
    const { real, cached } = this.canonical(path)
    const answer = isWithin(this.root, real) ? path : undefined
    if (cached) remember(this.outputCache, uri, answer)
    return answer
  }

  /** Whether a path (already absolute) is inside the root after symlink resolution. */
  contains(path: string): boolean {
    return isWithin(this.root, path) && isWithin(this.root, this.canonical(path).real)
  }
}

/** Caches stay bounded: past the limit one starts over (they only save work). */
function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= 50_000) cache.clear()
  cache.set(key, value)
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
      {
        data: { path, root },
      },
    )
  }
}
