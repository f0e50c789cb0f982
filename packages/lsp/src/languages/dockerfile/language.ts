import { hashComments, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Dockerfile. */
export const language: LspLanguage = {
  id: 'dockerfile',
  languageIds: ['dockerfile'],
  label: 'Dockerfile',
  extensions: ['.dockerfile'],
  fileNames: ['Dockerfile', 'Containerfile'],
  comments: hashComments,
  conformance: fixture,
}
