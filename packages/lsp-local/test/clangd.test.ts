import { builtinProfiles, findOnPath } from '../src/index.js'
import { describeProfile } from './profile-suite.js'

// clangd is optional: these run only when a `clangd` executable is on PATH.
const clangd = findOnPath('clangd')
// The operations depend on the installed clangd's version (older ones lack type hierarchy, inlay hints, outgoing calls).
const operations = (await builtinProfiles()).find((p) => p.id === 'clangd')?.operations ?? []

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
  clangd === undefined ? 'clangd is not on PATH (install it with `apt-get install -y clangd`)' : undefined,
)
