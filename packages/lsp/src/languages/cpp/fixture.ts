import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const shapes = 'shapes.h'
const header = 'geometry.h'
const geometry = 'geometry.cpp'
const main = 'main.cpp'

/**
 * The C++ fixture (`fixtures/conformance-cpp`, C++17 by `compile_flags.txt`): an abstract base class and two
 * classes deriving from it, a function declared in a header and defined in a .cpp. It includes no standard
 * header, so it answers the same without a C++ standard library installed.
 */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-cpp',
  main,
  definition: {
    use: { file: main, text: 'totalArea(shapes, 2)' },
    declaration: { file: header, text: 'double totalArea' },
  },
  nonAscii: {
    use: { file: main, text: '", naïveCafé', at: 'naïveCafé' },
    declaration: { file: main, text: 'const char *naïveCafé', at: 'naïveCafé' },
    name: 'naïveCafé',
  },
  typeDefinition: {
    use: { file: main, text: 'Circle circle', at: 'circle' },
    type: { file: shapes, text: 'class Circle' },
  },
  implementation: {
    type: { file: shapes, text: 'class Shape {', at: 'Shape' },
    implementations: [
      { file: shapes, text: 'class Circle' },
      { file: shapes, text: 'class Square' },
    ],
  },
  references: { declaration: { file: header, text: 'double totalArea', at: 'totalArea' }, word: 'totalArea' },
  hover: { at: { file: main, text: 'totalArea(shapes, 2)' }, includes: ['totalArea', 'double'] },
  signatureHelp: { at: { file: main, text: 'totalArea(shapes, 2)', at: 'shapes' }, label: 'shapes' },
  completion: { at: { file: main, text: '= circle.radius', at: 'radius' }, labels: ['radius', 'area'] },
  rename: { symbol: { file: shapes, text: 'const renameMe', at: 'renameMe' }, name: 'renameMe', newName: 'renamedConstant' },
  keyword: { file: shapes, text: 'const renameMe', at: 'const' },
  unformatted: { file: main, text: 'const   char *spacedOut' },
  documentSymbols: {
    file: shapes,
    symbols: [
      { name: 'Shape', kind: 'class', children: [{ name: 'area', kind: 'method' }] },
      { name: 'Circle', kind: 'class', children: [{ name: 'radius', kind: 'field' }] },
    ],
  },
  typeError: { file: main, text: 'int wrongType' },
  inlayHints: { file: main },
  codeAction: { at: { file: main, text: '#include "unused.h"', at: 'unused' }, title: 'remove #include' },
  workspaceSymbol: { query: 'Circle', name: 'Circle', kind: 'class', file: shapes },
  callHierarchy: {
    callee: { file: geometry, text: 'double totalArea', at: 'totalArea' },
    name: 'totalArea',
    caller: 'drawAll',
    callSite: { file: geometry, text: 'totalArea(shapes, count) >' },
  },
  typeHierarchy: {
    type: { file: shapes, text: 'class Circle', at: 'Circle' },
    name: 'Circle',
    supertype: 'Shape',
    subtypes: ['Circle', 'Square'],
  },
}
