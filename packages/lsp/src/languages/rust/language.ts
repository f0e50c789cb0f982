import { rustUnresolvedText } from '../../unresolved-text.js'
import { braceDeclarations, slashComments, words, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Rust. */
export const language: LspLanguage = {
  id: 'rust',
  languageIds: ['rust'],
  label: 'Rust',
  extensions: ['.rs'],
  comments: slashComments,
  names: {
    // A raw identifier (`r#type`) may be a keyword; `_` alone is not an identifier.
    identifier: /^(?:r#)?(?:[\p{XID_Start}][\p{XID_Continue}]*|_[\p{XID_Continue}]+)$/u,
    keywords: words(
      'as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while abstract become box do final gen macro override priv try typeof unsized virtual yield',
    ),
    unresolvedText: rustUnresolvedText,
  },
  declarations: braceDeclarations,
  manifests: ['Cargo.toml'],
  conformance: fixture,
}
