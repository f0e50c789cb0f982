import {
  LspError,
  type LspApplyEditOptions,
  type LspApplyEditResult,
  type LspWorkspaceEdit,
  type LspWorkspaceEditOperation,
} from '@codeseam/lsp'
import * as vscode from 'vscode'

import { Deadline } from './deadline.js'
import { openDocumentOf } from './documents.js'
import { toWorkspaceEdit } from './shapes/edits.js'
import type { WorkspaceReader } from './workspace-reader.js'

type AppliedFile = LspApplyEditResult['files'][number]
type ResourceOperation = LspApplyEditResult['resourceOperations'][number]

/** A file the edit touches: its hash before, how many edits it gets, whether it is deleted. */
interface TouchedFile {
  hashBefore?: string
  editCount: number
  deleted: boolean
}

/**
 * Applies workspace edits through VS Code's buffers and saves what changed. Nothing outside the reader's root
 * is written, and nothing at all when a precondition fails.
 */
export function createEditApplier(
  reader: WorkspaceReader,
  timeoutMs: number,
): (edit: LspWorkspaceEdit, options?: LspApplyEditOptions) => Promise<LspApplyEditResult> {
  return async (edit, applyOptions = {}) => {
    const deadline = new Deadline('applyEdit', timeoutMs, new AbortController().signal)
    // 1. Containment and preconditions, before anything changes.
    await checkPreconditions(reader, edit, applyOptions)
    // 2. What each touched file looks like before, and where it ends up after renames.
    const { files, resourceOperations } = await touchedFiles(reader, edit.operations)
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
    const { results, unsaved } = await saveChanged(reader, deadline, files)
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
}

/** Every path is inside the root, and every file is as the edit expects: by content hash and open version. */
async function checkPreconditions(reader: WorkspaceReader, edit: LspWorkspaceEdit, applyOptions: LspApplyEditOptions): Promise<void> {
  for (const operation of edit.operations) {
    for (const path of operation.type === 'rename' ? [operation.oldPath, operation.newPath] : [operation.path]) await reader.contained(path)
  }
  for (const [path, expected] of Object.entries(applyOptions.expectedHashes ?? {})) {
    const actual = await reader.currentHash(path)
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
}

/** The files the operations touch, by where they end up, and the resource operations among them. */
async function touchedFiles(
  reader: WorkspaceReader,
  operations: ReadonlyArray<LspWorkspaceEditOperation>,
): Promise<{ files: Map<string, TouchedFile>; resourceOperations: ResourceOperation[] }> {
  const files = new Map<string, TouchedFile>()
  const touch = async (path: string) => {
    let entry = files.get(path)
    if (!entry) {
      const hashBefore = await reader.currentHash(path)
      entry = { ...(hashBefore !== undefined ? { hashBefore } : {}), editCount: 0, deleted: false }
      files.set(path, entry)
    }
    return entry
  }
  const resourceOperations: ResourceOperation[] = []
  for (const operation of operations) {
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
  return { files, resourceOperations }
}

/** Saves the touched files VS Code holds unsaved; reports each file and the saves that failed. */
async function saveChanged(
  reader: WorkspaceReader,
  deadline: Deadline,
  files: ReadonlyMap<string, TouchedFile>,
): Promise<{ results: AppliedFile[]; unsaved: string[] }> {
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
    const hashAfter = await reader.currentHash(path)
    results.push({
      path,
      ...(entry.hashBefore !== undefined ? { hashBefore: entry.hashBefore } : {}),
      ...(hashAfter !== undefined ? { hashAfter } : {}),
      editCount: entry.editCount,
      saved,
    })
  }
  return { results, unsaved }
}
