import { language as typescript } from '../typescript/language.js'
import { type LspLanguage } from '../language.js'
import { fixture } from './fixture.js'

/** Astro components: a TypeScript frontmatter between `---` fences, then markup with `{expressions}`, `<script>` and `<style>`. */
export const language: LspLanguage = {
  id: 'astro',
  languageIds: ['astro'],
  label: 'Astro',
  extensions: ['.astro'],
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
