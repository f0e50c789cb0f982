import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

/** CSS (`fixtures/conformance-css`): rules, an unknown property, a malformed declaration. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-css',
  main: 'site.css',
  hover: { at: { file: 'site.css', text: 'margin: 0 auto', at: 'margin' }, includes: ['margin'] },
  unformatted: { file: 'site.css', text: 'padding:4px' },
  documentSymbols: {
    file: 'site.css',
    symbols: [
      { name: '.header', kind: 'class' },
      { name: '.footer', kind: 'class' },
    ],
  },
  typeError: { file: 'broken.css', text: '.panel { width: 10px; height }' },
}
