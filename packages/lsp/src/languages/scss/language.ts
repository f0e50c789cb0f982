import { slashComments, words, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** SCSS: CSS with Sass's variables, mixins, functions and modules (`@use`, `@forward`); line and block comments as in C. */
export const language: LspLanguage = {
  id: 'scss',
  languageIds: ['scss'],
  label: 'SCSS',
  extensions: ['.scss'],
  comments: slashComments,
  names: {
    // A Sass name: a CSS identifier (letters, digits, `_`, `-`, non-ASCII; not starting with a digit, nor with `-`
    // and a digit), as a variable (`$brand`), a placeholder (`%raised`) or bare (a function or mixin).
    identifier: /^[$%]?-?[\p{L}_\u0080-\u{10FFFF}][\p{L}\p{N}_\u0080-\u{10FFFF}-]*$/u,
    // SassScript's reserved words: operators and literals, never a name.
    keywords: words('and or not true false null'),
  },
  conformance: fixture,
}
