import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const shapes = 'src/shapes.ts'
const geometry = 'src/geometry.ts'
const main = 'src/main.ts'

/** The TypeScript fixture (`fixtures/conformance`): the kit's default record. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance',
  main,
  definition: {
    use: { file: main, text: 'totalArea(shapes)' },
    declaration: { file: geometry, text: 'export function totalArea' },
  },
  nonAscii: {
    use: { file: main, text: "' + naïveCafé", at: 'naïveCafé' },
    declaration: { file: main, text: 'export const naïveCafé' },
    name: 'naïveCafé',
  },
  typeDefinition: {
    use: { file: main, text: 'circle = new', at: 'circle' },
    type: { file: shapes, text: 'export class Circle' },
  },
  implementation: {
    type: { file: shapes, text: 'interface Shape', at: 'Shape' },
    implementations: [
      { file: shapes, text: 'export class Circle' },
      { file: shapes, text: 'export class Square' },
    ],
  },
  references: { declaration: { file: geometry, text: 'function totalArea', at: 'totalArea' }, word: 'totalArea' },
  hover: { at: { file: main, text: 'totalArea(shapes)' }, includes: ['totalArea', 'number'] },
  signatureHelp: { at: { file: main, text: 'totalArea(shapes)', at: 'shapes' }, label: 'shapes' },
  completion: { at: { file: main, text: '= circle.radius', at: 'radius' }, labels: ['radius', 'area'] },
  rename: { symbol: { file: shapes, text: 'const renameMe', at: 'renameMe' }, name: 'renameMe', newName: 'renamedConstant' },
  keyword: { file: shapes, text: 'export const renameMe', at: 'export' },
  unformatted: { file: main, text: 'export   const    spacedOut' },
  documentSymbols: {
    file: shapes,
    symbols: [
      { name: 'Circle', kind: 'class', children: [{ name: 'area', kind: 'method' }] },
      { name: 'Shape', kind: 'interface' },
    ],
  },
  typeError: { file: main, text: 'export const wrongType' },
  inlayHints: { file: main },
  codeAction: { at: { file: main, text: "from './geometry'", at: 'from' }, only: ['source.organizeImports'], title: 'organize imports' },
  workspaceSymbol: { query: 'Circle', name: 'Circle', kind: 'class', file: shapes },
  callHierarchy: {
    callee: { file: geometry, text: 'function totalArea', at: 'totalArea' },
    name: 'totalArea',
    caller: 'drawAll',
    callSite: { file: geometry, text: '${totalArea(shapes)}' },
  },
  typeHierarchy: {
    type: { file: shapes, text: 'class Circle', at: 'Circle' },
    name: 'Circle',
    supertype: 'Shape',
    subtypes: ['Circle', 'Square'],
  },
}
