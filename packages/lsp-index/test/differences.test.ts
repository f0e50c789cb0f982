import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, expect, test } from 'vitest'
import { TextLines, type LspService } from '@codeseam/lsp'

import { readScipIndex } from '../src/index.js'
import { indexAndLive, indexerVersion, indexWorkspace, type IndexAndLive } from './indexer.js'

// The differences docs/index.md lists between the index's answers and the native TypeScript server's, each shown
// here on a workspace written for it: if one goes away (a new indexer or server), its test fails and the list shrinks.

const widget = `/** A widget. */
export class Widget {
  size = 1
}

/** Makes one; see {@link Widget}. */
export function make(): Widget {
  return new Widget()
}

export const label = 'widget'
`

// A name declared twice (an interface and a namespace), a constant, a function in a constant.
const merged = `export interface Point {
  x: number
}

export namespace Point {
  export function is(value: unknown): value is Point {
    return typeof value === 'object' && value !== null
  }
}

export function origin(): Point {
  return { x: 0 }
}

export const checked = Point.is(origin())

export const double = (n: number) => n * 2

export const twice = double(2) + checked.toString().length

export interface Sized {
  readonly size: number
}

export class Box implements Sized {
  get size(): number {
    return 1
  }
}

export function sizeOf(sized: Sized): number {
  return sized.size
}

function area(): number {
  return 4
}

export interface Shape {
  area(): number
}

export const shape: Shape = { area }

export interface Status {
  readonly idle: boolean
}

export interface IdleStatus extends Status {
  readonly idle: true
}

export const settled: Status = { idle: false }
`

// Imports of them: a definition asked from another file.
const use = `import { double } from './merged'

export const four = double(2)
`

let root: string
let sides: IndexAndLive | undefined
let live: LspService
let fromIndex: LspService
let disposeIndex: () => Promise<void>

beforeAll(async () => {
  root = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-index-differences-')))
  await mkdir(nodePath.join(root, 'src'))
  await writeFile(nodePath.join(root, 'src/widget.ts'), widget)
  await writeFile(nodePath.join(root, 'src/merged.ts'), merged)
  await writeFile(nodePath.join(root, 'src/use.ts'), use)
  await writeFile(nodePath.join(root, 'package.json'), '{ "name": "differences", "private": true, "type": "module" }\n')
  await writeFile(nodePath.join(root, 'tsconfig.json'), '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n')
  const built = await indexWorkspace(root)
  disposeIndex = built.dispose
  sides = await indexAndLive(root, await readScipIndex(built.path), 'trusted')
  ;({ fromIndex, live } = sides)
}, 180_000)

afterAll(async () => {
  await sides?.dispose()
  await disposeIndex?.()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

const at = (needle: string, offset = 0) => new TextLines(widget).positionAt(widget.indexOf(needle) + offset)
// Sorted as strings (both sides alike).
const lines = (locations: ReadonlyArray<{ range: { start: { line: number } } }>) =>
  [...new Set(locations.map((l) => l.range.start.line + 1))].sort()

test(
  `JSDoc mentions ({@link Widget}) are references to the server, not in a scip-typescript ${indexerVersion} index`,
  { timeout: 120_000 },
  async () => {
    const request = { operation: 'references', root, path: 'src/widget.ts', position: at('class Widget', 6) } as const
    const [index, server] = await Promise.all([fromIndex.query(request), live.query(request)])
    const mention = at('{@link Widget}').line + 1
    expect(lines(server.locations)).toContain(mention)
    expect(lines(index.locations)).not.toContain(mention)
    // Everything else is the same: declaration, return type, `new` call.
    expect(lines(index.locations)).toEqual(lines(server.locations).filter((line) => line !== mention))
  },
)

test("hover text is rendered by the indexer's TypeScript (5.9, `var` for a `const`), not the server's", { timeout: 120_000 }, async () => {
  const request = { operation: 'hover', root, path: 'src/widget.ts', position: at('const label', 6) } as const
  const [index, server] = await Promise.all([fromIndex.query(request), live.query(request)])
  expect(index.hover?.contents).toContain('var label: "widget"')
  expect(server.hover?.contents).toContain('const label: "widget"')
})

const inMerged = (needle: string, offset = 0) => new TextLines(merged).positionAt(merged.indexOf(needle) + offset)
const lineOf = (needle: string) => inMerged(needle).line + 1

async function both(operation: 'references' | 'definition', path: string, position: { line: number; character: number }) {
  const request = { operation, root, path, position } as const
  const [index, server] = await Promise.all([fromIndex.query(request), live.query(request)])
  return { index: index.locations, server: server.locations }
}

test(
  `references of a namespace merged with an interface: scip-typescript ${indexerVersion} files every use of the name under both, the server answers the namespace's (value) uses`,
  { timeout: 120_000 },
  async () => {
    const { index, server } = await both('references', 'src/merged.ts', inMerged('namespace Point', 10))
    const typeUses = [lineOf('value is Point'), lineOf('origin(): Point')]
    expect(lines(server)).toEqual([lineOf('namespace Point'), lineOf('Point.is(origin')].sort())
    expect(lines(index)).toEqual([lineOf('namespace Point'), ...typeUses, lineOf('Point.is(origin')].sort())
  },
)

test(
  'definition at a JSDoc mention ({@link Widget}): the server resolves it, the index holds nothing there',
  { timeout: 120_000 },
  async () => {
    const request = { operation: 'definition', root, path: 'src/widget.ts', position: at('{@link Widget}', 8) } as const
    const [index, server] = await Promise.all([fromIndex.query(request), live.query(request)])
    expect(lines(server.locations)).toEqual([at('class Widget').line + 1])
    expect(index.locations).toEqual([])
  },
)

test(
  "a definition's range: a namespace's and a constant's are the name in the index (no enclosing range), the whole declaration for the server",
  { timeout: 120_000 },
  async () => {
    for (const [use, declaration, name] of [
      ['Point.is(origin', 'export namespace Point', 'Point'],
      ['checked.toString', 'export const checked', 'checked'],
    ] as const) {
      const { index, server } = await both('definition', 'src/merged.ts', inMerged(use))
      const nameAt = inMerged(declaration, declaration.length - name.length)
      const nameRange = { start: nameAt, end: { line: nameAt.line, character: nameAt.character + name.length } }
      // The same place, named the same: only `range` differs.
      expect(index.map((l) => l.targetSelectionRange ?? l.range)).toContainEqual(nameRange)
      expect(server.map((l) => l.targetSelectionRange)).toContainEqual(nameRange)
      expect(index.find((l) => l.range.start.line === nameAt.line)?.range).toEqual(nameRange)
      expect(server.find((l) => l.range.start.line === nameAt.line)?.range.start).toEqual({ line: nameAt.line, character: 0 })
    }
  },
)

test(
  "a definition's range: a function in a constant (`const double = (n) => …`) is the function in the index; the server's is the function in its own file, the whole declaration from an importing file",
  { timeout: 120_000 },
  async () => {
    const sameFile = await both('definition', 'src/merged.ts', inMerged('double(2)'))
    const imported = await both('definition', 'src/use.ts', new TextLines(use).positionAt(use.indexOf('double(2)')))
    const fn = inMerged('(n: number) =>')
    expect(sameFile.index.map((l) => l.range.start)).toEqual([fn])
    expect(sameFile.server.map((l) => l.range.start)).toEqual([fn])
    expect(imported.index.map((l) => l.range)).toEqual(sameFile.index.map((l) => l.range))
    expect(imported.server.map((l) => l.range.start)).toEqual([inMerged('export const double')])
    // The same place, named the same, ending the same: only where `range` starts differs.
    expect(imported.index.map((l) => [l.targetSelectionRange, l.range.end])).toEqual(
      imported.server.map((l) => [l.targetSelectionRange, l.range.end]),
    )
  },
)

test(
  `references of an accessor (\`get size()\`): the server relates it to the property it implements, a scip-typescript ${indexerVersion} index does not`,
  { timeout: 120_000 },
  async () => {
    const { index, server } = await both('references', 'src/merged.ts', inMerged('get size', 4))
    expect(lines(server)).toEqual([lineOf('readonly size'), lineOf('get size'), lineOf('sized.size')].sort())
    expect(lines(index)).toEqual([lineOf('get size')])
  },
)

test(
  'definition at a shorthand property (`{ area }`): the server names the property and the function it reads, the index the property',
  { timeout: 120_000 },
  async () => {
    const { index, server } = await both('definition', 'src/merged.ts', inMerged('{ area }', 2))
    expect(lines(server)).toEqual([lineOf('function area'), lineOf('area(): number\n}')].sort())
    expect(lines(index)).toEqual([lineOf('area(): number\n}')])
  },
)

test(
  `references of a property: the server adds its redeclaration in a sub-interface, a scip-typescript ${indexerVersion} index does not`,
  { timeout: 120_000 },
  async () => {
    const { index, server } = await both('references', 'src/merged.ts', inMerged('idle: boolean', 0))
    expect(lines(server)).toEqual([lineOf('idle: boolean'), lineOf('idle: true'), lineOf('{ idle: false }')].sort())
    // An object literal of the type is in both.
    expect(lines(index)).toEqual([lineOf('idle: boolean'), lineOf('{ idle: false }')].sort())
  },
)
