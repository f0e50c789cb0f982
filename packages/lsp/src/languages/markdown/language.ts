import { markupComments, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Markdown. */
export const language: LspLanguage = {
  id: 'markdown',
  languageIds: ['markdown'],
  label: 'Markdown',
  extensions: ['.md', '.markdown'],
  comments: markupComments,
  conformance: fixture,
}
