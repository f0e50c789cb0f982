import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

/** Markdown (`fixtures/conformance-markdown`): a header linked from two files, a link definition (its checks are warnings: no type error). */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-markdown',
  main: 'README.md',
  definition: {
    use: { file: 'README.md', text: '(docs/guide.md#deployment)', at: 'guide.md' },
    declaration: { file: 'docs/guide.md', text: '## Deployment', at: 'Deployment' },
  },
  references: { declaration: { file: 'docs/guide.md', text: '## Deployment', at: 'Deployment' }, word: 'deployment' },
  documentSymbols: {
    file: 'README.md',
    symbols: [
      { name: 'Shop', kind: 'string' },
      { name: '[faq]', kind: 'constant' },
    ],
  },
  workspaceSymbol: { query: 'Deployment', name: '## Deployment', kind: 'string', file: 'docs/guide.md' },
}
