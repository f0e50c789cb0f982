import { hashComments, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** YAML. */
export const language: LspLanguage = {
  id: 'yaml',
  languageIds: ['yaml'],
  label: 'YAML',
  extensions: ['.yaml', '.yml'],
  comments: hashComments,
  conformance: fixture,
}
