// The public surface of @codeseam/lsp-local, name by name; test/public-surface.test.ts pins the values and
// test/public-surface-types.ts the types.
export type { ServerProfile, ReadinessRule, ProjectRootRule, UntrustedPolicy } from './profile/profiles.js'
export { builtinProfiles } from './policy/builtin-profiles.js'
export { findOnPath } from './profile/executables.js'
export {
  nativeTypeScriptOperations,
  typeScriptLanguageServerOperations,
  pyrightOperations,
  clangdOperations,
  clangdOperationsFor,
  toolchainEnvironment,
  builtinLanguages,
  projectRootMarkers,
  pathExecutables,
} from './languages/index.js'
export type { BuiltinLanguage } from './languages/index.js'
export { installSources, installSourceFacts } from './languages/install.js'
export type { InstallSource, InstallSourceFacts } from './languages/install.js'
export { builtinIndexers } from './indexers/index.js'
export type { BuiltinIndexer } from './indexers/index.js'
export type { HostConfig, HostOptions, ProfileConfig, ResolvedHostConfig, TrustLevel } from './policy/config.js'
export { mergeProfiles, readConfigFile, resolveHostConfig } from './policy/config.js'
export { minimalEnvironment } from './policy/environment.js'
export type { AttachRoot, LocalHost, LocalHostOptions, OpenWorkspaceOptions, PendingLocalHost } from './host.js'
export { createLocalHost, startLocalHost } from './host.js'
export { createMemoryBudget } from './pool/budget.js'
export type { BudgetUsage, MemoryBudget } from './pool/budget.js'
export { StdoutGuard, ProtocolViolation } from './server/stdout-guard.js'
