import { LspError, contentHash, pathToUri, type LspDocumentSnapshot } from '@codeseam/lsp'
import * as vscode from 'vscode'

import { containedPath } from './containment.js'
import { isMissing, openDocumentOf, snapshotOf } from './documents.js'

/** Reads files under one root: from VS Code's buffers when open, from disk otherwise. */
export interface WorkspaceReader {
  /** Resolves a caller path and refuses one whose real location (through symlinks) leaves the root. */
  contained(path: string): Promise<string>
  readFile(path: string): Promise<LspDocumentSnapshot>
  /** The content hash of a file, undefined when it does not exist. */
  currentHash(path: string): Promise<string | undefined>
  exists(path: string): Promise<boolean>
}

/** A reader of the files under `root` (canonical), unsaved edits and versions of open documents included. */
export function createWorkspaceReader(root: string): WorkspaceReader {
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

  const exists = async (path: string): Promise<boolean> => {
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
  }

  return { contained, readFile, currentHash, exists }
}
