import { hashComments, words, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Python, with its stub files. */
export const language: LspLanguage = {
  id: 'python',
  languageIds: ['python'],
  label: 'Python',
  extensions: ['.py', '.pyi'],
  comments: hashComments,
  names: {
    identifier: /^[\p{XID_Start}_][\p{XID_Continue}]*$/u,
    // `keyword.kwlist`; the soft keywords (`match`, `case`, `type`, `_`) stay valid names.
    keywords: words(
      'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield',
    ),
  },
  declarations: { decorators: ['@'], modifiers: /^\s*(?:(?:async|def|class)\s+)*$/, body: 'indentation' },
  manifests: ['pyproject.toml', 'setup.py'],
  conformance: fixture,
}
