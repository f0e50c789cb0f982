import { pyrightOperations } from '../src/index.js'
import { describeProfile } from './profile-suite.js'

// pyright's own operations, and what its ruff companion adds (format, code actions).
const withRuff = [...pyrightOperations, 'format', 'codeActions', 'resolveCodeAction'] as const

describeProfile('pyright', {}, withRuff, {
  fixture: 'py-basic',
  defs: 'pkg/shapes.py',
  main: 'pkg/main.py',
  broken: 'pkg/broken.py',
  fn: 'total_area',
  fnDecl: 'total_area(shapes: list',
  fnCall: 'total_area([circle], 1)',
  argOffset: 'total_area([circle], '.length,
  caller: 'report',
  base: 'Shape',
  baseDecl: 'Shape:',
  sub: 'Circle',
  subDecl: 'Circle(Shape)',
  variable: 'circle = Circle',
  memberAccess: 'circle.area()',
  member: 'area',
  actionFile: 'pkg/needs_import.py',
  actionAt: 'import sys',
  actionTitle: /organize imports/i,
  actionOnly: ['source.organizeImports'],
  formatFile: 'pkg/unformatted.py',
  unformatted: 'value:int',
})
