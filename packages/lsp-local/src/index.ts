export type { ServerProfile, ReadinessRule, ProjectRootRule, UntrustedPolicy } from './profiles.js'
export {
  builtinProfiles,
  findOnPath,
  nativeTypeScriptOperations,
  typeScriptLanguageServerOperations,
  pyrightOperations,
  clangdOperations,
  clangdOperationsFor,
} from './profiles.js'
export type { HostConfig, HostOptions, ProfileConfig, ResolvedHostConfig, TrustLevel } from './config.js'
export { mergeProfiles, readConfigFile, resolveHostConfig } from './config.js'
export { minimalEnvironment } from './environment.js'
export type { AttachRoot, LocalHost, OpenWorkspaceOptions } from './host.js'
export { createLocalHost } from './local-host.js'
export { StdoutGuard, ProtocolViolation } from './stdout-guard.js'
