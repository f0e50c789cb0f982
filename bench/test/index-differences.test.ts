import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, expect, test } from 'vitest'

import { indexWorkspace } from '../../packages/lsp-index/test/indexer.js'
import { positionsOf, writeReexportWorkspace } from '../../packages/lsp-index/test/reexport-workspace.js'
import { IndexDifferences } from '../src/index-differences.js'

// The bench counts an index's answer complete apart from the differences docs/index.md lists only where the index
// itself holds what that difference's cause says: checked on the workspace packages/lsp-index's test shows them on.

let root: string
let listed: IndexDifferences
let dispose: (() => Promise<void>) | undefined

beforeAll(async () => {
  root = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-bench-differences-')))
  const built = await indexWorkspace(root, await writeReexportWorkspace(root))
  dispose = built.dispose
  listed = await IndexDifferences.read(built.path, root)
}, 180_000)

afterAll(async () => {
  await dispose?.()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

/** The oracle's key of the identifier `name` at a position. */
const keyAt = (path: string, position: { line: number; character: number }, name: string) =>
  `${path}@${position.line}:${position.character}-${position.line}:${position.character + name.length}`

test('names through a named re-export are recognised by the local symbol the index holds there, and nothing else is', async () => {
  const [engine] = positionsOf('packages/core/src/engine.ts', 'class Engine', 6)
  const target = { path: 'packages/core/src/engine.ts', ...engine! }
  for (const position of [...positionsOf('src/car.ts', 'Engine as'), ...positionsOf('src/car.ts', 'Core.Engine', 5)])
    expect(listed.classify(target, keyAt('src/car.ts', position, 'Engine'))).toBe('namedReexport')
  // The renamed alias carries the class's own symbol; the namespace's name is not the class's; a file not indexed.
  const [alias] = positionsOf('src/car.ts', 'CoreEngine }')
  expect(listed.classify(target, keyAt('src/car.ts', alias!, 'CoreEngine'))).toBeUndefined()
  const [namespace] = positionsOf('src/car.ts', 'Core from')
  expect(listed.classify(target, keyAt('src/car.ts', namespace!, 'Core'))).toBeUndefined()
  expect(listed.classify(target, 'src/absent.ts@0:0-0:6')).toBeUndefined()
})

test('uses of the declaration that shadows an `export *` are recognised by its symbol: another one of the same name', async () => {
  const [client] = positionsOf('src/core/client.ts', 'class Client', 6)
  const target = { path: 'src/core/client.ts', ...client! }
  const uses = positionsOf('src/app.ts', 'Client')
  expect(uses).toHaveLength(3)
  for (const position of uses) expect(listed.classify(target, keyAt('src/app.ts', position, 'Client'))).toBe('shadowedExportStar')
  // Another name at a place: not this difference (the subclass's field, the import's module).
  const [extra] = positionsOf('src/wrapper/client.ts', 'extra')
  expect(listed.classify(target, keyAt('src/wrapper/client.ts', extra!, 'extra'))).toBeUndefined()
  // The asked class's own occurrence is no difference at all.
  const [declared] = positionsOf('src/core/client.ts', 'class Client', 6)
  expect(listed.classify(target, keyAt('src/core/client.ts', declared!, 'Client'))).toBeUndefined()
})
