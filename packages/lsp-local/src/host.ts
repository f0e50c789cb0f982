import type { Disposer, LspProvider, LspProviderStatus, LspService, LspWorkspace } from '@codeseam/lsp'

import type { TrustLevel } from './config.js'

/** How to open one workspace root. */
export interface OpenWorkspaceOptions {
  /** Short id models can name (default: the folder name). */
  readonly id?: string
  /** Default `untrusted`. */
  readonly trust?: TrustLevel
}

/** A root given to {@link LocalHost.attach}: a path, or a path with options. */
export type AttachRoot = string | ({ readonly root: string } & OpenWorkspaceOptions)

/**
 * The local language-server host: one {@link LspProvider} per enabled profile (the seam gives each
 * extension to exactly one provider) and one {@link LspWorkspace} per opened root.
 */
export interface LocalHost {
  /** One provider per enabled profile, id `local:<profile id>`. Register them with `lsp.registerProvider`. */
  readonly providers: ReadonlyArray<LspProvider>
  /** Opens (or returns the already open) workspace for a root; the root is canonicalized with realpath. */
  openWorkspace(root: string, options?: OpenWorkspaceOptions): Promise<LspWorkspace>
  /** Changes a root's trust level; its running servers are stopped so the next query starts them with the new settings. */
  setTrust(root: string, trust: TrustLevel): Promise<void>
  /** Registers every provider and opens and registers each root; the disposer releases all of it (servers keep running until {@link dispose}). */
  attach(lsp: LspService, roots: ReadonlyArray<AttachRoot>): Promise<Disposer>
  /** Status of every (root, profile) server, plus unavailable profiles. */
  status(): ReadonlyArray<LspProviderStatus>
  /** Like {@link status}, with the resident memory of each server's process tree (reads /proc). */
  statusWithMemory(): Promise<ReadonlyArray<LspProviderStatus>>
  /** Stops every server (shutdown → exit → SIGTERM → SIGKILL, bounded). Idempotent. */
  dispose(): Promise<void>
}
