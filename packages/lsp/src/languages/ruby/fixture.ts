import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const shapes = 'shapes.rb'
const main = 'main.rb'

/**
 * Ruby (`fixtures/conformance-ruby`): a base class, a subclass and a function in one file, used from another through
 * `require_relative`, and an Integer added to a String.
 */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-ruby',
  main,
  definition: {
    use: { file: main, text: 'puts describe(circle)', at: 'describe' },
    declaration: { file: shapes, text: 'def describe(shape)', at: 'describe' },
  },
  typeDefinition: {
    use: { file: main, text: 'puts circle.area', at: 'circle' },
    type: { file: shapes, text: 'class Circle < Shape', at: 'Circle' },
  },
  references: { declaration: { file: shapes, text: 'def describe(shape)', at: 'describe' }, word: 'describe' },
  hover: { at: { file: main, text: 'puts circle.area', at: 'area' }, includes: ['area', 'Integer'] },
  signatureHelp: { at: { file: main, text: 'describe(circle)', at: 'circle' }, label: 'shape' },
  completion: { at: { file: main, text: 'puts circle.area', at: 'area' }, labels: ['area'] },
  documentSymbols: {
    file: shapes,
    symbols: [
      { name: 'Circle', kind: 'class', children: [{ name: 'area', kind: 'method' }] },
      { name: 'Shape', kind: 'class' },
    ],
  },
  workspaceSymbol: { query: 'Circle', name: 'Circle', kind: 'class', file: shapes },
  typeError: { file: 'broken.rb', text: 'total = 1 + "one"' },
}
