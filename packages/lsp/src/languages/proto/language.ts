import { braceDeclarations, slashComments, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Protocol Buffers. */
export const language: LspLanguage = {
  id: 'proto',
  languageIds: ['proto'],
  label: 'Protocol Buffers',
  extensions: ['.proto'],
  comments: slashComments,
  declarations: braceDeclarations,
  conformance: fixture,
}
