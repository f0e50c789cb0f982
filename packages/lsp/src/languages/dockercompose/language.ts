import { hashComments, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Docker Compose files: YAML that Compose reads by name. */
export const language: LspLanguage = {
  id: 'dockercompose',
  languageIds: ['dockercompose'],
  label: 'Docker Compose',
  extensions: [],
  fileNames: [
    'compose.yaml',
    'compose.yml',
    'docker-compose.yaml',
    'docker-compose.yml',
    'compose.override.yaml',
    'compose.override.yml',
    'docker-compose.override.yaml',
    'docker-compose.override.yml',
  ],
  comments: hashComments,
  conformance: fixture,
}
