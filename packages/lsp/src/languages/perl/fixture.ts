import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const shapes = 'lib/Shapes.pm'
const main = 'main.pl'

/** Perl (`fixtures/conformance-perl`): a package with subs in a module, used from a script; a line that does not compile. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-perl',
  main,
  definition: {
    use: { file: main, text: 'Shapes::describe_shape($box)', at: 'describe_shape' },
    declaration: { file: shapes, text: 'sub describe_shape {', at: 'describe_shape' },
  },
  references: { declaration: { file: shapes, text: 'sub describe_shape {', at: 'describe_shape' }, word: 'describe_shape' },
  signatureHelp: { at: { file: main, text: 'describe_shape($box)', at: '$box' }, label: 'shape' },
  documentSymbols: {
    file: shapes,
    symbols: [
      { name: 'area', kind: 'function' },
      { name: 'describe_shape', kind: 'function' },
    ],
  },
  workspaceSymbol: { query: 'describe_shape', name: 'describe_shape', kind: 'function', file: shapes },
  typeError: { file: 'broken.pl', text: 'my $total = 1 +;' },
}
