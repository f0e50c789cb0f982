import { realpathSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { LspError } from './errors.js'

/**
 * Normalizes an extension key: lowercase, one leading dot, no path separators or further dots.
 * Returns undefined for something that is not an extension.
 */
export function normalizeExtension(extension: string): string | undefined {
  const lower = extension.trim().toLowerCase()
  const withDot = lower.startsWith('.') ? lower : `.${lower}`
  return /^\.[a-z0-9_+-]+$/.test(withDot) ? withDot : undefined
}

/**
 * The final extension of a file name, lowercase with its dot: `foo.d.ts` → `.ts`. Dotfiles such as
 * `.bashrc` and names without a dot have none.
 */
export function extensionOf(path: string): string | undefined {
  const base = nodePath.basename(path)
  const dot = base.lastIndexOf('.')
  if (dot <= 0 || dot === base.length - 1) return undefined
  return base.slice(dot).toLowerCase()
}

/**
 * True when `path` is `root` or inside it (both absolute). On POSIX a prefix comparison of the normalized
 * paths, which is what `path.relative` decides, at a fraction of its cost: it runs for every location a
 * server returns.
 */
export function isWithin(root: string, path: string): boolean {
  if (nodePath.sep === '/' && root.startsWith('/') && path.startsWith('/')) {
    const r = withoutTrailingSlash(nodePath.normalize(root))
    const p = withoutTrailingSlash(nodePath.normalize(path))
    return p === r || p.startsWith(r === '/' ? '/' : `${r}/`)
  }
  const relative = nodePath.relative(root, path)
  return relative === '' || (!relative.startsWith('..') && !nodePath.isAbsolute(relative))
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}

/**
 * Longest path accepted (Linux PATH_MAX). Longer input cannot name a file, and resolving it segment by
 * segment took seconds in a backend: it is refused before any work.
 */
export const maxPathLength = 4096

/**
 * Resolves a caller path (absolute, or relative to `root`) to an absolute normalized path inside `root`,
 * lexically: traversal, NUL bytes and percent-encoded traversal are refused with OUTSIDE_WORKSPACE or
 * INVALID_ARGUMENT. Symlinks are the backend's to check.
 */
export function resolveInRoot(root: string, path: string): string {
  if (path.length === 0) throw new LspError('INVALID_ARGUMENT', 'path is empty: give a file path relative to the workspace root')
  if (path.length > maxPathLength) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `the path is ${path.length} characters long, over the ${maxPathLength}-character limit (PATH_MAX): "${path.slice(0, 80)}…"`,
      {
        data: { length: path.length, limit: maxPathLength },
      },
    )
  }
  if (path.includes('\0')) throw new LspError('INVALID_ARGUMENT', 'path contains a NUL byte')
  if (/%2e|%2f|%5c/i.test(path)) {
    throw new LspError('OUTSIDE_WORKSPACE', `path "${path}" contains percent-encoded separators or dots; give a plain path`)
  }
  if (/^[a-z]:[\\/]/i.test(path) || path.startsWith('\\\\')) {
    throw new LspError('OUTSIDE_WORKSPACE', `"${path}" is a Windows drive or UNC path; give a path relative to the workspace root`)
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) && !path.startsWith('file://')) {
    throw new LspError('OUTSIDE_WORKSPACE', `"${path}" is not a file path`)
  }
  const plain = path.startsWith('file://') ? fileURLToPath(path) : path
  const absolute = nodePath.resolve(root, plain.replace(/\\/g, '/'))
  if (!isWithin(root, absolute)) {
    throw new LspError('OUTSIDE_WORKSPACE', `"${path}" is outside the workspace root ${root}`, { data: { path, root } })
  }
  return absolute
}

/** A root path in one spelling: normalized, without a trailing separator. Every layer compares roots in it. */
export function normalizeRoot(root: string): string {
  const normalized = nodePath.normalize(root)
  return normalized.length > 1 && normalized.endsWith(nodePath.sep) ? normalized.slice(0, -1) : normalized
}

/** The `file:` URI of an absolute path. */
export function pathToUri(path: string): string {
  return pathToFileURL(path).href
}

/** The absolute path of a `file:` URI; undefined for any other scheme. */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined
  try {
    return fileURLToPath(uri)
  } catch {
    return undefined
  }
}

/** A workspace-relative path with forward slashes, for display to models and people. */
export function displayPath(root: string, path: string): string {
  const relative = nodePath.relative(root, path)
  return (relative === '' ? '.' : relative).split(nodePath.sep).join('/')
}

/**
 * Where an absolute path really is, through symbolic links. A path that does not exist yet (a file an edit
 * creates) is its nearest existing ancestor's real path joined with the rest, so `link/new.ts` with `link`
 * pointing outside a root lands outside. Backends check containment on this, not on the lexical path.
 */
export function canonicalPath(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    const parent = nodePath.dirname(path)
    return parent === path ? path : nodePath.join(canonicalPath(parent), nodePath.basename(path))
  }
}

/**
 * The root that holds an absolute path, of several (a workspace's roots, RFC 0025): the deepest whose folder
 * contains it, lexically; undefined when none does.
 */
export function rootHolding<T extends { readonly root: string }>(roots: Iterable<T>, path: string): T | undefined {
  let holding: T | undefined
  for (const each of roots)
    if (isWithin(each.root, path) && (holding === undefined || each.root.length > holding.root.length)) holding = each
  return holding
}
