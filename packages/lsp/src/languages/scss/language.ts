import { slashComments, type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** SCSS: CSS with Sass's variables, mixins, functions and modules (`@use`, `@forward`); line and block comments as in C. */
export const language: LspLanguage = {
  id: 'scss',
  languageIds: ['scss'],
  label: 'SCSS',
  extensions: ['.scss'],
  comments: slashComments,
  conformance: fixture,
}
