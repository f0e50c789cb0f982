// Every type-only name @codeseam/tool-lsp-mutate exports, pinned at the type level: `pnpm typecheck` (this folder is in the
// package's tsconfig) fails when src/index.ts stops exporting one. The runtime names: public-surface.test.ts.
export type {
  ApprovalCallback,
  ApprovalDecision,
  ApprovalPolicy,
  ApprovalRecord,
  ApprovalRequest,
  ComputedChange,
  DiagnosticDelta,
  MutationPreview,
  MutationReceipt,
  MutationSessionOptions,
  MutationStatus,
  PreviewEdit,
  PreviewFile,
  PreviewResourceOperation,
  ReceiptDiagnostic,
  ReceiptDiagnosticsFile,
  ReceiptFile,
  RootLockOptions,
  TransactionContext,
  TransactionRequest,
} from '../src/index.js'
