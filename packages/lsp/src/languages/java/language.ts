import { braceDeclarations, slashComments, words, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Java. */
export const language: LspLanguage = {
  id: 'java',
  languageIds: ['java'],
  label: 'Java',
  extensions: ['.java'],
  comments: slashComments,
  names: {
    identifier: /^[\p{L}_$][\p{L}\p{Nd}_$]*$/u,
    keywords: words(
      'abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null _',
    ),
  },
  declarations: braceDeclarations,
  manifests: ['pom.xml', 'build.gradle', 'build.gradle.kts'],
  conformance: fixture,
}
