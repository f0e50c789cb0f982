import { Containment, type WorkspacePath } from './containment.js'
import { normalizeRoot, resolveInRoot } from './paths.js'
import type { LspDocumentSnapshot, LspReadAlong, LspWorkspace } from './provider.js'
import type { LspQueryRequest } from './vocabulary.js'

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
  // Frozen: a backend may hand it to its server in place of the file, so it must stay what was read.
  readThrough.set(Object.freeze(document), file)
}

/** The file the seam read `document` through, if it did. */
export function fileOfDocument(document: unknown): WorkspacePath | undefined {
  return typeof document === 'object' && document !== null ? readThrough.get(document as LspDocumentSnapshot) : undefined
}

/**
 * A request's file resolved once for the provider: the file `document` was read through in this call, or
 * else the root's containment (cached realpath; reads re-check at the moment of reading). Nothing when no
 * workspace is open at the root: the provider contains the path itself then.
 */
export function requestFile(
  workspace: LspWorkspace | undefined,
  path: string,
  document: LspDocumentSnapshot | undefined,
): { file?: WorkspacePath; snapshot?: LspDocumentSnapshot } {
  if (workspace === undefined) return {}
  const containment = containmentOf(workspace)
  const read = fileOfDocument(document)
  if (read !== undefined && document !== undefined && read.root === containment.root) {
    const lexical = resolveInRoot(containment.root, path)
    if (read.lexical === lexical || read.path === lexical) return { file: read, snapshot: document }
  }
  return { file: containment.resolve(path) }
}

/** The request without the caller's read-along snapshot (the provider gets it as `snapshot`, when it applies). */
export function withoutDocument<R extends LspQueryRequest>(request: R & LspReadAlong): R {
  if (!('document' in request)) return request
  const { document: _document, ...rest } = request
  return rest as unknown as R
}
