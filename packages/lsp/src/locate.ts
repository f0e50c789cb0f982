import { statSync } from 'node:fs'
import * as nodePath from 'node:path'

import type { WorkspacePath } from './containment.js'
import { LspError, isLspError } from './errors.js'
import { displayPath, resolveInRoot } from './paths.js'
import type { LspDocumentSnapshot, LspWorkspace } from './provider.js'
import type { LspService } from './service.js'
import { bindDocument, containmentOf } from './target-file.js'

/** Finding the file a caller names: which open workspace it is in, contained once, read once. */

/** A resolved file: which workspace it is in and its absolute path. */
export interface ResolvedFile {
  readonly workspace: LspWorkspace
  readonly path: string
  readonly displayPath: string
}

/** The workspaces a caller path may be in, each with the path resolved lexically under its root (no file-system work). */
function candidatesFor(lsp: LspService, path: string, rootId: string | undefined): Array<{ workspace: LspWorkspace; path: string }> {
  const open = lsp.workspaces()
  if (open.length === 0) throw new LspError('UNAVAILABLE', 'no workspace is open: open a workspace root first')
  if (typeof path !== 'string' || path.length === 0) {
    throw new LspError('INVALID_ARGUMENT', 'path is empty: give a file path relative to the workspace root')
  }
  let workspaces: LspWorkspace[]
  if (rootId !== undefined) {
    const chosen = lsp.workspace(rootId)
    if (chosen === undefined || chosen.id !== rootId) {
      throw new LspError('NOT_FOUND', `no open workspace has the id "${rootId}" (open: ${open.map((w) => w.id).join(', ')})`, {
        data: { nearest: open.map((w) => w.id) },
      })
    }
    workspaces = [chosen]
  } else {
    workspaces = open.map((w) => lsp.workspace(w.root)).filter((w): w is LspWorkspace => w !== undefined)
  }
  if (nodePath.isAbsolute(path) || path.startsWith('file://')) {
    const owners = workspaces
      .filter((w) => {
        try {
          resolveInRoot(w.root, path)
          return true
        } catch {
          return false
        }
      })
      .sort((a, b) => b.root.length - a.root.length)
    const owner = owners[0]
    if (owner === undefined) {
      throw new LspError('OUTSIDE_WORKSPACE', `"${path}" is outside every open workspace (${workspaces.map((w) => w.root).join(', ')})`)
    }
    return [{ workspace: owner, path: resolveInRoot(owner.root, path) }]
  }
  // Relative: lexical containment is checked for every root before anything is touched.
  return workspaces.map((w) => ({ workspace: w, path: resolveInRoot(w.root, path) }))
}

/**
 * Finds the workspace a caller path belongs to. A relative path that exists in several open roots is
 * AMBIGUOUS until `rootId` picks one.
 */
export async function resolveFile(lsp: LspService, path: string, rootId?: string): Promise<ResolvedFile> {
  const candidates = candidatesFor(lsp, path, rootId)
  const existing: typeof candidates = []
  for (const candidate of candidates) {
    if (await candidate.workspace.exists(candidate.path)) existing.push(candidate)
  }
  if (existing.length === 0) {
    // A path that is there but leads out of its root (a symbolic link) is OUTSIDE_WORKSPACE, not missing.
    for (const candidate of candidates) if (candidate.workspace.containment !== undefined) containmentOf(candidate.workspace).fresh(path)
    throw notFoundFile(path, candidates)
  }
  if (existing.length > 1) {
    throw new LspError('AMBIGUOUS', `"${path}" exists in ${existing.length} open workspaces: pass rootId to pick one`, {
      data: {
        candidates: existing.map((c) => ({ label: `${c.workspace.id}: ${path}`, rootId: c.workspace.id, root: c.workspace.root, path })),
      },
    })
  }
  const only = existing[0]!
  return { workspace: only.workspace, path: only.path, displayPath: displayPath(only.workspace.root, only.path) }
}

/**
 * The target's file contained once (one realpath, symlinks included) and read once. With one candidate root
 * no separate existence check is made: the containment says whether the path exists and the read says the
 * rest. The snapshot is bound to the resolved file so later queries of the call can pass it along.
 */
export async function locateAndRead(
  lsp: LspService,
  target: { readonly path: string; readonly rootId?: string },
  options: { readonly signal?: AbortSignal; readonly accept?: (file: ResolvedFile) => void },
): Promise<{ file: ResolvedFile; resolved: WorkspacePath; document: LspDocumentSnapshot }> {
  const candidates = candidatesFor(lsp, target.path, target.rootId)
  let file: ResolvedFile
  let resolved: WorkspacePath
  const only = candidates.length === 1 ? candidates[0] : undefined
  if (only !== undefined) {
    // A symbolic link out of the root is OUTSIDE_WORKSPACE naming where it leads (the file exists; codeseam
    // will not read it), as every other way of reaching outside the root is.
    resolved = containmentOf(only.workspace).fresh(target.path)
    // A disk-backed workspace (one that keeps the seam's containment) exists where the realpath found a
    // file; any other (in memory, editor buffers) says so itself.
    const exists = only.workspace.containment === undefined ? await only.workspace.exists(only.path) : resolved.exists
    if (!exists) throw notFoundFile(target.path, [only])
    file = { workspace: only.workspace, path: only.path, displayPath: displayPath(only.workspace.root, only.path) }
  } else {
    file = await resolveFile(lsp, target.path, target.rootId)
    resolved = containmentOf(file.workspace).fresh(target.path)
  }
  options.accept?.(file)
  // A workspace that keeps the seam's containment reads the resolved path as is; any other gets a string.
  const { workspace } = file
  let document: LspDocumentSnapshot
  try {
    document =
      workspace.readResolved !== undefined && workspace.containment !== undefined
        ? await workspace.readResolved(resolved, options.signal)
        : await workspace.readFile(file.path, options.signal)
  } catch (error) {
    // A directory, or a file deleted since: what the existence check said before reads were folded in.
    if (only !== undefined && isLspError(error, 'NOT_FOUND')) throw notFoundFile(target.path, [only])
    throw error
  }
  bindDocument(document, resolved)
  return { file, resolved, document }
}

/** NOT_FOUND for a file that is not there; a folder on disk is named as one (the caller gave a folder, not a file). */
function notFoundFile(path: string, candidates: ReadonlyArray<{ readonly workspace: LspWorkspace; readonly path: string }>): LspError {
  const folder = candidates.find((c) => c.workspace.containment !== undefined && isFolder(c.path))
  if (folder !== undefined) {
    const message = `"${path}" is a folder, not a file: name a file in it (or search the workspace with a symbol query)`
    return new LspError('INVALID_ARGUMENT', message, { data: { path, issues: [{ path: 'path', message }] } })
  }
  // A name with a byte that is not UTF-8 reaches here with U+FFFD in its place (the command line and every JavaScript
  // string decode it so): the file may well exist, under a name no UTF-8 string can spell.
  if (path.includes('\uFFFD')) {
    return new LspError(
      'NOT_FOUND',
      `"${path}" holds a character that stands for a byte that is not UTF-8 (�): a file whose name is not UTF-8 cannot be named through codeseam; rename it to a UTF-8 name`,
      { data: { path, notUtf8Name: true } },
    )
  }
  return new LspError('NOT_FOUND', `file "${path}" does not exist in ${candidates.map((c) => c.workspace.root).join(' or ')}`, {
    data: { path },
  })
}

/** Whether a path is a folder; false for anything stat refuses (missing, a file on the way, a name too long). */
function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true
  } catch {
    return false
  }
}
