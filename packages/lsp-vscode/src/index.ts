// The public surface of @codeseam/lsp-vscode, name by name; test/public-surface.test.ts pins the values and
// test/public-surface-types.ts the types.
export { createVsCodeProvider, type VsCodeProvider, type VsCodeProviderOptions } from './provider.js'
export { createVsCodeWorkspace, type VsCodeWorkspaceOptions } from './workspace.js'
export { registerVsCode, type RegisterVsCodeOptions, type VsCodeRegistration } from './register.js'
export { languageExtensions, type LanguageExtensionOptions } from './languages.js'
