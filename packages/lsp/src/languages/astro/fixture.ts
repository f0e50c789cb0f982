import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const greeting = 'src/components/Greeting.astro'
const page = 'src/pages/index.astro'

/**
 * Astro (`fixtures/conformance-astro`): a component (`Greeting.astro`, its `Props` and functions in the frontmatter)
 * and the page that imports and renders it (`index.astro`).
 */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-astro',
  main: page,
  definition: {
    use: { file: page, text: 'salutation={label}', at: 'salutation' },
    declaration: { file: greeting, text: 'salutation: string', at: 'salutation' },
  },
  nonAscii: {
    use: { file: page, text: "' + naïveCafé", at: 'naïveCafé' },
    declaration: { file: page, text: 'const naïveCafé', at: 'naïveCafé' },
    name: 'naïveCafé',
  },
  typeDefinition: {
    use: { file: greeting, text: 'const props', at: 'props' },
    type: { file: greeting, text: 'export interface Props', at: 'Props' },
  },
  implementation: {
    type: { file: greeting, text: 'export interface Props', at: 'Props' },
    implementations: [{ file: greeting, text: 'class Plain', at: 'Plain' }],
  },
  references: { declaration: { file: greeting, text: 'salutation: string', at: 'salutation' }, word: 'salutation' },
  hover: { at: { file: greeting, text: 'shout(props.salutation)', at: 'shout' }, includes: ['shout', 'string'] },
  signatureHelp: { at: { file: greeting, text: 'shout(props.salutation)', at: 'props' }, label: 'text' },
  completion: { at: { file: page, text: 'label.length', at: 'length' }, labels: ['length'] },
  rename: { symbol: { file: greeting, text: 'function shout', at: 'shout' }, name: 'shout', newName: 'yell' },
  keyword: { file: greeting, text: 'return text.toUpperCase()', at: 'return' },
  documentSymbols: { file: greeting, symbols: [{ name: 'shout', kind: 'function' }] },
  typeError: { file: page, text: "const wrongType: number = 'not a number'" },
  inlayHints: { file: page },
  codeAction: {
    at: { file: page, text: "from '../components/Greeting.astro'", at: 'from' },
    only: ['source.organizeImports'],
    title: 'organize imports',
  },
  workspaceSymbol: { query: 'Props', name: 'Props', kind: 'interface', file: greeting },
  callHierarchy: {
    callee: { file: greeting, text: 'function shout', at: 'shout' },
    name: 'shout',
    caller: 'loudly',
    callSite: { file: greeting, text: 'return shout(props.salutation)' },
  },
}
