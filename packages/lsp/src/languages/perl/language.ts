import type { LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Perl: `#` line comments, POD blocks from `=pod` (any `=word` at a line start) to `=cut`. */
export const language: LspLanguage = {
  id: 'perl',
  languageIds: ['perl'],
  label: 'Perl',
  extensions: ['.pl', '.pm', '.t'],
  comments: { line: ['#'], block: [['=pod', '=cut']] },
  conformance: fixture,
}
