import { slashComments, words, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Kotlin (`.kt` sources; `.kts` scripts are build files, Gradle's, and not served). */
export const language: LspLanguage = {
  id: 'kotlin',
  languageIds: ['kotlin'],
  label: 'Kotlin',
  extensions: ['.kt'],
  comments: slashComments,
  names: {
    // The grammar's Letter (Lu Ll Lt Lm Lo Nl) or `_`, then letters, `_` and decimal digits. A backquoted name
    // (`` `is` ``) may be anything but is not offered here.
    identifier: /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}_]*$/u,
    // Hard keywords only: soft keywords (`by`, `get`, `data`, `value`, …) and modifiers are valid names.
    keywords: words(
      'as break class continue do else false for fun if in interface is null object package return super this throw true try typealias typeof val var when while',
    ),
  },
  declarations: {
    decorators: ['@'],
    modifiers:
      /^\s*(?:(?:@[\w.$]+(?:\([^()]*\))?|public|private|protected|internal|abstract|final|open|sealed|override|data|enum|annotation|inner|value|inline|noinline|crossinline|suspend|tailrec|operator|infix|external|const|lateinit|companion|expect|actual|fun|val|var|class|interface|object|typealias)\s+)*$/,
    body: 'braces',
  },
  manifests: ['pom.xml', 'build.gradle', 'build.gradle.kts'],
  conformance: fixture,
}
