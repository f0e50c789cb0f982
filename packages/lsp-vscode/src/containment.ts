import * as nodePath from 'node:path'

import { LspError, canonicalPath, isWithin, pathToUri, resolveInRoot } from '@codeseam/lsp'
import type * as vscode from 'vscode'

/**
 * A caller path (absolute, relative to `root` or a file URI) as an absolute path under `root`, refused with
 * OUTSIDE_WORKSPACE when it leaves the root lexically or through a symbolic link. `root` must be canonical.
 * Returns the lexical path: that is the name VS Code knows the file by.
 */
export function containedPath(root: string, path: string): string {
  const absolute = resolveInRoot(root, path)
  const real = canonicalPath(absolute)
  if (!isWithin(root, real)) {
    throw new LspError('OUTSIDE_WORKSPACE', `${path} resolves (through a symbolic link) to ${real}, outside the workspace root ${root}`, {
      data: { path, root },
    })
  }
  return absolute
}

/**
 * Keeps answers inside one workspace root. VS Code happily returns places in library typings, other
 * workspace folders, untitled buffers or virtual documents; each is dropped and counted so the result can
 * say how many it lost (`meta.droppedOutsideWorkspace`).
 */
export class Containment {
  private droppedCount = 0
  /** Real paths already looked up in this query: answers name the same few files many times. */
  private readonly realPaths = new Map<string, string>()

  /** `root` must be canonical (`canonicalPath` from @codeseam/lsp). */
  constructor(readonly root: string) {}

  /** The absolute path of `uri` when it is a file under the root; otherwise counts a drop and returns undefined. */
  keep(uri: vscode.Uri | undefined): { readonly path: string; readonly uri: string } | undefined {
    if (uri === undefined || uri === null || uri.scheme !== 'file') {
      this.droppedCount++
      return undefined
    }
    // Canonical, so a folder VS Code opened through a symbolic link still matches the (canonical) root.
    const lexical = nodePath.normalize(uri.fsPath)
    let path = this.realPaths.get(lexical)
    if (path === undefined) {
      path = canonicalPath(lexical)
      this.realPaths.set(lexical, path)
    }
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
