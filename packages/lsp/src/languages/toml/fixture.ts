import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

/** TOML (`fixtures/conformance-toml`): a Cargo manifest; a key without a value. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-toml',
  main: 'Cargo.toml',
  unformatted: { file: 'Cargo.toml', text: 'edition  =  "2021"' },
  documentSymbols: {
    file: 'Cargo.toml',
    symbols: [
      { name: 'package', kind: 'object', children: [{ name: 'name', kind: 'string' }] },
      { name: 'features', kind: 'object' },
    ],
  },
  typeError: { file: 'broken.toml', text: 'host =' },
}
