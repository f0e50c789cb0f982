import { clangdOperations, findOnPath } from '../src/index.js'
import { describeProfile } from './profile-suite.js'

// clangd is optional: these run only when a `clangd` executable is on PATH.
const clangd = findOnPath('clangd')

describeProfile(
  'clangd',
  {},
  clangdOperations,
  {
    fixture: 'c-basic',
    defs: 'shapes.cpp',
    main: 'main.cpp',
    broken: 'broken.cpp',
    fn: 'totalArea',
    fnDecl: 'totalArea(const Shape &shape, double scale) {',
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
    actionFile: 'broken.cpp',
    actionAt: '"not a number"',
    actionTitle: /./,
    formatFile: 'main.cpp',
    unformatted: 'unformatted( int a',
  },
  clangd === undefined ? 'clangd is not on PATH (install it with `apt-get install -y clangd`)' : undefined,
)
