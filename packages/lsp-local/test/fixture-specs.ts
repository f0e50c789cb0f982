import type { LanguageFixture } from './profile-suite.js'

/** The TypeScript fixture, shared by both TypeScript profiles. */
export const typeScriptFixture: LanguageFixture = {
  fixture: 'ts-basic',
  defs: 'src/shapes.ts',
  main: 'src/main.ts',
  broken: 'src/broken.ts',
  fn: 'totalArea',
  fnDecl: 'totalArea(shapes: ReadonlyArray',
  fnCall: 'totalArea(shapes, 1)',
  argOffset: 'totalArea(shapes, '.length,
  caller: 'report',
  base: 'Shape',
  baseDecl: 'Shape {',
  sub: 'Circle',
  subDecl: 'Circle implements',
  variable: 'circle = new',
  memberAccess: 'circle.area()',
  member: 'area',
  actionFile: 'src/needs-import.ts',
  actionAt: 'Circle',
  actionTitle: /import/i,
  formatFile: 'src/main.ts',
  unformatted: 'unformatted( a:number',
}
