import { hashComments, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Shell. */
export const language: LspLanguage = {
  id: 'shellscript',
  languageIds: ['shellscript'],
  label: 'Shell',
  extensions: ['.sh', '.bash'],
  comments: hashComments,
  conformance: fixture,
}
