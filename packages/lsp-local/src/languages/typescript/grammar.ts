import { builtInFactsFor } from '@codeseam/lsp'

import type { LanguageGrammar } from '../record.js'

/** TypeScript and JavaScript (both TypeScript servers): the seam's ECMAScript identifiers and reserved words. */
export const typeScriptGrammar: LanguageGrammar = builtInFactsFor('typescript')

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
