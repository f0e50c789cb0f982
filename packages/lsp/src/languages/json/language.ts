import type { LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** JSON. */
export const json: LspLanguage = {
  id: 'json',
  languageIds: ['json'],
  label: 'JSON',
  extensions: ['.json'],
  comments: { line: [], block: [] },
  conformance: fixture,
}
