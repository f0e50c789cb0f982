import type { LspDocumentSnapshot, LspService, LspWorkspace, LspWorkspaceEdit } from '@codeseam/lsp'

import type { ApprovalPolicy } from './approval.js'
import type { RootLockOptions } from './lock.js'
import type { RenameIntegrity } from './receipt.js'

/** What a mutating tool gives the edit transaction (transaction.ts), and what it gets. */

/** Options of a `MutationSession` (transaction.ts). */
export interface MutationSessionOptions extends ApprovalPolicy {
  /** The cross-process root lock (default on, in the OS temp folder); false turns it off. */
  readonly lock?: false | Omit<RootLockOptions, 'signal'>
  /** How long to wait for diagnostics of the current content, before and after the write (default 15 s). */
  readonly diagnosticsWaitMs?: number
  /**
   * At most this many files' diagnostics are checked per transaction (default 200): the touched files first,
   * then the impact set; the receipt lists the rest as not checked.
   */
  readonly maxCheckedFiles?: number
  /**
   * Predict diagnostics before writing (default true): dry runs and previews shown for approval apply the edit
   * to the servers' in-memory documents only and report what it would introduce (RFC 0018).
   */
  readonly predict?: boolean
}

/** What a tool's `compute` step gets. */
export interface TransactionContext {
  readonly lsp: LspService
  readonly workspace: LspWorkspace
  readonly root: string
  readonly transactionId: string
  readonly signal: AbortSignal
}

/** What a tool's `compute` step returns. */
export interface ComputedChange {
  readonly edit: LspWorkspaceEdit
  /** Documents the edit was computed against (their content is the basis re-checked before applying). */
  readonly basis?: ReadonlyArray<LspDocumentSnapshot>
  /** Effects the preview cannot show; each forces explicit approval. */
  readonly unpreviewable?: ReadonlyArray<string>
  readonly notes?: ReadonlyArray<string>
  /**
   * Files that referred to what the edit changes before it (absolute paths): their diagnostics are checked
   * before and after, besides the touched files' (RFC 0018).
   */
  readonly impact?: ReadonlyArray<string>
  /** A rename compared with its symbol's references; left-behind uses refuse the write unless accepted. */
  readonly integrity?: RenameIntegrity
  /** A code action's command that ran on the server while computing. */
  readonly command?: { readonly title: string; readonly command: string; readonly result?: unknown }
}

/** One transaction to run. */
export interface TransactionRequest {
  /** The tool name, for receipts and approval prompts. */
  readonly tool: string
  /** The workspace root (path or id) the change happens in. */
  readonly root: string
  /** Preview only: nothing is written and approval is not asked. */
  readonly dryRun?: boolean
  /** Content hash each file must have (path relative to the root, or absolute → sha-256 hex). */
  readonly expectedHashes?: Readonly<Record<string, string>>
  /** One line for approval prompts. */
  readonly summary?: string
  compute(context: TransactionContext): Promise<ComputedChange>
}
