import { braceDeclarations, slashComments, words, type LspLanguage } from '../language.js'

/** C's reserved words (C23's spelled-out forms aside); C++'s add to them. */
export const cKeywords =
  'auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local'

/** C (its fixture is C++'s, which covers headers). */
export const language: LspLanguage = {
  id: 'c',
  languageIds: ['c'],
  label: 'C',
  extensions: ['.c', '.h'],
  comments: slashComments,
  names: { identifier: /^[\p{XID_Start}_][\p{XID_Continue}]*$/u, keywords: words(cKeywords) },
  declarations: braceDeclarations,
}
