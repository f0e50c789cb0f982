import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const sources = 'src/main/java/com/example/conf'
const shape = `${sources}/Shape.java`
const circle = `${sources}/Circle.java`
const square = `${sources}/Square.java`
const geometry = `${sources}/Geometry.java`
const main = `${sources}/Report.java`

/** The Java fixture (`fixtures/conformance-java`): a Maven module, an interface and two classes implementing it. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-java',
  main,
  definition: {
    use: { file: main, text: 'totalArea(shapes)' },
    declaration: { file: geometry, text: 'double totalArea', at: 'totalArea' },
  },
  nonAscii: {
    use: { file: main, text: '" + naïveCafé', at: 'naïveCafé' },
    declaration: { file: main, text: 'String naïveCafé', at: 'naïveCafé' },
    name: 'naïveCafé',
  },
  typeDefinition: {
    use: { file: main, text: 'double radius = circle', at: 'circle' },
    type: { file: circle, text: 'class Circle', at: 'Circle' },
  },
  implementation: {
    type: { file: shape, text: 'interface Shape', at: 'Shape' },
    implementations: [
      { file: circle, text: 'class Circle', at: 'Circle' },
      { file: square, text: 'class Square', at: 'Square' },
    ],
  },
  references: { declaration: { file: geometry, text: 'double totalArea', at: 'totalArea' }, word: 'totalArea' },
  hover: { at: { file: main, text: 'totalArea(shapes)' }, includes: ['totalArea', 'double'] },
  signatureHelp: { at: { file: main, text: 'totalArea(shapes)', at: 'shapes' }, label: 'shapes' },
  completion: { at: { file: main, text: '= circle.radius', at: 'radius' }, labels: ['radius', 'area'] },
  rename: { symbol: { file: square, text: 'int renameMe', at: 'renameMe' }, name: 'renameMe', newName: 'renamedConstant' },
  keyword: { file: square, text: 'static final int renameMe', at: 'static' },
  unformatted: { file: main, text: 'int    spacedOut' },
  documentSymbols: {
    file: circle,
    symbols: [
      {
        name: 'Circle',
        kind: 'class',
        children: [
          { name: 'radius', kind: 'field' },
          { name: 'area', kind: 'method' },
        ],
      },
    ],
  },
  typeError: { file: main, text: 'int wrongType' },
  inlayHints: { file: main },
  codeAction: {
    at: { file: main, text: 'java.util.ArrayList', at: 'ArrayList' },
    only: ['source.organizeImports'],
    title: 'organize imports',
  },
  workspaceSymbol: { query: 'Circle', name: 'Circle', kind: 'class', file: circle },
  callHierarchy: {
    callee: { file: geometry, text: 'double totalArea', at: 'totalArea' },
    name: 'totalArea',
    caller: 'drawAll',
    callSite: { file: geometry, text: 'return totalArea(shapes)' },
  },
  typeHierarchy: {
    type: { file: circle, text: 'class Circle', at: 'Circle' },
    name: 'Circle',
    supertype: 'Shape',
    subtypes: ['Circle', 'Square'],
  },
}
