import { Containment, type WorkspacePath } from './containment.js'
import { normalizeRoot } from './paths.js'
import type { LspDocumentSnapshot, LspWorkspace } from './provider.js'

/**
 * Seam-internal bookkeeping of resolved files (not exported from the package): which containment serves a
 * workspace, and which file a snapshot the seam read came from, so a later query of the same call can pass
 * the snapshot along instead of the provider reading and resolving the file again.
 */

const ownContainments = new WeakMap<LspWorkspace, Containment>()

/** The workspace's own containment, or one the seam keeps for a workspace without one. */
export function containmentOf(workspace: LspWorkspace): Containment {
  if (workspace.containment instanceof Containment) return workspace.containment
  let own = ownContainments.get(workspace)
  if (own === undefined) ownContainments.set(workspace, (own = new Containment(normalizeRoot(workspace.root))))
  return own
}

const readThrough = new WeakMap<LspDocumentSnapshot, WorkspacePath>()

/** Records that the seam read `document` through `file`. */
export function bindDocument(document: LspDocumentSnapshot, file: WorkspacePath): void {
  readThrough.set(document, file)
}

/** The file the seam read `document` through, if it did. */
export function fileOfDocument(document: unknown): WorkspacePath | undefined {
  return typeof document === 'object' && document !== null ? readThrough.get(document as LspDocumentSnapshot) : undefined
}
