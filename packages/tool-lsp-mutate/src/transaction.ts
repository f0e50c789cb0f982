import { randomUUID } from 'node:crypto'

import { LspError, type LspService } from '@codeseam/lsp'

import { ApprovalGate } from './approval.js'
import type { RootLockHandle } from './lock.js'
import { MutationQueue } from './queue.js'
import { buildReceipt } from './receipt-build.js'
import type { MutationReceipt } from './receipt.js'
import {
  appliedReceipt,
  askApproval,
  baseline,
  changesNothing,
  checkBefore,
  checkIntegrity,
  failureReceipt,
  lockRoot,
  nothingYet,
  prepare,
  previewedReceipt,
  stopIfDenied,
  unchangedReceipt,
  write,
  type Progress,
  type Transaction,
} from './stages.js'
import type { MutationSessionOptions, TransactionRequest } from './transaction-types.js'

export { sameHash } from './freshness.js'
export type { ComputedChange, MutationSessionOptions, TransactionContext, TransactionRequest } from './transaction-types.js'

/**
 * The one edit-transaction engine every mutating tool runs on (RFC 0004; checks before writing, RFC 0018):
 * queue (per root, in process) → cross-process root lock → compute the edit (the tool's part: target
 * resolution, server requests) → snippets as plain text → containment check of every URI → preview → the
 * caller's expected hashes → rename integrity (left-behind uses → INCOMPLETE_EDIT) → the files to check
 * (touched, then the impact set) → predicted diagnostics (dry runs and previews an approval callback sees) →
 * approval → diagnostic baseline → re-check every file's hash (stale → STALE_VERSION, nothing written) →
 * `lsp.applyEdit` (atomic, rolled back on failure) → post-edit diagnostics of the checked files (bounded
 * wait) → receipt. Every outcome, including refusals, conflicts and
 * failures, is a receipt.
 */

function newTransactionId(): string {
  return `tx_${Date.now().toString(36)}_${randomUUID().slice(0, 8)}`
}

/**
 * A mutation session: the approval state ("approve all"), the per-root queue and the lock settings shared by
 * every mutating tool of one harness session.
 */
export class MutationSession {
  readonly queue = new MutationQueue()
  readonly approvals: ApprovalGate
  private readonly options: MutationSessionOptions

  constructor(options: MutationSessionOptions = {}) {
    this.options = options
    this.approvals = new ApprovalGate(options)
  }

  /** Runs one transaction; always resolves to a receipt. */
  async run(lsp: LspService, request: TransactionRequest, signal: AbortSignal = new AbortController().signal): Promise<MutationReceipt> {
    const transactionId = newTransactionId()
    const startedAt = new Date()
    const started = performance.now()
    const dryRun = request.dryRun === true
    const workspace = lsp.workspace(request.root)
    const base = { transactionId, tool: request.tool, dryRun, startedAt: startedAt.toISOString() }
    if (workspace === undefined) {
      return buildReceipt({ ...base, root: request.root }, started, 'failed', {
        error: new LspError('UNAVAILABLE', `no workspace is open at "${request.root}"`),
      })
    }
    const { options, approvals } = this
    const waitMs = options.diagnosticsWaitMs ?? 15_000
    const tx = { lsp, workspace, request, signal, base: { ...base, root: workspace.root }, started, options, approvals, waitMs }
    return this.queue.run(workspace.root, () => this.transact(tx))
  }

  /**
   * The stages in order (see stages.ts), each given what the ones before it found. Each result is recorded as
   * soon as known: a receipt of a failure after it still shows it.
   */
  private async transact(tx: Transaction): Promise<MutationReceipt> {
    let progress: Progress = nothingYet
    const record = <T extends Progress>(state: T): T => (progress = state)
    let lock: RootLockHandle | undefined
    try {
      lock = await lockRoot(tx)
      const previewed = await prepare(tx, record)
      if (changesNothing(previewed.built)) return unchangedReceipt(tx, previewed)
      const checked = record(await checkBefore(tx, record(checkIntegrity(tx, previewed))))
      if (tx.base.dryRun) return previewedReceipt(tx, checked)
      const approved = record(await askApproval(tx, checked))
      stopIfDenied(approved.approval)
      const written = record(await write(tx, await baseline(tx, approved)))
      return await appliedReceipt(tx, written)
    } catch (cause) {
      return failureReceipt(tx, progress, cause)
    } finally {
      await lock?.release()
    }
  }
}
