import * as nodePath from 'node:path'

import { isWithin, pathToUri } from '@codeseam/lsp'
import type * as vscode from 'vscode'

/**
 * Keeps answers inside one workspace root. VS Code happily returns places in library typings, other
 * workspace folders, untitled buffers or virtual documents; each is dropped and counted so the result can
 * say how many it lost (`meta.droppedOutsideWorkspace`).
 */
export class Containment {
  private droppedCount = 0

  constructor(readonly root: string) {}

  /** The absolute path of `uri` when it is a file under the root; otherwise counts a drop and returns undefined. */
  keep(uri: vscode.Uri | undefined): { readonly path: string; readonly uri: string } | undefined {
    if (uri === undefined || uri === null || uri.scheme !== 'file') {
      this.droppedCount++
      return undefined
    }
    const path = nodePath.normalize(uri.fsPath)
    if (!isWithin(this.root, path)) {
      this.droppedCount++
      return undefined
    }
    return { path, uri: pathToUri(path) }
  }

  /** How many places were dropped so far. */
  get dropped(): number {
    return this.droppedCount
  }

  /** `{ droppedOutsideWorkspace }` when anything was dropped, for spreading into result metadata. */
  meta(): { droppedOutsideWorkspace?: number } {
    return this.droppedCount > 0 ? { droppedOutsideWorkspace: this.droppedCount } : {}
  }
}
