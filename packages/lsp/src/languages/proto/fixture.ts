import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

/** Protocol Buffers (`fixtures/conformance-proto`, a buf v2 module): messages used across files; an unknown type. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-proto',
  main: 'proto/conf/v1/service.proto',
  definition: {
    use: { file: 'proto/conf/v1/service.proto', text: 'Circle circle = 1', at: 'Circle' },
    declaration: { file: 'proto/conf/v1/shapes.proto', text: 'message Circle', at: 'Circle' },
  },
  references: { declaration: { file: 'proto/conf/v1/shapes.proto', text: 'message Circle', at: 'Circle' }, word: 'Circle' },
  unformatted: { file: 'proto/conf/v1/shapes.proto', text: 'string   title = 2;' },
  documentSymbols: { file: 'proto/conf/v1/shapes.proto', symbols: [{ name: 'conf.v1.Circle', kind: 'class' }] },
  typeError: { file: 'proto/conf/v1/broken.proto', text: 'Unknown thing = 1;' },
}
