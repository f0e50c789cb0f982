// Every type-only name @codeseam/lsp-vscode exports, pinned at the type level: `pnpm typecheck` (this folder is in the
// package's tsconfig) fails when src/index.ts stops exporting one. The runtime names: public-surface.test.ts.
export type {
  LanguageExtensionOptions,
  RegisterVsCodeOptions,
  VsCodeProvider,
  VsCodeProviderOptions,
  VsCodeRegistration,
  VsCodeWorkspaceOptions,
} from '../src/index.js'
