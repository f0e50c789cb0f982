import { markupComments, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** HTML. */
export const language: LspLanguage = {
  id: 'html',
  languageIds: ['html'],
  label: 'HTML',
  extensions: ['.html', '.htm'],
  comments: markupComments,
  conformance: fixture,
}
