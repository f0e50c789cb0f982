import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

/** HTML (`fixtures/conformance-html`): elements, an embedded stylesheet and script (HTML itself is not validated). */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-html',
  main: 'index.html',
  hover: { at: { file: 'index.html', text: '<main id="content">', at: 'main' }, includes: ['main'] },
  unformatted: { file: 'index.html', text: '<p>Text</p>' },
  documentSymbols: { file: 'index.html', symbols: [{ name: 'html', kind: 'field' }] },
}
