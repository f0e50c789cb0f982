// Every type-only name @codeseam/lsp-local exports, pinned at the type level: `pnpm typecheck` (this folder is in the
// package's tsconfig) fails when src/index.ts stops exporting one. The runtime names: public-surface.test.ts.
export type {
  AttachRoot,
  BudgetUsage,
  BuiltinIndexer,
  BuiltinLanguage,
  HostConfig,
  HostOptions,
  InstallSource,
  InstallSourceFacts,
  LocalHost,
  LocalHostOptions,
  MemoryBudget,
  OpenWorkspaceOptions,
  PendingLocalHost,
  ProfileConfig,
  ProjectRootRule,
  ReadinessRule,
  ResolvedHostConfig,
  ServerProfile,
  TrustLevel,
  UntrustedPolicy,
} from '../src/index.js'
