import * as nodePath from 'node:path'

import { afterAll, beforeAll, expect, test } from 'vitest'
import type { LspLocation, LspService } from '@codeseam/lsp'
import { copyFixture, type FixtureWorkspace } from '@codeseam/lsp/testing'

import { readScipIndex } from '../src/index.js'
import { indexAndLive, indexWorkspace, type IndexAndLive } from './indexer.js'

// The index's answers against the native TypeScript server's (lsp-local's default for .ts) on the same copy of the
// seam's TypeScript fixture: targets found by text, answers compared as sets of (file, line, columns).

let fixture: FixtureWorkspace
let sides: IndexAndLive | undefined
let live: LspService
let fromIndex: LspService
let disposeIndex: () => Promise<void>

beforeAll(async () => {
  fixture = await copyFixture()
  const built = await indexWorkspace(fixture.root)
  disposeIndex = built.dispose
  sides = await indexAndLive(fixture.root, await readScipIndex(built.path), 'trusted')
  ;({ fromIndex, live } = sides)
}, 180_000)

afterAll(async () => {
  await sides?.dispose()
  await disposeIndex?.()
  await fixture?.dispose()
})

/** A location as `file:line:start-end` (one-based line, zero-based UTF-16 columns), its name's range for a definition. */
function keys(locations: ReadonlyArray<LspLocation>, selection: boolean): string[] {
  const keyOf = (l: LspLocation) => {
    const r = selection ? (l.targetSelectionRange ?? l.range) : l.range
    return `${nodePath.relative(fixture.root, l.path)}:${r.start.line + 1}:${r.start.character}-${r.end.line === r.start.line ? '' : `${r.end.line + 1}:`}${r.end.character}`
  }
  return [...new Set(locations.map(keyOf))].sort()
}

async function both(operation: 'references' | 'definition', file: string, text: string, at?: string) {
  const position = await fixture.find({ file, text, ...(at !== undefined ? { at } : {}) })
  const request = { operation, root: fixture.root, path: fixture.path(file), position } as const
  const [index, server] = await Promise.all([fromIndex.query(request), live.query(request)])
  return { index: keys(index.locations, operation === 'definition'), server: keys(server.locations, operation === 'definition') }
}

const main = 'src/main.ts'
const shapes = 'src/shapes.ts'
const geometry = 'src/geometry.ts'

const equalReferences: ReadonlyArray<readonly [string, string, string, string?]> = [
  ['a function', geometry, 'function totalArea', 'totalArea'],
  ['an interface', shapes, 'interface Shape', 'Shape'],
  ['a class, with its `new` calls (filed under the constructor by SCIP)', shapes, 'class Circle', 'Circle'],
  ['a class from one of its `new` calls', main, 'new Square(3)', 'Square'],
  ['a constant used across files', shapes, 'const renameMe', 'renameMe'],
  ['a non-ASCII identifier on lines with astral characters', main, 'export const naïveCafé', 'naïveCafé'],
  ['a constructor parameter property', main, 'circle.radius *', 'radius'],
  ['an interface method, with the methods implementing it', shapes, 'area(): number\n}', 'area'],
  ['a method implementing an interface method, with its siblings', shapes, 'area(): number {\n    return Math', 'area'],
]

for (const [what, file, text, at] of equalReferences) {
  test(`references of ${what} equal the TypeScript server's`, { timeout: 120_000 }, async () => {
    const { index, server } = await both('references', file, text, at)
    expect(index.length).toBeGreaterThan(1)
    expect(index).toEqual(server)
  })
}

const equalDefinitions: ReadonlyArray<readonly [string, string, string, string?]> = [
  ['a function called in another file', main, 'totalArea(shapes)'],
  ['a non-ASCII identifier after an astral character', main, "' + naïveCafé", 'naïveCafé'],
  ['an imported class', main, 'import { Circle', 'Circle'],
  ['a parameter property', main, 'circle.radius *', 'radius'],
  ['a method through the interface', geometry, 'shape.area()', 'area'],
]

for (const [what, file, text, at] of equalDefinitions) {
  test(`definition of ${what} equals the TypeScript server's`, { timeout: 120_000 }, async () => {
    const { index, server } = await both('definition', file, text, at)
    expect(index.length).toBeGreaterThan(0)
    expect(index).toEqual(server)
  })
}

test(
  'definition at a `new` call: the class and its constructor, the constructor named by its keyword (a listed difference)',
  { timeout: 120_000 },
  async () => {
    const { index, server } = await both('definition', main, 'new Circle', 'Circle')
    // The server names the constructor by its whole declaration (`constructor(readonly radius: number) {}`), the index
    // by the word `constructor` (SCIP's occurrence; the declaration is its enclosing range): same places, narrower name.
    expect(server).toEqual(['src/shapes.ts:6:13-19', 'src/shapes.ts:7:2-41'])
    expect(index).toEqual(['src/shapes.ts:6:13-19', 'src/shapes.ts:7:2-13'])
  },
)
