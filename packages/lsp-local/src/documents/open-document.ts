import type { LspDocumentSnapshot } from '@codeseam/lsp'
import type { TextDocumentContentChangeEvent, TextDocumentItem, TextDocumentSyncKind } from 'vscode-languageserver-protocol/node'

/** A document the server has open, as last synced from disk. */
export interface OpenDocument {
  readonly uri: string
  readonly path: string
  readonly languageId: string
  version: number
  hash: string
  text: string
  /** mtime + size + inode at the last sync: unchanged means no need to read the file again. */
  statKey: string
  /** Diagnostics store sequence at the last sync. */
  syncSeq: number
  lastUsed: number
  /** Pinned documents keep a project loaded and are never evicted. */
  pinned: boolean
  /** The file resolves out of the root: empty text on the server, pinned, until it is back (see `mask`). */
  masked?: { readonly pinned: boolean; readonly at: string | undefined }
  /**
   * The content hash of recent earlier versions (version → hash, the last few): an edit computed for an older
   * version whose text is the current text again (a speculative check restored it) is still current.
   */
  earlier?: Map<number, string>
}

/** How many earlier versions a document remembers. */
const rememberedVersions = 8

/** Records the document's current version and hash before it moves to a new version. */
export function rememberVersion(document: OpenDocument): void {
  const earlier = (document.earlier ??= new Map())
  earlier.set(document.version, document.hash)
  if (earlier.size > rememberedVersions) earlier.delete(earlier.keys().next().value!)
}

/** Whether the document's text at `version` is its current text (the same version, or an earlier one with the same hash). */
export function sameTextAs(document: OpenDocument, version: number): boolean {
  return document.version === version || document.earlier?.get(version) === document.hash
}

/** Options of {@link DocumentSync.sync}. */
export interface SyncOptions {
  readonly pin?: boolean
  /** The file as read in this call, standing for the disk (used only when it is of `path` and has a revision). */
  readonly snapshot?: LspDocumentSnapshot | undefined
  /** The speculative check holding the documents (see {@link DocumentSync.hold}) syncs without waiting. */
  readonly holder?: boolean
}

/** How documents reach the server. */
export interface DocumentChannel {
  /** Read at each change: the kind is known only after initialize. */
  syncKind(): TextDocumentSyncKind
  open(item: TextDocumentItem): void
  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): void
  close(uri: string): void
  /** The diagnostics sequence to record at sync. */
  diagnosticsSeq(): number
}
