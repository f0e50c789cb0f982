import { realpathSync } from 'node:fs'
import * as nodePath from 'node:path'

import {
  LspError,
  contentHash,
  pathToUri,
  type LspApplyEditOptions,
  type LspApplyEditResult,
  type LspDocumentSnapshot,
  type LspWorkspace,
  type LspWorkspaceEdit,
} from '@codeseam/lsp'
import * as vscode from 'vscode'

import { containedPath } from './containment.js'
import { Deadline } from './deadline.js'
import { isMissing, openDocumentOf, snapshotOf } from './documents.js'
import { toWorkspaceEdit } from './shapes/edits.js'

/** Options for {@link createVsCodeWorkspace}. */
export interface VsCodeWorkspaceOptions {
  /** An absolute folder path, usually a VS Code workspace folder. */
  readonly root: string
  /** The id models use to pick this root. Default: the folder name. */
  readonly id?: string
  /** Budget for applying and saving one edit. Default 30 000 ms. */
  readonly timeoutMs?: number
}

type AppliedFile = LspApplyEditResult['files'][number]

/**
 * A workspace root over VS Code: files read from VS Code's buffers when open (unsaved edits and versions
 * included) and from disk otherwise; edits applied through `workspace.applyEdit` and then saved. Nothing
 * outside the root is read or written, symlinks included.
 */
export function createVsCodeWorkspace(options: VsCodeWorkspaceOptions): LspWorkspace {
  if (!nodePath.isAbsolute(options.root)) throw new LspError('INVALID_ARGUMENT', `workspace root ${options.root} must be an absolute path`)
  const root = realpathSync(nodePath.normalize(options.root))
  const id = options.id ?? nodePath.basename(root)
  const timeoutMs = options.timeoutMs ?? 30_000

  /** Resolves a caller path and refuses one whose real location (through symlinks) leaves the root. */
  const contained = async (path: string): Promise<string> => containedPath(root, path)

  const readFile = async (path: string): Promise<LspDocumentSnapshot> => {
    const absolute = await contained(path)
    const open = openDocumentOf(absolute)
    if (open) return snapshotOf(open)
    let bytes: Uint8Array
    try {
      bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(absolute))
    } catch (error) {
      if (isMissing(error)) throw new LspError('NOT_FOUND', `${path} does not exist under ${root}`, { data: { path } })
      throw new LspError('SERVER_ERROR', `VS Code could not read ${absolute}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      })
    }
    const text = new TextDecoder('utf-8').decode(bytes)
    return { path: absolute, uri: pathToUri(absolute), text, hash: contentHash(text) }
  }

  const currentHash = async (path: string): Promise<string | undefined> => {
    try {
      return (await readFile(path)).hash
    } catch (error) {
      if (error instanceof LspError && error.code === 'NOT_FOUND') return undefined
      throw error
    }
  }

  const applyEdit = async (edit: LspWorkspaceEdit, applyOptions: LspApplyEditOptions = {}): Promise<LspApplyEditResult> => {
    const deadline = new Deadline('applyEdit', timeoutMs, new AbortController().signal)
    // 1. Containment and preconditions, before anything changes.
    for (const operation of edit.operations) {
      for (const path of operation.type === 'rename' ? [operation.oldPath, operation.newPath] : [operation.path]) await contained(path)
    }
    for (const [path, expected] of Object.entries(applyOptions.expectedHashes ?? {})) {
      const actual = await currentHash(path)
      if (actual !== expected) {
        throw new LspError('STALE_VERSION', `${path} changed since the edit was computed (content hash differs); compute the edit again`, {
          data: { path, expected, actual },
        })
      }
    }
    for (const operation of edit.operations) {
      if (operation.type !== 'edit' || operation.version === null) continue
      const open = openDocumentOf(operation.path)
      if (open && open.version !== operation.version) {
        throw new LspError(
          'STALE_VERSION',
          `${operation.path} is at version ${open.version} in VS Code, but the edit was computed for version ${operation.version}; compute it again`,
          {
            data: { path: operation.path, expected: operation.version, actual: open.version },
          },
        )
      }
    }

    // 2. What each touched file looks like before, and where it ends up after renames.
    const files = new Map<string, { hashBefore?: string; editCount: number; deleted: boolean }>()
    const touch = async (path: string) => {
      let entry = files.get(path)
      if (!entry) {
        const hashBefore = await currentHash(path)
        entry = { ...(hashBefore !== undefined ? { hashBefore } : {}), editCount: 0, deleted: false }
        files.set(path, entry)
      }
      return entry
    }
    const resourceOperations: LspApplyEditResult['resourceOperations'][number][] = []
    for (const operation of edit.operations) {
      if (operation.type === 'edit') (await touch(operation.path)).editCount += operation.edits.length
      else if (operation.type === 'create') {
        await touch(operation.path)
        resourceOperations.push({ type: 'create', path: operation.path })
      } else if (operation.type === 'delete') {
        ;(await touch(operation.path)).deleted = true
        resourceOperations.push({ type: 'delete', path: operation.path })
      } else {
        const moved = await touch(operation.oldPath)
        files.delete(operation.oldPath)
        files.set(operation.newPath, moved)
        resourceOperations.push({ type: 'rename', path: operation.oldPath, newPath: operation.newPath })
      }
    }

    // 3. Apply through VS Code's buffers. It either applies everything or nothing.
    const applied = await deadline.run(
      'vscode.workspace.applyEdit',
      () => vscode.workspace.applyEdit(toWorkspaceEdit(edit), { isRefactoring: true }),
      'UNCERTAIN',
    )
    if (!applied) {
      throw new LspError(
        'WRITE_FAILED',
        `VS Code refused the edit${applyOptions.label ? ` "${applyOptions.label}"` : ''}; nothing was applied (a file may be read-only, or a file operation conflicts)`,
      )
    }

    // 4. Save what changed in buffers. A failed save leaves the change only in memory: uncertain.
    const results: AppliedFile[] = []
    const unsaved: string[] = []
    for (const [path, entry] of files) {
      if (entry.deleted) {
        results.push({
          path,
          ...(entry.hashBefore !== undefined ? { hashBefore: entry.hashBefore } : {}),
          editCount: entry.editCount,
          saved: true,
        })
        continue
      }
      const document = openDocumentOf(path)
      let saved = true
      if (document?.isDirty) {
        let why = 'VS Code reported the save as failed'
        try {
          saved = await deadline.run(`saving ${path}`, () => document.save(), 'UNCERTAIN')
        } catch (error) {
          saved = false
          why = error instanceof Error ? error.message : String(error)
        }
        if (!saved) unsaved.push(`${path} (${why})`)
      }
      const hashAfter = await currentHash(path)
      results.push({
        path,
        ...(entry.hashBefore !== undefined ? { hashBefore: entry.hashBefore } : {}),
        ...(hashAfter !== undefined ? { hashAfter } : {}),
        editCount: entry.editCount,
        saved,
      })
    }
    const result: LspApplyEditResult = { files: results, resourceOperations }
    if (unsaved.length > 0) {
      throw new LspError(
        'UNCERTAIN',
        `the edit is applied in VS Code's buffers, but saving failed for ${unsaved.join(', ')}; the files on disk may be old: save them in VS Code or undo the edit`,
        {
          data: { result },
        },
      )
    }
    return result
  }

  return {
    id,
    root,
    readFile: (path) => readFile(path),
    async exists(path) {
      let absolute: string
      try {
        absolute = await contained(path)
      } catch {
        return false
      }
      if (openDocumentOf(absolute)) return true
      try {
        await vscode.workspace.fs.stat(vscode.Uri.file(absolute))
        return true
      } catch {
        return false
      }
    },
    applyEdit,
  }
}
