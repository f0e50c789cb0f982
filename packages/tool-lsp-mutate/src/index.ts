export * from './receipt.js'
export * from './approval.js'
export * from './transaction.js'
export { MutationQueue } from './queue.js'
export {
  acquireRootLock,
  defaultLockDirectory,
  isStaleHolder,
  processStartTime,
  readLockHolder,
  rootLockPath,
  type LockHolder,
  type RootLockHandle,
  type RootLockOptions,
} from './lock.js'
export { buildPreview, checkContainment, isDestructive, snippetsAsPlainText, type BuiltPreview } from './preview.js'
export { applyUnifiedDiff, diffLines, unifiedDiff, type DiffLine, type UnifiedDiff, type UnifiedDiffOptions } from './diff.js'
export { diagnosticDelta, snapshotDiagnostics, type FileDiagnosticsSnapshot } from './diagnostics.js'
export * from './tools/index.js'
export { planInsert, planReplace, type InsertPosition, type PlannedEdit } from './symbol-edits.js'
export {
  blankLinesAround,
  bodySpan,
  declarationSpan,
  leadingKind,
  lineEnding,
  reindent,
  symbolLanguage,
  type BodySpan,
  type DeclarationSpan,
  type SymbolLanguage,
} from './symbol-range.js'
