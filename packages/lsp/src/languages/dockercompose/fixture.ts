import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

/** Docker Compose (`fixtures/conformance-dockercompose`): two services and a volume; a mapping out of line. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-dockercompose',
  main: 'compose.yaml',
  hover: { at: { file: 'compose.yaml', text: 'image: nginx', at: 'image' }, includes: ['image'] },
  unformatted: { file: 'compose.yaml', text: 'LOG_LEVEL:    debug' },
  documentSymbols: {
    file: 'compose.yaml',
    symbols: [
      { name: 'services', kind: 'module', children: [{ name: 'web', kind: 'module' }] },
      { name: 'volumes', kind: 'module' },
    ],
  },
  typeError: { file: 'broken/docker-compose.yml', text: 'ports: [80]' },
}
