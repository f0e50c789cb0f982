import { braceDeclarations, slashComments, words, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Go. */
export const language: LspLanguage = {
  id: 'go',
  languageIds: ['go'],
  label: 'Go',
  extensions: ['.go'],
  comments: slashComments,
  names: {
    identifier: /^[\p{L}_][\p{L}\p{Nd}_]*$/u,
    keywords: words(
      'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var',
    ),
  },
  declarations: braceDeclarations,
  manifests: ['go.mod'],
  conformance: fixture,
}
