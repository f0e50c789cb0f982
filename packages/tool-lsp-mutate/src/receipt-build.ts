import { resolveInRoot, type LspApplyEditResult, type LspError, type LspErrorCode } from '@codeseam/lsp'

import type { BuiltPreview } from './preview.js'
import type {
  ApprovalRecord,
  DiagnosticDelta,
  MutationPreview,
  MutationReceipt,
  MutationStatus,
  ReceiptFile,
  RenameIntegrity,
} from './receipt.js'

/**
 * How a transaction builds its receipt (the shape is in receipt.ts): from what the transaction knew when it
 * stopped, whatever the outcome.
 */

/** What every receipt of one transaction says, whatever its outcome. */
export interface ReceiptBase {
  readonly transactionId: string
  readonly tool: string
  readonly dryRun: boolean
  readonly startedAt: string
  readonly root: string
}

/** What a transaction knew when it stopped: each part is shown when present. */
export interface ReceiptParts {
  readonly built?: BuiltPreview | undefined
  readonly snippets?: number
  readonly notes?: ReadonlyArray<string>
  readonly change?: { readonly integrity?: RenameIntegrity; readonly command?: MutationReceipt['command'] } | undefined
  readonly approval?: ApprovalRecord
  readonly files?: ReadonlyArray<ReceiptFile>
  readonly diagnostics?: MutationReceipt['diagnostics']
  readonly predicted?: DiagnosticDelta | undefined
  readonly error?: LspError
}

/** The approval record of a transaction that did not ask. */
export const notAsked: ApprovalRecord = { decision: 'notAsked', explicitRequired: false, reasons: [] }

/** The status a failure of each code leads to. */
export function statusFor(code: LspErrorCode): MutationStatus {
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

/** The receipt of a transaction that started at `started` (a `performance.now()` time). */
export function buildReceipt(base: ReceiptBase, started: number, status: MutationStatus, parts: ReceiptParts): MutationReceipt {
  const preview = parts.built?.preview
  const error = parts.error
  return {
    transactionId: base.transactionId,
    tool: base.tool,
    root: base.root,
    status,
    dryRun: base.dryRun,
    files: parts.files ?? previewedFiles(preview),
    editCount: preview?.counts.edits ?? 0,
    resourceOperations: preview?.resourceOperations ?? [],
    approval: parts.approval ?? notAsked,
    snippetEditsAsPlainText: parts.snippets ?? 0,
    ...(preview === undefined ? {} : { preview }),
    ...(parts.diagnostics === undefined ? {} : { diagnostics: parts.diagnostics }),
    ...(parts.predicted === undefined ? {} : { predicted: parts.predicted }),
    ...(parts.change?.integrity === undefined ? {} : { integrity: parts.change.integrity }),
    ...(parts.change?.command === undefined ? {} : { command: parts.change.command }),
    ...(error === undefined ? {} : { error: receiptError(error) }),
    notes: parts.notes ?? [],
    startedAt: base.startedAt,
    elapsedMs: Math.round(performance.now() - started),
  }
}

/** The receipt's files when nothing was written: the previewed files, unsaved. */
function previewedFiles(preview: MutationPreview | undefined): ReadonlyArray<ReceiptFile> {
  return (preview?.files ?? []).map((file) => ({
    path: file.path,
    change: file.change,
    ...(file.newPath === undefined ? {} : { newPath: file.newPath }),
    editCount: file.edits.length,
    ...(file.hashBefore === undefined ? {} : { hashBefore: file.hashBefore }),
    saved: false,
  }))
}

/** The receipt's files after a successful apply: hashes as the applier reported them. */
export function writtenFiles(root: string, built: BuiltPreview, applied: LspApplyEditResult): ReceiptFile[] {
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

function receiptError(error: LspError): NonNullable<MutationReceipt['error']> {
  return {
    code: error.code,
    message: error.message,
    ...(Object.keys(error.data).length === 0 ? {} : { data: jsonSafe(error.data) }),
  }
}

function jsonSafe(value: object): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>
  } catch {
    return {}
  }
}
