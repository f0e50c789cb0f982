import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const main = 'site.scss'
const tokens = '_tokens.scss'

/**
 * SCSS (`fixtures/conformance-scss`): a module (`_tokens.scss`: a variable, a function, a mixin) and a stylesheet
 * that loads it with `@use` and calls into it; a malformed declaration.
 */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-scss',
  main,
  definition: {
    use: { file: main, text: 'padding: tokens.spacing(2)', at: 'spacing' },
    declaration: { file: tokens, text: '@function spacing($steps)', at: 'spacing' },
  },
  nonAscii: {
    use: { file: main, text: 'café"; gap: tokens.naïve-gap(1)', at: 'naïve-gap' },
    declaration: { file: tokens, text: '@function naïve-gap', at: 'naïve-gap' },
    name: 'naïve-gap',
  },
  references: { declaration: { file: tokens, text: '@function spacing($steps)', at: 'spacing' }, word: 'spacing' },
  signatureHelp: { at: { file: main, text: 'padding: tokens.spacing(2)', at: '2' }, label: '$steps' },
  completion: { at: { file: main, text: 'color:tokens.$brand', at: '$brand' }, labels: ['$brand'] },
  rename: { symbol: { file: tokens, text: '@function spacing($steps)', at: 'spacing' }, name: 'spacing', newName: 'step' },
  keyword: { file: main, text: "@use 'tokens'", at: 'use' },
  hover: { at: { file: main, text: 'margin: 0 auto', at: 'margin' }, includes: ['margin'] },
  unformatted: { file: main, text: 'color:tokens.$brand' },
  documentSymbols: {
    file: main,
    symbols: [
      { name: '.header', kind: 'class' },
      { name: '.footer', kind: 'class' },
    ],
  },
  workspaceSymbol: { query: 'card-shadow', name: 'card-shadow', kind: 'method', file: tokens },
  typeError: { file: 'broken.scss', text: '.panel { width: 10px; height }' },
}
