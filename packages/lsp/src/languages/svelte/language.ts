import { language as typescript } from '../typescript/language.js'
import { type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Svelte components: markup with `<script>` (JavaScript or TypeScript, whose names and comments they share) and `<style>`. */
export const language: LspLanguage = {
  id: 'svelte',
  languageIds: ['svelte'],
  label: 'Svelte',
  extensions: ['.svelte'],
  comments: {
    line: ['//'],
    block: [
      ['<!--', '-->'],
      ['/*', '*/'],
    ],
  },
  ...(typescript.names === undefined ? {} : { names: typescript.names }),
  manifests: ['package.json'],
  conformance: fixture,
}
