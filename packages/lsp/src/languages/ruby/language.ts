import type { LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Ruby: `#` line comments, `=begin` / `=end` blocks. */
export const language: LspLanguage = {
  id: 'ruby',
  languageIds: ['ruby'],
  label: 'Ruby',
  extensions: ['.rb'],
  comments: { line: ['#'], block: [['=begin', '=end']] },
  conformance: fixture,
}
