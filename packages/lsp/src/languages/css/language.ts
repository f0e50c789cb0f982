import type { LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** CSS. */
export const language: LspLanguage = {
  id: 'css',
  languageIds: ['css'],
  label: 'CSS',
  extensions: ['.css'],
  comments: { line: [], block: [['/*', '*/']] },
  conformance: fixture,
}
