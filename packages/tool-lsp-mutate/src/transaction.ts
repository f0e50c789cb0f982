import { randomUUID } from 'node:crypto'

import {
  displayPath,
  inSpan,
  LspError,
  TelemetryAttr,
  TelemetrySpan,
  resolveInRoot,
  toLspError,
  type LspApplyEditResult,
  type LspDocumentSnapshot,
  type LspErrorCode,
  type LspService,
  type LspWorkspace,
  type LspWorkspaceEdit,
} from '@codeseam/lsp'

import { ApprovalGate, explicitApprovalReasons, type ApprovalPolicy } from './approval.js'
import { checkedFiles, diagnosticsLimits, positionMaps, predictDiagnostics, withChecked } from './checks.js'
import { diagnosticDelta, snapshotDiagnostics, type FileDiagnosticsSnapshot } from './diagnostics.js'
import { acquireRootLock, type RootLockHandle, type RootLockOptions } from './lock.js'
import { buildPreview, snippetsAsPlainText, type BuiltPreview } from './preview.js'
import { MutationQueue } from './queue.js'
import { leftBehindMessage } from './integrity.js'
import type { ApprovalRecord, DiagnosticDelta, MutationReceipt, MutationStatus, ReceiptFile, RenameIntegrity } from './receipt.js'

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

/** Options of a {@link MutationSession}. */
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

class Stop extends Error {
  constructor(
    readonly status: MutationStatus,
    readonly error: LspError,
  ) {
    super(error.message)
  }
}

/** The status a failure of each code leads to. */
function statusFor(code: LspErrorCode): MutationStatus {
  switch (code) {
    case 'STALE_VERSION':
      return 'conflict'
    case 'NOT_FOUND':
    case 'AMBIGUOUS':
    case 'INVALID_ARGUMENT':
    case 'OUTSIDE_WORKSPACE':
    case 'UNTRUSTED':
      return 'refused'
    case 'APPROVAL_DENIED':
      return 'denied'
    default:
      return 'failed'
  }
}

const notAsked: ApprovalRecord = { decision: 'notAsked', explicitRequired: false, reasons: [] }

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
      return this.receipt({ ...base, root: request.root }, started, 'failed', {
        error: new LspError('UNAVAILABLE', `no workspace is open at "${request.root}"`),
      })
    }
    return this.queue.run(workspace.root, () => this.transact(lsp, workspace, request, signal, { ...base, root: workspace.root }, started))
  }

  private async transact(
    lsp: LspService,
    workspace: LspWorkspace,
    request: TransactionRequest,
    signal: AbortSignal,
    base: { transactionId: string; tool: string; dryRun: boolean; startedAt: string; root: string },
    started: number,
  ): Promise<MutationReceipt> {
    const root = workspace.root
    const waitMs = this.options.diagnosticsWaitMs ?? 15_000
    let lock: RootLockHandle | undefined
    let built: BuiltPreview | undefined
    let approval: ApprovalRecord = notAsked
    let snippets = 0
    let change: ComputedChange | undefined
    const notes: string[] = []
    /** Set once the edit is applied; from then on the receipt reports the change as written, whatever follows. */
    let written: LspApplyEditResult | undefined
    let predicted: DiagnosticDelta | undefined
    try {
      if (signal.aborted) throw new LspError('CANCELLED', 'the mutation was cancelled before it started')
      if (!base.dryRun && this.options.lock !== false) {
        lock = await acquireRootLock(root, { ...this.options.lock, signal })
      }
      // The outer variables are set as soon as known: a receipt of a failure after them still shows them.
      const prepared = await inSpan(TelemetrySpan.preview, {}, async (span) => {
        const computed = await request.compute({ lsp, workspace, root, transactionId: base.transactionId, signal })
        change = computed
        notes.push(...(computed.notes ?? []))
        const plain = snippetsAsPlainText(computed.edit)
        snippets = plain.converted
        const known = new Map((computed.basis ?? []).map((s) => [s.path, s]))
        const previewed = await buildPreview(workspace, plain.edit, known, computed.unpreviewable ?? [], signal)
        built = previewed
        if (span.isRecording()) {
          span.setAttributes({
            [TelemetryAttr.files]: previewed.preview.counts.files,
            [TelemetryAttr.edits]: previewed.preview.counts.edits,
          })
        }
        await this.checkExpectedHashes(workspace, previewed, request.expectedHashes ?? {}, signal)
        return { edit: plain.edit, built: previewed, change: computed }
      })
      const { edit } = prepared
      const preview = prepared.built

      const changes =
        preview.preview.files.some((f) => f.diff.length > 0 || f.change !== 'modify') || preview.preview.resourceOperations.length > 0
      if (!changes && preview.preview.unpreviewable.length === 0) {
        return this.receipt(base, started, 'unchanged', {
          built: preview,
          snippets,
          notes: [...notes, 'the edit changes nothing; nothing was written'],
          change: prepared.change,
        })
      }
      const integrity = prepared.change.integrity
      if (integrity !== undefined && integrity.leftBehind.length > 0) {
        if (integrity.partialAccepted) {
          notes.push(`partial rename accepted: ${integrity.leftBehind.length} use(s) of the old name are left as they are`)
        } else if (base.dryRun) {
          notes.push(
            `${integrity.leftBehind.length} use(s) of the old name would be left unchanged (listed in integrity.leftBehind); applying will be refused unless a partial rename is accepted`,
          )
        } else {
          throw new Stop(
            'refused',
            new LspError('INCOMPLETE_EDIT', leftBehindMessage(oldNameOf(integrity), integrity.leftBehind), {
              data: { leftBehind: integrity.leftBehind },
            }),
          )
        }
      }
      const checks = checkedFiles(workspace, preview, prepared.change.impact ?? [], this.options.maxCheckedFiles ?? 200)
      const maps = positionMaps(preview)

      // Diagnostics before the edit, and — for a dry run, or a preview a person will see — predicted after it.
      let before: Map<string, FileDiagnosticsSnapshot> | undefined
      const explicitReasons = explicitApprovalReasons(edit, preview.preview)
      const wantsPrediction = (this.options.predict ?? true) && (base.dryRun || this.approvals.asksFor(explicitReasons))
      if (wantsPrediction) {
        before = await inSpan(TelemetrySpan.postDiagnostics, { [TelemetryAttr.diagnosticsPhase]: 'before' }, () =>
          snapshotDiagnostics(lsp, root, checks.before, waitMs, signal),
        )
        predicted = await predictDiagnostics(lsp, root, preview, checks, before, maps, waitMs, signal, notes)
      }
      if (base.dryRun) {
        return this.receipt(base, started, 'previewed', { built: preview, snippets, notes, change: prepared.change, predicted })
      }

      approval = await inSpan(TelemetrySpan.approval, {}, async (span) => {
        const decided = await this.approvals.decide(
          {
            transactionId: base.transactionId,
            tool: base.tool,
            root,
            summary: request.summary ?? `${base.tool}: ${preview.preview.counts.edits} edits in ${preview.preview.counts.files} files`,
            preview: preview.preview,
            explicitReasons,
            ...(predicted === undefined ? {} : { predicted }),
          },
          signal,
        )
        span.setAttribute(TelemetryAttr.decision, decided.decision)
        return decided
      })
      if (approval.decision === 'denied') {
        throw new Stop(
          'denied',
          new LspError(
            'APPROVAL_DENIED',
            `approval denied${approval.deniedReason === undefined ? '' : `: ${approval.deniedReason}`}; nothing was written`,
          ),
        )
      }

      before ??= await inSpan(TelemetrySpan.postDiagnostics, { [TelemetryAttr.diagnosticsPhase]: 'before' }, () =>
        snapshotDiagnostics(lsp, root, checks.before, waitMs, signal),
      )
      written = await inSpan(TelemetrySpan.apply, { [TelemetryAttr.files]: preview.preview.counts.files }, async () => {
        await this.recheck(workspace, preview, signal)
        try {
          return await lsp.applyEdit(edit, {
            root,
            expectedHashes: Object.fromEntries([...preview.basis].map(([path, snapshot]) => [path, snapshot.hash])),
            label: `${base.tool} ${base.transactionId}`,
          })
        } catch (cause) {
          const error = toLspError(cause, 'WRITE_FAILED', 'applying the edit failed')
          throw new Stop(error.code === 'STALE_VERSION' ? 'conflict' : 'failed', error)
        }
      })
      const after = await inSpan(TelemetrySpan.postDiagnostics, { [TelemetryAttr.diagnosticsPhase]: 'after' }, () =>
        snapshotDiagnostics(lsp, root, checks.after, waitMs, signal),
      )
      const diagnostics = withChecked(
        diagnosticDelta(root, before, after, preview.renamed, maps),
        checks,
        diagnosticsLimits(lsp, checks.after),
      )
      return this.receipt(base, started, 'applied', {
        built: preview,
        snippets,
        notes,
        change: prepared.change,
        approval,
        files: writtenFiles(root, preview, written),
        diagnostics,
        predicted,
      })
    } catch (cause) {
      const stop = cause instanceof Stop ? cause : undefined
      if (written !== undefined && built !== undefined) {
        // The change is on disk: whatever failed afterwards, the receipt must not say nothing was written.
        const error = signal.aborted ? new LspError('CANCELLED', 'the call was cancelled') : toLspError(cause, 'SERVER_ERROR', base.tool)
        const afterwards = `the edit was written, but the work after it stopped (${error.code}: ${error.message}); the diagnostics after the edit were not checked`
        return this.receipt(base, started, 'applied', {
          built,
          snippets,
          notes: [...notes, afterwards],
          change,
          approval,
          files: writtenFiles(root, built, written),
        })
      }
      const error =
        stop?.error ??
        (signal.aborted
          ? new LspError('CANCELLED', 'the mutation was cancelled; nothing was written', { cause })
          : toLspError(cause, 'SERVER_ERROR', base.tool))
      return this.receipt(base, started, stop?.status ?? statusFor(error.code), {
        built,
        snippets,
        notes,
        change,
        approval,
        error,
        predicted,
      })
    } finally {
      await lock?.release()
    }
  }

  private async checkExpectedHashes(
    workspace: LspWorkspace,
    built: BuiltPreview,
    expected: Readonly<Record<string, string>>,
    signal: AbortSignal,
  ): Promise<void> {
    for (const [path, hash] of Object.entries(expected)) {
      const absolute = resolveInRoot(workspace.root, path)
      const actual = built.basis.get(absolute)?.hash ?? (await workspace.readFile(absolute, signal)).hash
      if (!sameHash(actual, hash)) {
        throw new LspError(
          'STALE_VERSION',
          `${displayPath(workspace.root, absolute)} has changed: expected hash ${hash.slice(0, 12)}…, it is now ${actual.slice(0, 12)}…; re-read it and retry; nothing was written`,
          { data: { path: displayPath(workspace.root, absolute), expected: hash, actual } },
        )
      }
    }
  }

  /** Every previewed file must still have the content it was previewed with; files to create must still be absent. */
  private async recheck(workspace: LspWorkspace, built: BuiltPreview, signal: AbortSignal): Promise<void> {
    for (const op of built.preview.resourceOperations) {
      if (op.type !== 'create' || op.overwrite === true || op.ignoreIfExists === true) continue
      if (await workspace.exists(resolveInRoot(workspace.root, op.path))) {
        throw new LspError(
          'STALE_VERSION',
          `${op.path} was created by someone else after the preview was made; nothing was written; run the tool again`,
          {
            data: { path: op.path },
          },
        )
      }
    }
    for (const [path, snapshot] of built.basis) {
      let now: LspDocumentSnapshot | undefined
      try {
        now = await workspace.readFile(path, signal)
      } catch {
        now = undefined
      }
      if (now?.hash !== snapshot.hash) {
        const where = displayPath(workspace.root, path)
        throw new LspError(
          'STALE_VERSION',
          `${where} changed after the preview was made${now === undefined ? ' (it can no longer be read)' : ''}; nothing was written; run the tool again`,
          {
            data: { path: where, expected: snapshot.hash, ...(now === undefined ? {} : { actual: now.hash }) },
          },
        )
      }
    }
  }

  private receipt(
    base: { transactionId: string; tool: string; dryRun: boolean; startedAt: string; root: string },
    started: number,
    status: MutationStatus,
    parts: {
      built?: BuiltPreview | undefined
      snippets?: number
      notes?: string[]
      change?: ComputedChange | undefined
      approval?: ApprovalRecord
      files?: ReceiptFile[]
      diagnostics?: MutationReceipt['diagnostics']
      predicted?: DiagnosticDelta | undefined
      error?: LspError
    },
  ): MutationReceipt {
    const preview = parts.built?.preview
    const files: ReadonlyArray<ReceiptFile> =
      parts.files ??
      (preview?.files ?? []).map((file) => ({
        path: file.path,
        change: file.change,
        ...(file.newPath === undefined ? {} : { newPath: file.newPath }),
        editCount: file.edits.length,
        ...(file.hashBefore === undefined ? {} : { hashBefore: file.hashBefore }),
        saved: false,
      }))
    const error = parts.error
    return {
      transactionId: base.transactionId,
      tool: base.tool,
      root: base.root,
      status,
      dryRun: base.dryRun,
      files,
      editCount: preview?.counts.edits ?? 0,
      resourceOperations: preview?.resourceOperations ?? [],
      approval: parts.approval ?? notAsked,
      snippetEditsAsPlainText: parts.snippets ?? 0,
      ...(preview === undefined ? {} : { preview }),
      ...(parts.diagnostics === undefined ? {} : { diagnostics: parts.diagnostics }),
      ...(parts.predicted === undefined ? {} : { predicted: parts.predicted }),
      ...(parts.change?.integrity === undefined ? {} : { integrity: parts.change.integrity }),
      ...(parts.change?.command === undefined ? {} : { command: parts.change.command }),
      ...(error === undefined
        ? {}
        : {
            error: {
              code: error.code,
              message: error.message,
              ...(Object.keys(error.data).length === 0 ? {} : { data: jsonSafe(error.data) }),
            },
          }),
      notes: parts.notes ?? [],
      startedAt: base.startedAt,
      elapsedMs: Math.round(performance.now() - started),
    }
  }
}

/** The old name of a rename: the text its most frequent edit replaces. */
function oldNameOf(integrity: RenameIntegrity): string {
  return integrity.names[0]?.from ?? 'the symbol'
}

/** The receipt's files after a successful apply: hashes as the applier reported them. */
function writtenFiles(root: string, built: BuiltPreview, applied: LspApplyEditResult): ReceiptFile[] {
  const hashes = new Map(applied.files.map((f) => [resolveInRoot(root, f.path), f]))
  return built.preview.files.map((file) => {
    const absolute = resolveInRoot(root, file.path)
    const written = hashes.get(absolute) ?? (file.newPath === undefined ? undefined : hashes.get(resolveInRoot(root, file.newPath)))
    return {
      path: file.path,
      change: file.change,
      ...(file.newPath === undefined ? {} : { newPath: file.newPath }),
      editCount: built.editCounts.get(absolute) ?? file.edits.length,
      ...(file.hashBefore === undefined ? {} : { hashBefore: file.hashBefore }),
      ...(written?.hashAfter === undefined ? {} : { hashAfter: written.hashAfter }),
      saved: written?.saved ?? true,
    }
  })
}

function jsonSafe(value: object): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>
  } catch {
    return {}
  }
}

/**
 * Whether an expected hash names this content: the whole sha-256, or its first 12 or more hex digits (what a
 * receipt's text prints: a person copies that from a terminal).
 */
export function sameHash(actual: string, expected: string): boolean {
  const given = expected.trim().toLowerCase()
  return actual === given || (given.length >= 12 && /^[0-9a-f]+$/.test(given) && actual.startsWith(given))
}
