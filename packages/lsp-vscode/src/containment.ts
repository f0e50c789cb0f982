import { Containment as SeamContainment, containPath, pathToUri } from '@codeseam/lsp'
import type * as vscode from 'vscode'

/**
 * A caller path (absolute, relative to `root` or a file URI) as an absolute path under `root`, refused with
 * OUTSIDE_WORKSPACE when it leaves the root lexically or through a symbolic link (the seam's containment).
 * `root` must be canonical. Returns the lexical path: that is the name VS Code knows the file by.
 */
export function containedPath(root: string, path: string): string {
  return containPath(root, path).lexical
}

/**
 * Keeps answers inside one workspace root. VS Code happily returns places in library typings, other
 * workspace folders, untitled buffers or virtual documents; each is dropped and counted so the result can
 * say how many it lost (`meta.droppedOutsideWorkspace`). The rule is the seam's; this counts and adapts URIs.
 */
export class Containment {
  private droppedCount = 0
  /** One per query: answers name the same few files many times, and its realpath cache lives as long. */
  private readonly seam: SeamContainment

  /** `root` must be canonical (`canonicalPath` from @codeseam/lsp). */
  constructor(readonly root: string) {
    this.seam = new SeamContainment(root)
  }

  /** The canonical path of `uri` when it is a file under the root; otherwise counts a drop and returns undefined. */
  keep(uri: vscode.Uri | undefined): { readonly path: string; readonly uri: string } | undefined {
    // Canonical, so a folder VS Code opened through a symbolic link still matches the (canonical) root.
    const path = uri === undefined || uri === null || uri.scheme !== 'file' ? undefined : this.seam.canonicalInside(uri.fsPath)
    if (path === undefined) {
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
