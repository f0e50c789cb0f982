export * from './definition.js'
export * from './envelope.js'
export * from './exporters.js'
export * from './schemas.js'
export { clampLimit, decodeCursor, encodeCursor, mapBounded, paginate, queryFingerprint } from './budget.js'
export type { LimitBounds, Page } from './budget.js'
export { SourceReader, sourceReader, snippetLine, snippetWindow } from './sources.js'
export type { SourceFile } from './sources.js'
export {
  busyServersReason,
  installHint,
  noticeFor,
  noticeForRoots,
  readinessOf,
  requireProvider,
  resolveToolFile,
  resolveToolTarget,
  shortReason,
  targetOutput,
  worstReadiness,
} from './targeting.js'
export type { RootMeta, SearchGap } from './targeting.js'
export { at, renderNotice, renderPage, renderReadiness, renderTarget } from './render.js'
export { codeSymbols, symbolsLimits } from './symbols.js'
export type { SymbolsResult } from './symbols.js'
export { codeNavigate, navigateLimits, navigationKinds, maxBodyLines } from './navigation.js'
export type { NavigateResult } from './navigation.js'
export { codeHierarchy, hierarchyKinds, hierarchyLimits } from './hierarchy.js'
export type { HierarchyResult } from './hierarchy.js'
export { codeHover, splitHover } from './hover.js'
export type { HoverResult } from './hover.js'
export { codeDiagnostics, diagnosticsLimits, severities } from './diagnostics.js'
export type { DiagnosticsResult } from './diagnostics.js'
export { codeInlayHints, inlayHintLimits } from './inlay-hints.js'
export type { InlayHintsResult } from './inlay-hints.js'
export { codeCompletions, completionLimits } from './completions.js'
export type { CompletionsResult } from './completions.js'
export { codeStatus } from './status.js'
export type { StatusResult } from './status.js'
export { readTools } from './tools.js'
