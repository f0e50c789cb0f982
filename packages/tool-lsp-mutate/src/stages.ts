import {
  inSpan,
  LspError,
  TelemetryAttr,
  TelemetrySpan,
  toLspError,
  type LspApplyEditResult,
  type LspService,
  type LspWorkspace,
  type LspWorkspaceEdit,
} from '@codeseam/lsp'

import { explicitApprovalReasons, type ApprovalGate } from './approval.js'
import { checkedFiles, diagnosticsLimits, positionMaps, predictDiagnostics, withChecked, type CheckedFiles } from './checks.js'
import { diagnosticDelta, snapshotDiagnostics, type FileDiagnosticsSnapshot, type PositionMap } from './diagnostics.js'
import { checkExpectedHashes, recheck } from './freshness.js'
import { leftBehindMessage } from './integrity.js'
import { acquireRootLock, type RootLockHandle } from './lock.js'
import { buildPreview, snippetsAsPlainText, type BuiltPreview } from './preview.js'
import { buildReceipt, notAsked, statusFor, writtenFiles, type ReceiptBase } from './receipt-build.js'
import type { ApprovalRecord, DiagnosticDelta, MutationReceipt, MutationStatus, RenameIntegrity } from './receipt.js'
import type { ComputedChange, MutationSessionOptions, TransactionRequest } from './transaction-types.js'

/**
 * The stages of the edit transaction (transaction.ts runs them in order). Each stage takes what the stages
 * before it found and returns it extended; `MutationSession.transact` records each result, so that a receipt
 * of a failure still shows what was known when it happened.
 */

/** What every stage of one transaction shares. */
export interface Transaction {
  readonly lsp: LspService
  readonly workspace: LspWorkspace
  readonly request: TransactionRequest
  readonly signal: AbortSignal
  readonly base: ReceiptBase
  /** When the transaction started (`performance.now()`). */
  readonly started: number
  readonly options: MutationSessionOptions
  readonly approvals: ApprovalGate
  /** How long to wait for diagnostics of the current content, before and after the write. */
  readonly waitMs: number
}

/** What a transaction knows so far: a receipt of a failure shows all of it. */
export interface Progress {
  readonly notes: ReadonlyArray<string>
  readonly snippets: number
  readonly approval: ApprovalRecord
  readonly change?: ComputedChange
  readonly built?: BuiltPreview
  readonly predicted?: DiagnosticDelta | undefined
  /** Set once the edit is applied; from then on the receipt reports the change as written, whatever follows. */
  readonly written?: LspApplyEditResult
}

/** What a transaction knows before its first stage. */
export const nothingYet: Progress = { notes: [], snippets: 0, approval: notAsked }

/** After the tool computed its change. */
export interface Computed extends Progress {
  readonly change: ComputedChange
}

/** After snippet edits became plain text: the edit to preview and apply. */
export interface PlainEdit extends Computed {
  readonly edit: LspWorkspaceEdit
}

/** After the preview. */
export interface Previewed extends PlainEdit {
  readonly built: BuiltPreview
}

/** After the checks before writing: which files are checked, their diagnostics (when read yet), the prediction. */
export interface Checked extends Previewed {
  readonly checks: CheckedFiles
  readonly maps: ReadonlyMap<string, PositionMap>
  readonly explicitReasons: ReadonlyArray<string>
  readonly before?: ReadonlyMap<string, FileDiagnosticsSnapshot>
}

/** After the diagnostic baseline of the checked files. */
export interface Baselined extends Checked {
  readonly before: ReadonlyMap<string, FileDiagnosticsSnapshot>
}

/** After the edit is on disk. */
export interface Written extends Baselined {
  readonly written: LspApplyEditResult
}

/** A failure with the status its receipt gets. */
export class Stop extends Error {
  constructor(
    readonly status: MutationStatus,
    readonly error: LspError,
  ) {
    super(error.message)
  }
}

/** A cancelled transaction does not start; one that writes takes the cross-process root lock (unless off). */
export async function lockRoot(tx: Transaction): Promise<RootLockHandle | undefined> {
  if (tx.signal.aborted) throw new LspError('CANCELLED', 'the mutation was cancelled before it started')
  if (tx.base.dryRun || tx.options.lock === false) return undefined
  return acquireRootLock(tx.base.root, { ...tx.options.lock, signal: tx.signal })
}

/**
 * In the preview span: the tool computes its change, snippets become plain text, the preview is built and
 * the caller's expected hashes are checked. `record` gets each result as soon as it is known.
 */
export function prepare(tx: Transaction, record: (state: Progress) => void): Promise<Previewed> {
  return inSpan(TelemetrySpan.preview, {}, async (span) => {
    const computed = await compute(tx)
    record(computed)
    const plain = asPlainText(computed)
    record(plain)
    const previewed = await preview(tx, plain)
    record(previewed)
    if (span.isRecording()) {
      span.setAttributes({
        [TelemetryAttr.files]: previewed.built.preview.counts.files,
        [TelemetryAttr.edits]: previewed.built.preview.counts.edits,
      })
    }
    await checkExpectedHashes(tx.workspace, previewed.built, tx.request.expectedHashes ?? {}, tx.signal)
    return previewed
  })
}

/** The tool's part: target resolution, server requests. */
async function compute(tx: Transaction): Promise<Computed> {
  const { lsp, workspace, signal } = tx
  const change = await tx.request.compute({ lsp, workspace, root: workspace.root, transactionId: tx.base.transactionId, signal })
  return { ...nothingYet, change, notes: [...(change.notes ?? [])] }
}

function asPlainText(state: Computed): PlainEdit {
  const plain = snippetsAsPlainText(state.change.edit)
  return { ...state, snippets: plain.converted, edit: plain.edit }
}

/** Containment check of every URI, then the preview (on the documents the change was computed against). */
async function preview(tx: Transaction, state: PlainEdit): Promise<Previewed> {
  const known = new Map((state.change.basis ?? []).map((s) => [s.path, s]))
  const built = await buildPreview(tx.workspace, state.edit, known, state.change.unpreviewable ?? [], tx.signal, tx.lsp.workspaces())
  return { ...state, built }
}

/** Whether the edit changes nothing (and has no effect the preview cannot show). */
export function changesNothing(built: BuiltPreview): boolean {
  const { preview } = built
  const changes = preview.files.some((f) => f.diff.length > 0 || f.change !== 'modify') || preview.resourceOperations.length > 0
  return !changes && preview.unpreviewable.length === 0
}

export function unchangedReceipt(tx: Transaction, state: Previewed): MutationReceipt {
  return buildReceipt(tx.base, tx.started, 'unchanged', {
    built: state.built,
    snippets: state.snippets,
    notes: [...state.notes, 'the edit changes nothing; nothing was written'],
    change: state.change,
  })
}

/** Rename integrity: left-behind uses of the old name refuse the write (INCOMPLETE_EDIT) unless accepted. */
export function checkIntegrity(tx: Transaction, state: Previewed): Previewed {
  const integrity = state.change.integrity
  if (integrity === undefined || integrity.leftBehind.length === 0) return state
  if (integrity.partialAccepted) {
    const note = `partial rename accepted: ${integrity.leftBehind.length} use(s) of the old name are left as they are`
    return { ...state, notes: [...state.notes, note] }
  }
  if (tx.base.dryRun) {
    const note = `${integrity.leftBehind.length} use(s) of the old name would be left unchanged (listed in integrity.leftBehind); applying will be refused unless a partial rename is accepted`
    return { ...state, notes: [...state.notes, note] }
  }
  throw new Stop(
    'refused',
    new LspError('INCOMPLETE_EDIT', leftBehindMessage(oldNameOf(integrity), integrity.leftBehind), {
      data: { leftBehind: integrity.leftBehind },
    }),
  )
}

/** The old name of a rename: the text its most frequent edit replaces. */
function oldNameOf(integrity: RenameIntegrity): string {
  return integrity.names[0]?.from ?? 'the symbol'
}

/**
 * The files to check (touched, then the impact set); for a dry run, or a preview a person will see, their
 * diagnostics before the edit and the diagnostics predicted after it.
 */
export async function checkBefore(tx: Transaction, state: Previewed): Promise<Checked> {
  const { options } = tx
  const checks = checkedFiles(tx.workspace, state.built, state.change.impact ?? [], options.maxCheckedFiles ?? 200)
  const maps = positionMaps(state.built)
  const explicitReasons = explicitApprovalReasons(state.edit, state.built.preview)
  const checked: Checked = { ...state, checks, maps, explicitReasons }
  const wantsPrediction = (options.predict ?? true) && (tx.base.dryRun || tx.approvals.asksFor(explicitReasons))
  if (!wantsPrediction) return checked
  const before = await diagnosticsOf(tx, 'before', checks.before)
  const notes = [...state.notes]
  const predicted = await predictDiagnostics(tx.lsp, tx.base.root, state.built, checks, before, maps, tx.waitMs, tx.signal, notes)
  return { ...checked, before, notes, predicted }
}

/** The diagnostics of `paths`, before or after the write (bounded wait). */
function diagnosticsOf(
  tx: Transaction,
  phase: 'before' | 'after',
  paths: ReadonlyArray<string>,
): Promise<Map<string, FileDiagnosticsSnapshot>> {
  return inSpan(TelemetrySpan.postDiagnostics, { [TelemetryAttr.diagnosticsPhase]: phase }, () =>
    snapshotDiagnostics(tx.lsp, tx.base.root, paths, tx.waitMs, tx.signal),
  )
}

export function previewedReceipt(tx: Transaction, state: Checked): MutationReceipt {
  return buildReceipt(tx.base, tx.started, 'previewed', {
    built: state.built,
    snippets: state.snippets,
    notes: state.notes,
    change: state.change,
    predicted: state.predicted,
  })
}

/** Asks for approval (or finds it given: approve all, an approval policy). */
export async function askApproval(tx: Transaction, state: Checked): Promise<Checked> {
  const { base, request } = tx
  const { preview } = state.built
  const approval = await inSpan(TelemetrySpan.approval, {}, async (span) => {
    const decided = await tx.approvals.decide(
      {
        transactionId: base.transactionId,
        tool: base.tool,
        root: base.root,
        summary: request.summary ?? `${base.tool}: ${preview.counts.edits} edits in ${preview.counts.files} files`,
        preview,
        explicitReasons: state.explicitReasons,
        ...(state.predicted === undefined ? {} : { predicted: state.predicted }),
      },
      tx.signal,
    )
    span.setAttribute(TelemetryAttr.decision, decided.decision)
    return decided
  })
  return { ...state, approval }
}

export function stopIfDenied(approval: ApprovalRecord): void {
  if (approval.decision === 'denied') {
    throw new Stop(
      'denied',
      new LspError(
        'APPROVAL_DENIED',
        `approval denied${approval.deniedReason === undefined ? '' : `: ${approval.deniedReason}`}; nothing was written`,
      ),
    )
  }
}

/** The diagnostic baseline of the checked files (already read for a prediction, or read now). */
export async function baseline(tx: Transaction, state: Checked): Promise<Baselined> {
  return { ...state, before: state.before ?? (await diagnosticsOf(tx, 'before', state.checks.before)) }
}

/** Re-checks every file's hash (stale: STALE_VERSION, nothing written), then `lsp.applyEdit` (atomic). */
export async function write(tx: Transaction, state: Baselined): Promise<Written> {
  const { base } = tx
  const { built } = state
  const written = await inSpan(TelemetrySpan.apply, { [TelemetryAttr.files]: built.preview.counts.files }, async () => {
    await recheck(tx.workspace, built, tx.signal)
    try {
      return await tx.lsp.applyEdit(state.edit, {
        root: base.root,
        expectedHashes: Object.fromEntries([...built.basis].map(([path, snapshot]) => [path, snapshot.hash])),
        label: `${base.tool} ${base.transactionId}`,
      })
    } catch (cause) {
      const error = toLspError(cause, 'WRITE_FAILED', 'applying the edit failed')
      throw new Stop(error.code === 'STALE_VERSION' ? 'conflict' : 'failed', error)
    }
  })
  return { ...state, written }
}

/** The diagnostics of the checked files after the write, compared with the baseline, in the receipt. */
export async function appliedReceipt(tx: Transaction, state: Written): Promise<MutationReceipt> {
  const { lsp, base } = tx
  const { checks } = state
  const after = await diagnosticsOf(tx, 'after', checks.after)
  const diagnostics = withChecked(
    diagnosticDelta(base.root, state.before, after, state.built.renamed, state.maps),
    checks,
    diagnosticsLimits(lsp, checks.after),
  )
  return buildReceipt(base, tx.started, 'applied', {
    built: state.built,
    snippets: state.snippets,
    notes: state.notes,
    change: state.change,
    approval: state.approval,
    files: writtenFiles(base.root, state.built, state.written),
    diagnostics,
    predicted: state.predicted,
  })
}

/** The receipt of a transaction that failed after `state`: applied when the edit was already written. */
export function failureReceipt(tx: Transaction, state: Progress, cause: unknown): MutationReceipt {
  const { base, started, signal } = tx
  if (state.written !== undefined && state.built !== undefined) {
    // The change is on disk: whatever failed afterwards, the receipt must not say nothing was written.
    const error = signal.aborted ? new LspError('CANCELLED', 'the call was cancelled') : toLspError(cause, 'SERVER_ERROR', base.tool)
    const afterwards = `the edit was written, but the work after it stopped (${error.code}: ${error.message}); the diagnostics after the edit were not checked`
    return buildReceipt(base, started, 'applied', {
      built: state.built,
      snippets: state.snippets,
      notes: [...state.notes, afterwards],
      change: state.change,
      approval: state.approval,
      files: writtenFiles(base.root, state.built, state.written),
    })
  }
  const stop = cause instanceof Stop ? cause : undefined
  const error =
    stop?.error ??
    (signal.aborted
      ? new LspError('CANCELLED', 'the mutation was cancelled; nothing was written', { cause })
      : toLspError(cause, 'SERVER_ERROR', base.tool))
  return buildReceipt(base, started, stop?.status ?? statusFor(error.code), {
    built: state.built,
    snippets: state.snippets,
    notes: state.notes,
    change: state.change,
    approval: state.approval,
    error,
    predicted: state.predicted,
  })
}
