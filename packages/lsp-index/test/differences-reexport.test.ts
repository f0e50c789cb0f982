import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, expect, test } from 'vitest'
import type { LspLocation, LspService } from '@codeseam/lsp'

import { readScipIndex, ScipIndex } from '../src/index.js'
import { indexAndLive, indexerVersion, indexWorkspace, type IndexAndLive } from './indexer.js'
import { positionsOf, writeReexportWorkspace } from './reexport-workspace.js'

// Two differences docs/index.md lists that come from re-exports, found on tanstack-query (references of
// query-core's `QueryClient`: 84 of the server's 1,349 are not in the index, all of these two kinds), each shown
// here on a workspace written for it: if one goes away (a new indexer or server), its test fails and the list shrinks.

let root: string
let sides: IndexAndLive | undefined
let live: LspService
let fromIndex: LspService
let index: ScipIndex
let disposeIndex: () => Promise<void>

beforeAll(async () => {
  root = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'codeseam-index-reexport-')))
  const projects = await writeReexportWorkspace(root)
  const built = await indexWorkspace(root, projects)
  disposeIndex = built.dispose
  const decoded = await readScipIndex(built.path)
  index = new ScipIndex(decoded)
  sides = await indexAndLive(root, decoded, 'trusted')
  ;({ fromIndex, live } = sides)
}, 180_000)

afterAll(async () => {
  await sides?.dispose()
  await disposeIndex?.()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

const keyOf = (path: string, position: { line: number; character: number }) => `${path}:${position.line}:${position.character}`
const keys = (locations: ReadonlyArray<LspLocation>) =>
  locations.map((location) => keyOf(nodePath.relative(root, location.path).split(nodePath.sep).join('/'), location.range.start)).sort()

async function references(path: string, position: { line: number; character: number }) {
  const request = { operation: 'references', root, path, position } as const
  const [indexed, server] = await Promise.all([fromIndex.query(request), live.query(request)])
  return { index: keys(indexed.locations), server: keys(server.locations) }
}

test(
  `a class reached through a named re-export (\`export { Engine } from './engine.js'\`) by a renamed import or a namespace member: scip-typescript ${indexerVersion} files those names under a local symbol, the server under the class`,
  { timeout: 120_000 },
  async () => {
    const [declaration] = positionsOf('packages/core/src/engine.ts', 'class Engine', 6)
    const { index: fromIndexKeys, server } = await references('packages/core/src/engine.ts', declaration!)
    const local = [...positionsOf('src/car.ts', 'Engine as'), ...positionsOf('src/car.ts', 'Core.Engine', 5)]
    expect(local).toHaveLength(4)
    const localKeys = local.map((position) => keyOf('src/car.ts', position))
    // The server has them; the index has everything else the server has, and nothing more.
    for (const key of localKeys) expect(server).toContain(key)
    expect(fromIndexKeys).toEqual(server.filter((key) => !localKeys.includes(key)))
    // The cause: a local symbol of car.ts at each (the re-export's alias), the class's own symbol on the renamed alias.
    for (const position of local) expect(index.symbolsAt('src/car.ts', position).every((symbol) => symbol.startsWith('local '))).toBe(true)
    const [alias] = positionsOf('src/car.ts', 'CoreEngine }')
    expect(index.symbolsAt('src/car.ts', alias!).some((symbol) => symbol.endsWith('`engine.ts`/Engine#'))).toBe(true)
  },
)

test(
  `a name an \`export *\` re-exports and an explicit export of the same barrel shadows: the server's references of the hidden declaration include the uses of the one that wins; scip-typescript ${indexerVersion} files them under that one`,
  { timeout: 120_000 },
  async () => {
    const [declaration] = positionsOf('src/core/client.ts', 'class Client', 6)
    const { index: fromIndexKeys, server } = await references('src/core/client.ts', declaration!)
    // app.ts imports the barrel's Client, which is wrapper/client.ts's subclass, not core/client.ts's class.
    const uses = positionsOf('src/app.ts', 'Client').map((position) => keyOf('src/app.ts', position))
    expect(uses).toHaveLength(3)
    for (const key of uses) expect(server).toContain(key)
    expect(fromIndexKeys).toEqual(server.filter((key) => !uses.includes(key)))
    for (const position of positionsOf('src/app.ts', 'Client')) {
      expect(index.symbolsAt('src/app.ts', position).some((symbol) => symbol.includes('src/wrapper/`client.ts`/Client#'))).toBe(true)
    }
    // The definition at a use agrees on both sides: the subclass.
    const [use] = positionsOf('src/app.ts', 'new Client', 4)
    const request = { operation: 'definition', root, path: 'src/app.ts', position: use! } as const
    const [indexed, server2] = await Promise.all([fromIndex.query(request), live.query(request)])
    expect(keys(indexed.locations).map((key) => key.split(':')[0])).toContain('src/wrapper/client.ts')
    expect(keys(server2.locations).map((key) => key.split(':')[0])).toContain('src/wrapper/client.ts')
  },
)
