import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

/** JSON (`fixtures/conformance-json`): a package manifest whose local `$schema` describes its fields. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-json',
  main: 'package.json',
  hover: { at: { file: 'package.json', text: '"version": "1.0.0"', at: 'version' }, includes: ['semver'] },
  unformatted: { file: 'package.json', text: '"build":    "make"' },
  documentSymbols: {
    file: 'package.json',
    symbols: [
      { name: 'name', kind: 'string' },
      { name: 'scripts', kind: 'module', children: [{ name: 'build', kind: 'string' }] },
    ],
  },
  typeError: { file: 'broken.json', text: '"version" "1.0.0"' },
}
