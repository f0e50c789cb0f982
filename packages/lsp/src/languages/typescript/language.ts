import { braceDeclarations, slashComments, words, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** TypeScript and JavaScript, with their React variants. */
export const language: LspLanguage = {
  id: 'typescript',
  languageIds: ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'],
  label: 'TypeScript/JavaScript',
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
  comments: slashComments,
  names: {
    identifier: /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u,
    // ECMAScript reserved words and the strict-mode ones (modules are strict); contextual words such as `type`
    // or `async` stay valid names.
    keywords: words(
      'await break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield',
    ),
    keywordsAllowedAsMemberNames: true,
    privateNamePrefix: '#',
  },
  declarations: braceDeclarations,
  manifests: ['package.json'],
  conformance: fixture,
}
