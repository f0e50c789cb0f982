export { createVsCodeProvider, type VsCodeProvider, type VsCodeProviderOptions } from './provider.js'
export { createVsCodeWorkspace, type VsCodeWorkspaceOptions } from './workspace.js'
export { registerVsCode, type RegisterVsCodeOptions, type VsCodeRegistration } from './register.js'
export { languageExtensions, type LanguageExtensionOptions } from './languages.js'
