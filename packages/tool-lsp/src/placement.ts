import { displayPath, isWithin, rootHolding, type LspWorkspaceInfo } from '@codeseam/lsp'
import { Schema } from 'effect'

/*
 * Where a result's path lies when a workspace has several roots (RFC 0025): a location in another open root of the
 * same workspace is an answer, shown relative to that root and named by its id.
 */

/**
 * A path as a result shows it: relative to `root` (the target's) when it lies there, else relative to the other
 * open root that holds it, with that root's id — what a later call passes as `rootId` with the path.
 */
export function placed(roots: ReadonlyArray<LspWorkspaceInfo>, root: string, path: string): { path: string; rootId?: string } {
  if (isWithin(root, path)) return { path: displayPath(root, path) }
  const owner = rootHolding(roots, path)
  return owner === undefined ? { path: displayPath(root, path) } : { path: displayPath(owner.root, path), rootId: owner.id }
}

/** The field a result's path carries when it lies in another open root than the target's. */
export const OtherRootField = Schema.optional(Schema.String).annotate({
  description: "The open workspace (root id) this path is in, when it is not the target's: pass it as rootId with the path.",
})

/** A placed path as text shows it: `path`, or `path (in root <id>)` when it lies in another open root. */
export function placedText(place: { readonly path: string; readonly rootId?: string | undefined }): string {
  return place.rootId === undefined ? place.path : `${place.path} (in root ${place.rootId})`
}
