import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const counter = 'src/Counter.svelte'
const app = 'src/App.svelte'

/**
 * Svelte (`fixtures/conformance-svelte`): a component (`Counter.svelte`, with a module script exporting a function,
 * an interface and a class) and the component that imports it and them (`App.svelte`).
 */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-svelte',
  main: app,
  definition: {
    use: { file: app, text: 'double(value)', at: 'double' },
    declaration: { file: counter, text: 'export function double', at: 'double' },
  },
  nonAscii: {
    use: { file: app, text: "' + naïveCafé", at: 'naïveCafé' },
    declaration: { file: app, text: 'const naïveCafé', at: 'naïveCafé' },
    name: 'naïveCafé',
  },
  typeDefinition: {
    use: { file: app, text: 'const tally', at: 'tally' },
    type: { file: counter, text: 'export interface Tally', at: 'Tally' },
  },
  implementation: {
    type: { file: counter, text: 'export interface Tally', at: 'Tally' },
    implementations: [{ file: counter, text: 'export class Score', at: 'Score' }],
  },
  references: { declaration: { file: counter, text: 'function double', at: 'double' }, word: 'double' },
  hover: { at: { file: app, text: 'double(value)', at: 'double' }, includes: ['double', 'number'] },
  signatureHelp: { at: { file: app, text: 'double(value)', at: 'value' }, label: 'value' },
  completion: { at: { file: app, text: '=   tally.count', at: 'count' }, labels: ['count'] },
  rename: { symbol: { file: counter, text: 'function increment', at: 'increment' }, name: 'increment', newName: 'bump' },
  keyword: { file: app, text: 'export const wrongType', at: 'export' },
  unformatted: { file: app, text: 'let   spacedOut' },
  // The server's outline: each `<script>` and element, a script's declarations inside it.
  documentSymbols: {
    file: counter,
    symbols: [
      {
        name: 'script',
        kind: 'field',
        children: [
          { name: 'Tally', kind: 'interface' },
          { name: 'Score', kind: 'class' },
          { name: 'double', kind: 'function' },
        ],
      },
      { name: 'button', kind: 'field' },
    ],
  },
  typeError: { file: app, text: "export const wrongType: number = 'not a number'" },
  inlayHints: { file: app },
  codeAction: {
    at: { file: app, text: "from './Counter.svelte'", at: 'from' },
    only: ['source.organizeImports'],
    title: 'organize imports',
  },
  workspaceSymbol: { query: 'Tally', name: 'Tally', kind: 'interface', file: counter },
  callHierarchy: {
    callee: { file: counter, text: 'function double', at: 'double' },
    name: 'double',
    caller: 'tallyOf',
    callSite: { file: app, text: 'double(value)' },
  },
}
