import { cKeywords } from '../c/language.js'
import { braceDeclarations, slashComments, words, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

const cppKeywords =
  'alignas alignof and and_eq asm bitand bitor bool catch char8_t char16_t char32_t class compl concept consteval constexpr constinit const_cast co_await co_return co_yield decltype delete dynamic_cast explicit export false friend mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public reinterpret_cast requires static_assert static_cast template this thread_local throw true try typeid typename using virtual wchar_t xor xor_eq'

/** C++. */
export const language: LspLanguage = {
  id: 'cpp',
  languageIds: ['cpp'],
  label: 'C++',
  extensions: ['.cc', '.cpp', '.cxx', '.hh', '.hpp', '.hxx'],
  comments: slashComments,
  names: { identifier: /^[\p{XID_Start}_][\p{XID_Continue}]*$/u, keywords: words(`${cKeywords} ${cppKeywords}`) },
  declarations: braceDeclarations,
  conformance: fixture,
}
