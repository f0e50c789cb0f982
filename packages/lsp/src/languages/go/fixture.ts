import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const shapes = 'shapes.go'
const geometry = 'geometry.go'
const main = 'report.go'

/** The Go fixture (`fixtures/conformance-go`): module `example.com/conf`, an interface and two structs implementing it. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-go',
  main,
  definition: {
    use: { file: main, text: 'totalArea(shapes)' },
    declaration: { file: geometry, text: 'func totalArea' },
  },
  nonAscii: {
    use: { file: main, text: '" + naïveCafé', at: 'naïveCafé' },
    declaration: { file: main, text: 'var naïveCafé' },
    name: 'naïveCafé',
  },
  typeDefinition: {
    use: { file: main, text: 'var circle', at: 'circle' },
    type: { file: shapes, text: 'type Circle' },
  },
  implementation: {
    type: { file: shapes, text: 'type Shape', at: 'Shape' },
    implementations: [
      { file: shapes, text: 'type Circle' },
      { file: shapes, text: 'type Square' },
    ],
  },
  references: { declaration: { file: geometry, text: 'func totalArea', at: 'totalArea' }, word: 'totalArea' },
  hover: { at: { file: main, text: 'totalArea(shapes)' }, includes: ['totalArea', 'float64'] },
  signatureHelp: { at: { file: main, text: 'totalArea(shapes)', at: 'shapes' }, label: 'shapes' },
  completion: { at: { file: main, text: '= circle.Radius', at: 'Radius' }, labels: ['Radius', 'Area'] },
  rename: { symbol: { file: shapes, text: 'const renameMe', at: 'renameMe' }, name: 'renameMe', newName: 'renamedConstant' },
  keyword: { file: shapes, text: 'const renameMe', at: 'const' },
  unformatted: { file: main, text: 'var    spacedOut' },
  documentSymbols: {
    file: shapes,
    symbols: [
      { name: 'Shape', kind: 'interface', children: [{ name: 'Area', kind: 'method' }] },
      { name: 'Circle', kind: 'struct', children: [{ name: 'Radius', kind: 'field' }] },
      // gopls lists methods beside their receiver's type (labelled `(Circle).Area`); named as people aim at them.
      { name: 'Area', kind: 'method' },
    ],
  },
  typeError: { file: main, text: 'var wrongType' },
  inlayHints: { file: main },
  codeAction: { at: { file: main, text: '"strings"', at: 'strings' }, only: ['source.organizeImports'], title: 'organize imports' },
  workspaceSymbol: { query: 'Circle', name: 'Circle', kind: 'struct', file: shapes },
  callHierarchy: {
    callee: { file: geometry, text: 'func totalArea', at: 'totalArea' },
    name: 'totalArea',
    caller: 'drawAll',
    callSite: { file: geometry, text: 'totalArea(shapes))' },
  },
  typeHierarchy: {
    type: { file: shapes, text: 'type Circle', at: 'Circle' },
    name: 'Circle',
    supertype: 'Shape',
    subtypes: ['Circle', 'Square'],
  },
}
