import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

const shapes = 'src/shapes.rs'
const geometry = 'src/geometry.rs'
const main = 'src/lib.rs'

/**
 * The Rust fixture (`fixtures/conformance-rust`): crate `conf`, a trait and two structs implementing it. It
 * uses no standard-library item, so it answers the same without the toolchain's `rust-src`.
 */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-rust',
  main,
  definition: {
    use: { file: main, text: 'total_area(&shapes)' },
    declaration: { file: geometry, text: 'pub fn total_area' },
  },
  nonAscii: {
    use: { file: main, text: '", NAÏVE_CAFÉ', at: 'NAÏVE_CAFÉ' },
    declaration: { file: main, text: 'pub const NAÏVE_CAFÉ' },
    name: 'NAÏVE_CAFÉ',
  },
  typeDefinition: {
    use: { file: main, text: 'let circle', at: 'circle' },
    type: { file: shapes, text: 'pub struct Circle' },
  },
  implementation: {
    type: { file: shapes, text: 'pub trait Shape', at: 'Shape' },
    implementations: [
      { file: shapes, text: 'impl Shape for Circle' },
      { file: shapes, text: 'impl Shape for Square' },
    ],
  },
  references: { declaration: { file: geometry, text: 'pub fn total_area', at: 'total_area' }, word: 'total_area' },
  hover: { at: { file: main, text: 'total_area(&shapes)' }, includes: ['total_area', 'f64'] },
  signatureHelp: { at: { file: main, text: 'total_area(&shapes)', at: '&shapes' }, label: 'shapes' },
  completion: { at: { file: main, text: '= circle.radius', at: 'radius' }, labels: ['radius', 'area'] },
  rename: { symbol: { file: shapes, text: 'const RENAME_ME', at: 'RENAME_ME' }, name: 'RENAME_ME', newName: 'RENAMED_CONSTANT' },
  keyword: { file: shapes, text: 'pub const RENAME_ME', at: 'pub' },
  unformatted: { file: main, text: 'pub const    SPACED_OUT' },
  documentSymbols: {
    file: shapes,
    symbols: [
      { name: 'Shape', kind: 'interface', children: [{ name: 'area', kind: 'method' }] },
      { name: 'Circle', kind: 'struct', children: [{ name: 'radius', kind: 'field' }] },
    ],
  },
  typeError: { file: main, text: 'pub const WRONG_TYPE' },
  inlayHints: { file: main },
  codeAction: { at: { file: main, text: 'use crate::shapes::{Square', at: 'Square' }, title: 'normalize import' },
  workspaceSymbol: { query: 'Circle', name: 'Circle', kind: 'struct', file: shapes },
  callHierarchy: {
    callee: { file: geometry, text: 'pub fn total_area', at: 'total_area' },
    name: 'total_area',
    caller: 'draw_all',
    callSite: { file: geometry, text: 'total_area(shapes))' },
  },
  typeHierarchy: {
    type: { file: shapes, text: 'pub struct Circle', at: 'Circle' },
    name: 'Circle',
    supertype: 'Shape',
    subtypes: ['Circle', 'Square'],
  },
}
