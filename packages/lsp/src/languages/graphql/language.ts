import type { LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** GraphQL: schema (SDL) and operation documents; `#` line comments (`"""` block strings are descriptions, not comments); names are ASCII. */
export const language: LspLanguage = {
  id: 'graphql',
  languageIds: ['graphql'],
  label: 'GraphQL',
  extensions: ['.graphql', '.graphqls', '.gql'],
  comments: { line: ['#'], block: [] },
  names: { identifier: /^[_A-Za-z][_0-9A-Za-z]*$/u, keywords: [] },
  conformance: fixture,
}
