import type { LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** JSON. */
export const language: LspLanguage = {
  id: 'json',
  languageIds: ['json'],
  label: 'JSON',
  extensions: ['.json'],
  comments: { line: [], block: [] },
  conformance: fixture,
}
