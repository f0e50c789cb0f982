// The public surface of @codeseam/lsp, name by name: test/public-surface.test.ts pins the values and
// test/public-types.ts the types, so adding or removing a name is a deliberate change (with a changeset).
export { LspError, isLspError, lspErrorCodes, toLspError } from './errors.js'
export type { LspCandidate, LspErrorCode, LspErrorData, LspErrorDataByCode, LspErrorDataFor, LspErrorOptions } from './errors.js'
export { lspOperations, lspSymbolKinds, operationInfo, symbolKindFromNumber } from './vocabulary.js'
export type {
  LspChangeAnnotation,
  LspCodeAction,
  LspCommandOutcome,
  LspCompletionItem,
  LspCreateFile,
  LspDeleteFile,
  LspDerivation,
  LspDiagnostic,
  LspDiagnosticSeverity,
  LspDiagnosticsCoverage,
  LspDocumentSymbol,
  LspFileDiagnostics,
  LspFileRequest,
  LspFilesSkipped,
  LspFormattingOptions,
  LspHierarchyCall,
  LspHierarchyItem,
  LspHierarchyRequest,
  LspHover,
  LspInlayHint,
  LspInlayHintLabelPart,
  LspLibraryLocation,
  LspDiskCatchUp,
  LspLocation,
  LspOperation,
  LspOperationScope,
  LspParameterInformation,
  LspPosition,
  LspPositionRequest,
  LspQueryRequest,
  LspQueryResult,
  LspRange,
  LspRenameFile,
  LspRequestBase,
  LspRequestByOperation,
  LspRequestFor,
  LspResultFor,
  LspResultKind,
  LspResultMeta,
  LspAnswerSource,
  LspIndexBuild,
  LspSearchCoverage,
  LspSignatureHelp,
  LspSignatureInformation,
  LspSymbolKind,
  LspTextDocumentEdit,
  LspTextEdit,
  LspWorkspaceEdit,
  LspWorkspaceEditOperation,
  LspWorkspaceSymbol,
} from './vocabulary.js'
export type {
  LspApplyEditOptions,
  LspApplyEditResult,
  LspDocumentSnapshot,
  LspProvider,
  LspProviderRequest,
  LspProviderStatus,
  LspReadAlong,
  LspSpeculatedFile,
  LspSpeculationRequest,
  LspSpeculationResult,
  LspSpeculativeDocument,
  LspWorkspace,
  ProviderId,
} from './provider.js'
export { builtInFactsFor, builtInLanguageFacts, validateIdentifier } from './language-facts.js'
export type { LspLanguageFacts, LspNameCheck } from './language-facts.js'
export { builtInLanguages, declarationReadingOf, languageOfPath } from './languages/index.js'
export type { LspDeclarationReading } from './languages/index.js'
export type { LspCommentSyntax, LspDeclarationSyntax, LspLanguage, LspNameRules } from './languages/language.js'
export type { LspUnresolvedText, TextSpan } from './unresolved-text.js'
export {
  canonicalPath,
  displayPath,
  extensionOf,
  isWithin,
  maxPathLength,
  normalizeExtension,
  normalizeRoot,
  pathToUri,
  resolveInRoot,
  rootHolding,
  uriToPath,
} from './paths.js'
export { Containment, assertReadable, containPath, isWorkspacePath } from './containment.js'
export type { WorkspacePath } from './containment.js'
export { contentHash } from './hash.js'
export { sumCoverage } from './fan-out-merge.js'
export { BoundedCache } from './bounded-cache.js'
export { compareText } from './compare-text.js'
export { canDerive, deriveOperation, derivedOperations, isDerivable, isDerivedItem, providerDerivationHost } from './derive/index.js'
export type { LspDerivableOperation, LspDerivationHost } from './derive/index.js'
export { TextLines, comparePositions, linesFor, rangeContains, toModelPosition, toModelRange } from './coordinates.js'
export type { ModelPosition, ModelRange } from './coordinates.js'
export { applyTextEdits, rangesOverlap, snippetToPlainText } from './text-edits.js'
export { impactLimits, impactOf, isTestPath, moduleOf } from './impact.js'
export type { ImpactDependent, ImpactRequest, ImpactResult, ImpactSymbol } from './impact.js'
export { createLsp, relativizeText, resultMeta, textRelativizer } from './service.js'
export type { Disposer, LspCapability, LspProviderInfo, LspService, LspWorkspaceInfo, TextRelativizer } from './service.js'
export { documentSymbolsFor, resolveFile, resolveTarget } from './target.js'
export type { LspFlatSymbol, LspTarget, ResolveTargetOptions, ResolvedFile, ResolvedTarget } from './target.js'
export { Lsp, registerProviderScoped, registerWorkspaceScoped, query as queryEffect } from './effect.js'
export { OperationRollup, rollupWindow } from './rollup.js'
export type { LspOperationRollup } from './rollup.js'
export {
  TelemetryAttr,
  TelemetrySpan,
  activeQuerySpanOwner,
  annotateActiveSpan,
  configureTelemetry,
  declareTelemetryIds,
  errorCodeOf,
  failSpan,
  fileAttributes,
  inSpan,
  nameAttributes,
  observe as observeTelemetry,
  rootAttributes,
  telemetryEnabled,
  telemetryHash,
  telemetryId,
  telemetryIncludesPaths,
  telemetryInstruments,
  withQuerySpanOwner,
} from './telemetry.js'
export type { Observation, QuerySpanOwner, TelemetryInstruments, TelemetryOptions } from './telemetry.js'
