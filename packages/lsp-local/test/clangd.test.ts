import { builtinProfiles } from '../src/index.js'
import { describeProfile } from './profile-suite.js'

// clangd is optional: these run only when the built-in profile finds one on PATH (the newest `clangd-NN`,
// else `clangd`). The operations depend on its version (older ones lack type hierarchy, inlay hints, outgoing calls).
const clangd = (await builtinProfiles()).find((p) => p.id === 'clangd')
const operations = clangd?.operations ?? []

describeProfile(
  'clangd',
  {},
  operations,
  {
    fixture: 'c-basic',
    defs: 'shapes.h',
    main: 'main.cpp',
    broken: 'broken.cpp',
    fn: 'totalArea',
    fnDecl: 'totalArea(const Shape &shape',
    fnCall: 'totalArea(circle, 1)',
    argOffset: 'totalArea(circle, '.length,
    caller: 'report',
    base: 'Shape',
    baseDecl: 'Shape {',
    sub: 'Circle',
    subDecl: 'Circle : Shape',
    variable: 'circle(3)',
    memberAccess: 'circle.area()',
    member: 'area',
    actionFile: 'fixme.cpp',
    actionAt: 'int other',
    actionTitle: /;/,
    formatFile: 'main.cpp',
    unformatted: 'unformatted( int a',
  },
  clangd === undefined ? 'there is no built-in clangd profile' : clangd.unavailable,
)
