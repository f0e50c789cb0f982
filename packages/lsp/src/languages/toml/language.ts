import { hashComments, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** TOML. */
export const language: LspLanguage = {
  id: 'toml',
  languageIds: ['toml'],
  label: 'TOML',
  extensions: ['.toml'],
  comments: hashComments,
  conformance: fixture,
}
