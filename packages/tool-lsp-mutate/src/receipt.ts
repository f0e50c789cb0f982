import type { LspErrorCode, ModelRange } from '@codeseam/lsp'

/**
 * What a transaction shows before it runs (the preview) and what it did (the receipt). Both are plain JSON:
 * harnesses and UIs read the structured edit list instead of parsing diffs. Paths are workspace-relative
 * with forward slashes; ranges are 1-based lines and columns (end exclusive), like every model-facing tool.
 */

/** One text edit in a preview. */
export interface PreviewEdit {
  readonly range: ModelRange
  /** The text the edit replaces. */
  readonly oldText: string
  readonly newText: string
}

/** What happens to one file. */
export interface PreviewFile {
  readonly path: string
  readonly change: 'modify' | 'create' | 'delete' | 'rename'
  /** For a rename: where the file goes. */
  readonly newPath?: string
  /** Content hash before (absent for a created file). */
  readonly hashBefore?: string
  /** Content hash the file will have (absent for a deleted file or an unreadable folder). */
  readonly hashAfter?: string
  readonly edits: ReadonlyArray<PreviewEdit>
  /** Unified diff (`--- a/path` / `+++ b/path`); empty when the content does not change. */
  readonly diff: string
  readonly linesAdded: number
  readonly linesRemoved: number
}

/** A create / rename / delete step of the edit. */
export interface PreviewResourceOperation {
  readonly type: 'create' | 'rename' | 'delete'
  readonly path: string
  readonly newPath?: string
  readonly overwrite?: boolean
  readonly ignoreIfExists?: boolean
  readonly recursive?: boolean
  readonly ignoreIfNotExists?: boolean
  /** Deletes or may overwrite something: always needs explicit approval. */
  readonly destructive: boolean
  readonly annotation?: string
}

/** Everything a person or harness needs to decide on a change. */
export interface MutationPreview {
  readonly files: ReadonlyArray<PreviewFile>
  readonly resourceOperations: ReadonlyArray<PreviewResourceOperation>
  readonly counts: {
    readonly files: number
    readonly edits: number
    readonly resourceOperations: number
    readonly linesAdded: number
    readonly linesRemoved: number
  }
  /** Effects the preview cannot show (a command that ran on the server). Non-empty ⇒ explicit approval. */
  readonly unpreviewable: ReadonlyArray<string>
}

/** How the approval step went. */
export interface ApprovalRecord {
  /**
   * auto: the session's autoApprove flag; session: an earlier "approve all"; approved / approvedAll: the
   * harness said yes (approvedAll also covers later previewable changes); denied: the harness said no or no
   * policy allows it; notAsked: the transaction stopped before approval (dry run, conflict, refusal).
   */
  readonly decision: 'auto' | 'session' | 'approved' | 'approvedAll' | 'denied' | 'notAsked'
  /** Whether this change needed an explicit yes regardless of autoApprove / approve-all. */
  readonly explicitRequired: boolean
  /** Why an explicit yes was needed. */
  readonly reasons: ReadonlyArray<string>
  /** The harness's reason for a denial. */
  readonly deniedReason?: string
}

/** One diagnostic in a receipt. */
export interface ReceiptDiagnostic {
  readonly path: string
  readonly line: number
  readonly column: number
  readonly severity: 'error' | 'warning' | 'information' | 'hint'
  readonly message: string
  readonly code?: string | number
  readonly source?: string
}

/** How the diagnostics of one touched file were read. */
export interface ReceiptDiagnosticsFile {
  readonly path: string
  /** current: for the content as it is now; stale/unknown: the server had not caught up within the wait; unavailable: no provider or the query failed. */
  readonly before: 'current' | 'stale' | 'unknown' | 'unavailable'
  readonly after: 'current' | 'stale' | 'unknown' | 'unavailable'
  readonly note?: string
}

/** What the edit did to the diagnostics of the files it touched. */
export interface DiagnosticDelta {
  readonly introduced: ReadonlyArray<ReceiptDiagnostic>
  readonly resolved: ReadonlyArray<ReceiptDiagnostic>
  readonly persisting: ReadonlyArray<ReceiptDiagnostic>
  readonly files: ReadonlyArray<ReceiptDiagnosticsFile>
  /** Every checked file's after-diagnostics were computed for its new content. */
  readonly settled: boolean
  /**
   * Which files were checked: every touched file and every file that referred to a changed symbol before the
   * edit (the impact set), up to the session's `maxCheckedFiles`; `notChecked` lists the rest (RFC 0018).
   */
  readonly checked?: {
    readonly files: number
    /** Of those, files the edit does not touch but that referred to what it changes. */
    readonly impact: number
    readonly notChecked: ReadonlyArray<string>
    /** What these diagnostics cannot see, per language (`Rust: rust-analyzer's own analysis only …`). */
    readonly limits?: ReadonlyArray<string>
  }
}

/** What a rename covers, compared with the symbol's complete references (RFC 0018). */
export interface RenameIntegrity {
  /** References found for the symbol before the edit (inside the workspace). */
  readonly references: number
  /** References an edit of the rename changes. */
  readonly covered: number
  /** References with the old name the rename leaves unchanged (they would break, or bind to something else). */
  readonly leftBehind: ReadonlyArray<IntegrityLocation>
  /** References spelled with another name: uses of an alias (`export { f as g }`), unchanged by design. */
  readonly throughAlias: ReadonlyArray<IntegrityLocation & { readonly name: string }>
  /** Every name the edit changes, and how often: `f → g` (and `f → g as f` where the server keeps an alias). */
  readonly names: ReadonlyArray<{ readonly from: string; readonly to: string; readonly count: number }>
  /** Old-name references left unchanged because the edit keeps the old name as an alias (`import { g as f }`). */
  readonly keptByAlias: ReadonlyArray<IntegrityLocation>
  /** The caller accepted a partial rename (`allowPartial`). */
  readonly partialAccepted: boolean
}

/** One place in a receipt: workspace-relative path, 1-based line and column, the line's text. */
export interface IntegrityLocation {
  readonly path: string
  readonly line: number
  readonly column: number
  readonly snippet: string
  /** Set when the use is in text the server resolves no names in (`a macro_rules! body`): it names that text. */
  readonly inside?: string
}

/** What happened to one file. */
export interface ReceiptFile {
  readonly path: string
  readonly change: PreviewFile['change']
  readonly newPath?: string
  readonly editCount: number
  readonly hashBefore?: string
  /** The new content hash (applied transactions). */
  readonly hashAfter?: string
  /** Whether the change reached disk. */
  readonly saved: boolean
}

/** The outcome of a transaction. */
export type MutationStatus =
  /** Written. */
  | 'applied'
  /** The computed edit changes nothing (e.g. already formatted); nothing written. */
  | 'unchanged'
  /** Dry run: preview only, nothing written. */
  | 'previewed'
  /** Approval refused; nothing written. */
  | 'denied'
  /** A file changed underneath (STALE_VERSION) or edits overlap; nothing written. */
  | 'conflict'
  /** The request or the server refused it (bad target, refused rename, escaping path); nothing written. */
  | 'refused'
  /** Computing or applying failed; the applier rolled back, nothing written. */
  | 'failed'

/** The receipt every transaction returns, whatever its outcome. */
export interface MutationReceipt {
  readonly transactionId: string
  readonly tool: string
  readonly root: string
  readonly status: MutationStatus
  readonly dryRun: boolean
  readonly files: ReadonlyArray<ReceiptFile>
  readonly editCount: number
  readonly resourceOperations: ReadonlyArray<PreviewResourceOperation>
  readonly approval: ApprovalRecord
  /** Snippet edits that were applied as plain text (placeholders removed). */
  readonly snippetEditsAsPlainText: number
  /** Absent when the transaction stopped before an edit was computed. */
  readonly preview?: MutationPreview
  /** Absent for dry runs and transactions that wrote nothing. */
  readonly diagnostics?: DiagnosticDelta
  /**
   * A dry run's (and an approval preview's) prediction: the diagnostics the edit would introduce, computed
   * on the servers' in-memory documents without writing (RFC 0018). Absent when no check could run.
   */
  readonly predicted?: DiagnosticDelta
  /** A rename compared with its symbol's references. */
  readonly integrity?: RenameIntegrity
  /** A code action's command that ran on the server while the edit was computed. */
  readonly command?: { readonly title: string; readonly command: string; readonly result?: unknown }
  readonly error?: { readonly code: LspErrorCode; readonly message: string; readonly data?: Readonly<Record<string, unknown>> }
  readonly notes: ReadonlyArray<string>
  readonly startedAt: string
  readonly elapsedMs: number
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}

/** One line for UIs: "applied · 3 edits in 2 files · 0 introduced, 1 resolved". */
export function summarizeReceipt(receipt: MutationReceipt): string {
  const parts: string[] = [receipt.status]
  if (receipt.preview !== undefined) {
    parts.push(`${plural(receipt.preview.counts.edits, 'edit')} in ${plural(receipt.preview.counts.files, 'file')}`)
    if (receipt.preview.counts.resourceOperations > 0) parts.push(plural(receipt.preview.counts.resourceOperations, 'resource operation'))
  }
  if (receipt.diagnostics !== undefined) {
    const checked = receipt.diagnostics.checked
    parts.push(
      `${receipt.diagnostics.introduced.length} introduced, ${receipt.diagnostics.resolved.length} resolved diagnostics${checked === undefined ? '' : ` in ${plural(checked.files, 'checked file')}`}`,
    )
  } else if (receipt.predicted !== undefined) {
    const errors = receipt.predicted.introduced.filter((d) => d.severity === 'error')
    const files = new Set(errors.map((d) => d.path)).size
    parts.push(
      `would introduce ${plural(errors.length, 'error')} in ${plural(files, 'file')} (${plural(receipt.predicted.checked?.files ?? receipt.predicted.files.length, 'file')} checked in memory)`,
    )
  }
  const limits = (receipt.diagnostics ?? receipt.predicted)?.checked?.limits ?? []
  if (limits.length > 0) parts.push(`not a compiler check for ${limits.map((limit) => limit.split(':')[0]).join(', ')}`)
  if (receipt.error !== undefined) parts.push(receipt.error.code)
  return parts.join(' · ')
}

function renderDiagnostic(d: ReceiptDiagnostic): string {
  return `  ${d.path}:${d.line}:${d.column} ${d.severity}${d.code === undefined ? '' : ` ${d.code}`}: ${d.message}`
}

/** A diagnostic delta as text: counts, what was checked, introduced ones grouped by file. */
function renderDelta(lines: string[], delta: DiagnosticDelta, title: string, verb: string): void {
  lines.push('', `${title}${delta.settled ? '' : ' (not all settled: some servers had not caught up within the wait)'}:`)
  const checked = delta.checked
  if (checked !== undefined) {
    lines.push(
      `checked ${plural(checked.files, 'file')} (${checked.impact} of them untouched files that used what changed)${checked.notChecked.length === 0 ? '' : `; not checked (over maxCheckedFiles): ${checked.notChecked.length} — ${checked.notChecked.slice(0, 5).join(', ')}${checked.notChecked.length > 5 ? ', …' : ''}`}`,
    )
    for (const limit of checked.limits ?? []) lines.push(`limit of these diagnostics — ${limit}`)
  }
  const unavailable = delta.files.filter((f) => f.after === 'unavailable')
  if (unavailable.length > 0) {
    lines.push(
      `not checked: ${unavailable
        .map((f) => `${f.path}${f.note === undefined ? '' : ` (${f.note})`}`)
        .slice(0, 5)
        .join('; ')}`,
    )
  }
  lines.push(`${verb} ${delta.introduced.length}, resolved ${delta.resolved.length}, persisting ${delta.persisting.length}`)
  if (delta.introduced.length > 0) {
    lines.push(`${verb}:`)
    const byFile = new Map<string, ReceiptDiagnostic[]>()
    for (const d of delta.introduced) byFile.set(d.path, [...(byFile.get(d.path) ?? []), d])
    let shown = 0
    for (const [path, list] of byFile) {
      if (shown >= 20) break
      lines.push(`  ${path} (${list.length}):`)
      for (const d of list.slice(0, Math.max(1, 20 - shown))) lines.push(`  ${renderDiagnostic(d)}`)
      shown += list.length
    }
    if (delta.introduced.length > 20) lines.push(`  … ${delta.introduced.length - 20} more in the structured receipt`)
  }
  if (delta.resolved.length > 0) lines.push('resolved:', ...delta.resolved.slice(0, 10).map(renderDiagnostic))
}

/** Options for {@link renderReceipt}. */
export interface RenderReceiptOptions {
  /** Repeat the error line (default true); false when the error message is already shown above the receipt. */
  readonly includeError?: boolean
}

/** The text form a model reads: outcome, files, diffs, diagnostic delta, notes. */
export function renderReceipt(receipt: MutationReceipt, options: RenderReceiptOptions = {}): string {
  const includeError = options.includeError ?? true
  const lines: string[] = [`transaction ${receipt.transactionId} (${receipt.tool}): ${summarizeReceipt(receipt)}`]
  if (receipt.error !== undefined && includeError) lines.push(`error ${receipt.error.code}: ${receipt.error.message}`)
  if (receipt.status === 'previewed') lines.push('dry run: nothing was written; call again without dryRun to apply')
  if (receipt.approval.decision === 'denied' && !includeError) {
    // The error message above already says it was denied and why.
  } else if (receipt.approval.decision === 'denied') {
    lines.push(
      `approval denied${receipt.approval.deniedReason === undefined ? '' : `: ${receipt.approval.deniedReason}`}; nothing was written`,
    )
  } else if (receipt.approval.explicitRequired) {
    lines.push(`explicit approval was required: ${receipt.approval.reasons.join('; ')}`)
  }
  for (const file of receipt.files) {
    const hash = file.hashAfter === undefined ? '' : ` hash ${file.hashAfter.slice(0, 12)}`
    lines.push(
      `${file.change} ${file.path}${file.newPath === undefined ? '' : ` → ${file.newPath}`}: ${plural(file.editCount, 'edit')}${receipt.status === 'applied' ? (file.saved ? ', saved' : ', NOT saved') : ''}${hash}`,
    )
  }
  for (const op of receipt.resourceOperations) {
    lines.push(`${op.type} ${op.path}${op.newPath === undefined ? '' : ` → ${op.newPath}`}${op.destructive ? ' (destructive)' : ''}`)
  }
  if (receipt.snippetEditsAsPlainText > 0) {
    lines.push(`${plural(receipt.snippetEditsAsPlainText, 'snippet edit')} applied as plain text (placeholders removed)`)
  }
  if (receipt.command !== undefined) lines.push(`command run on the server: ${receipt.command.title} (${receipt.command.command})`)
  for (const unpreviewable of receipt.preview?.unpreviewable ?? []) lines.push(`not previewable: ${unpreviewable}`)
  const diffs = (receipt.preview?.files ?? []).map((f) => f.diff).filter((d) => d.length > 0)
  // Only the final newline goes: a diff's last context line may be a lone space (an empty line).
  if (diffs.length > 0) lines.push('', ...diffs.map((d) => (d.endsWith('\n') ? d.slice(0, -1) : d)))
  const integrity = receipt.integrity
  if (integrity !== undefined) {
    lines.push('', `references: ${integrity.references} found, ${integrity.covered} renamed by the edit`)
    if (integrity.names.length > 0)
      lines.push(`names changed: ${integrity.names.map((n) => `${n.from} → ${n.to} (${n.count})`).join(', ')}`)
    if (integrity.leftBehind.length > 0) {
      lines.push(
        `left unchanged (uses of the old name the rename does not cover)${integrity.partialAccepted ? ', accepted as a partial rename' : ''}:`,
      )
      lines.push(...integrity.leftBehind.slice(0, 20).map((l) => `  ${l.path}:${l.line}: ${l.snippet}`))
    }
    if (integrity.keptByAlias.length > 0) {
      lines.push(
        'kept (the edit keeps the old name as an alias for them):',
        ...integrity.keptByAlias.slice(0, 10).map((l) => `  ${l.path}:${l.line}: ${l.snippet}`),
      )
    }
    if (integrity.throughAlias.length > 0) {
      lines.push(
        'through an alias (the alias keeps its name):',
        ...integrity.throughAlias.slice(0, 10).map((l) => `  ${l.path}:${l.line} (${l.name}): ${l.snippet}`),
      )
    }
  }
  if (receipt.predicted !== undefined)
    renderDelta(
      lines,
      receipt.predicted,
      "predicted diagnostics (the edit applied in the language servers' memory only, not on disk)",
      'would introduce',
    )
  if (receipt.diagnostics !== undefined) renderDelta(lines, receipt.diagnostics, 'diagnostics', 'introduced')
  for (const note of receipt.notes) lines.push(`note: ${note}`)
  return lines.join('\n')
}
