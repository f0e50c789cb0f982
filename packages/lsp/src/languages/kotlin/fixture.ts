import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

// Kotlin beside Java in the Maven module's one source folder (src/main/java): a Java interface, Kotlin classes
// implementing it, a Kotlin call of a Java method.
const sources = 'src/main/java/com/example/conf'
const shape = `${sources}/Shape.java`
const circle = `${sources}/Circle.kt`
const square = `${sources}/Square.kt`
const geometry = `${sources}/Geometry.kt`
const main = `${sources}/Report.kt`

/** The Kotlin fixture (`fixtures/conformance-kotlin`): a Maven module mixing a Java interface and Kotlin code. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-kotlin',
  main,
  definition: {
    use: { file: main, text: 'totalArea(shapes)' },
    declaration: { file: geometry, text: 'fun totalArea', at: 'totalArea' },
  },
  nonAscii: {
    use: { file: main, text: '" + naïveCafé', at: 'naïveCafé' },
    declaration: { file: main, text: 'val naïveCafé', at: 'naïveCafé' },
    name: 'naïveCafé',
  },
  typeDefinition: {
    use: { file: main, text: 'val radius = circle', at: 'circle' },
    type: { file: circle, text: 'class Circle', at: 'Circle' },
  },
  implementation: {
    type: { file: shape, text: 'interface Shape', at: 'Shape' },
    implementations: [
      { file: circle, text: 'class Circle', at: 'Circle' },
      { file: square, text: 'class Square', at: 'Square' },
    ],
  },
  references: { declaration: { file: geometry, text: 'fun totalArea', at: 'totalArea' }, word: 'totalArea' },
  hover: { at: { file: main, text: 'totalArea(shapes)' }, includes: ['totalArea', 'Double'] },
  signatureHelp: { at: { file: main, text: 'totalArea(shapes)', at: 'shapes' }, label: 'shapes' },
  completion: { at: { file: main, text: '= circle.radius', at: 'radius' }, labels: ['radius', 'area'] },
  rename: { symbol: { file: square, text: 'const val renameMe', at: 'renameMe' }, name: 'renameMe', newName: 'renamedConstant' },
  keyword: { file: square, text: 'const val renameMe', at: 'val' },
  unformatted: { file: main, text: 'val    spacedOut' },
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
  typeError: { file: main, text: 'val wrongType' },
  inlayHints: { file: main },
  codeAction: {
    at: { file: main, text: 'java.util.ArrayList', at: 'ArrayList' },
    only: ['source.organizeImports'],
    title: 'organize imports',
  },
  workspaceSymbol: { query: 'Circle', name: 'Circle', kind: 'class', file: circle },
  callHierarchy: {
    callee: { file: geometry, text: 'fun totalArea', at: 'totalArea' },
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
