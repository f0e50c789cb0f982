import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const shapes = 'conf/shapes.py'
const geometry = 'conf/geometry.py'
const main = 'conf/main.py'

/** The Python fixture (`fixtures/conformance-python`): a package with a base class and two subclasses. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-python',
  main,
  definition: {
    use: { file: main, text: 'total_area(shapes)' },
    declaration: { file: geometry, text: 'def total_area' },
  },
  nonAscii: {
    use: { file: main, text: '" + naïve_café', at: 'naïve_café' },
    declaration: { file: main, text: 'naïve_café = "' },
    name: 'naïve_café',
  },
  typeDefinition: {
    use: { file: main, text: 'circle = Circle', at: 'circle' },
    type: { file: shapes, text: 'class Circle' },
  },
  implementation: {
    type: { file: shapes, text: 'class Shape', at: 'Shape' },
    implementations: [
      { file: shapes, text: 'class Circle' },
      { file: shapes, text: 'class Square' },
    ],
  },
  references: { declaration: { file: geometry, text: 'def total_area', at: 'total_area' }, word: 'total_area' },
  hover: { at: { file: main, text: 'total_area(shapes)' }, includes: ['total_area', 'float'] },
  signatureHelp: { at: { file: main, text: 'total_area(shapes)', at: 'shapes' }, label: 'shapes' },
  completion: { at: { file: main, text: '= circle.radius', at: 'radius' }, labels: ['radius', 'area'] },
  rename: { symbol: { file: shapes, text: 'rename_me =', at: 'rename_me' }, name: 'rename_me', newName: 'renamed_constant' },
  keyword: { file: shapes, text: 'class Square', at: 'class' },
  unformatted: { file: main, text: 'spaced_out   =' },
  documentSymbols: {
    file: shapes,
    symbols: [
      { name: 'Circle', kind: 'class', children: [{ name: 'area', kind: 'method' }] },
      { name: 'Shape', kind: 'class' },
    ],
  },
  typeError: { file: main, text: 'wrong_type: int' },
  inlayHints: { file: main },
  codeAction: { at: { file: main, text: 'from .geometry', at: 'from' }, only: ['source.organizeImports'], title: 'organize imports' },
  workspaceSymbol: { query: 'Circle', name: 'Circle', kind: 'class', file: shapes },
  callHierarchy: {
    callee: { file: geometry, text: 'def total_area', at: 'total_area' },
    name: 'total_area',
    caller: 'draw_all',
    callSite: { file: geometry, text: '{total_area(shapes)}' },
  },
  typeHierarchy: {
    type: { file: shapes, text: 'class Circle', at: 'Circle' },
    name: 'Circle',
    supertype: 'Shape',
    subtypes: ['Circle', 'Square'],
  },
}
