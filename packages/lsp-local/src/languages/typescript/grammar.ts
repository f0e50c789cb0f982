import { words, type LanguageGrammar } from '../record.js'

/** TypeScript and JavaScript (both TypeScript servers): ECMAScript identifiers and reserved words. */
export const typeScriptGrammar: LanguageGrammar = {
  languageIds: ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'],
  identifier: /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u,
  // ECMAScript reserved words and the strict-mode ones (modules are strict); contextual words such as `type`
  // or `async` stay valid names.
  keywords: words(
    'await break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield',
  ),
  comments: { line: ['//'], block: [['/*', '*/']] },
}

/** The extensions both TypeScript servers serve. */
export const typeScriptExtensions = {
  '.ts': 'typescript',
  '.tsx': 'typescriptreact',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'javascript',
  '.jsx': 'javascriptreact',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
} as const

/** Editor preferences both TypeScript servers read through workspace/configuration (inlay hints on, so the seam can ask for them). */
const typeScriptPreferences = {
  inlayHints: {
    parameterNames: { enabled: 'all', suppressWhenArgumentMatchesName: false },
    parameterTypes: { enabled: true },
    variableTypes: { enabled: true, suppressWhenTypeMatchesName: false },
    propertyDeclarationTypes: { enabled: true },
    functionLikeReturnTypes: { enabled: true },
    enumMemberValues: { enabled: true },
  },
}
export const typeScriptSettings = { typescript: typeScriptPreferences, javascript: typeScriptPreferences, 'js/ts': typeScriptPreferences }

/** Both TypeScript servers' project model: these files' changes reload projects. */
export const typeScriptProjectFiles = ['tsconfig.json', 'tsconfig.*.json', 'jsconfig.json', 'package.json']
