// The public surface of @codeseam/tool-lsp-mutate, name by name: the mutating tools (`mutationTools`), the session
// they share, its approval policy, and the preview/receipt shapes approvals and results carry. The lock, queue,
// diff, preview and symbol-range machinery is internal. test/public-surface.test.ts pins the values,
// test/public-surface-types.ts the types.
export { MutationSession } from './transaction.js'
export type { ComputedChange, MutationSessionOptions, TransactionContext, TransactionRequest } from './transaction.js'
export type { ApprovalCallback, ApprovalDecision, ApprovalPolicy, ApprovalRequest } from './approval.js'
export type {
  ApprovalRecord,
  DiagnosticDelta,
  MutationPreview,
  MutationReceipt,
  MutationStatus,
  PreviewEdit,
  PreviewFile,
  PreviewResourceOperation,
  ReceiptDiagnostic,
  ReceiptDiagnosticsFile,
  ReceiptFile,
} from './receipt.js'
export type { RootLockOptions } from './lock.js'
export { mutationTools } from './tools/index.js'
