import { realpathSync } from 'node:fs'
import * as nodePath from 'node:path'

import { LspError, type LspWorkspace } from '@codeseam/lsp'

import { createEditApplier } from './workspace-edit.js'
import { createWorkspaceReader } from './workspace-reader.js'

/** Options for {@link createVsCodeWorkspace}. */
export interface VsCodeWorkspaceOptions {
  /** An absolute folder path, usually a VS Code workspace folder. */
  readonly root: string
  /** The id models use to pick this root. Default: the folder name. */
  readonly id?: string
  /** Budget for applying and saving one edit. Default 30 000 ms. */
  readonly timeoutMs?: number
}

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
  const reader = createWorkspaceReader(root)
  return {
    id,
    root,
    readFile: (path) => reader.readFile(path),
    exists: (path) => reader.exists(path),
    applyEdit: createEditApplier(reader, timeoutMs),
  }
}
