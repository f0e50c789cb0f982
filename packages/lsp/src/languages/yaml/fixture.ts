import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

/** YAML (`fixtures/conformance-yaml`): a schema named by a local `$schema` comment, an anchor and its alias. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-yaml',
  main: 'service.yml',
  definition: {
    use: { file: 'service.yml', text: 'health_port: *listen', at: 'listen' },
    declaration: { file: 'service.yml', text: '&listen 8080', at: '8080' },
  },
  hover: { at: { file: 'service.yml', text: 'port: &listen', at: 'port' }, includes: ['TCP port'] },
  unformatted: { file: 'service.yml', text: 'queue:    orders' },
  documentSymbols: {
    file: 'service.yml',
    symbols: [
      { name: 'name', kind: 'string' },
      { name: 'worker', kind: 'module', children: [{ name: 'queue', kind: 'string' }] },
    ],
  },
  typeError: { file: 'broken.yml', text: 'name: second' },
}
