import * as nodePath from 'node:path'

import { afterAll, beforeAll, expect, test } from 'vitest'
import { createLsp } from '@codeseam/lsp'

import { createLocalHost } from '../src/index.js'
import { LeakCheck, copyFixture, positionOf } from './helpers.js'

const leaks = new LeakCheck()
const a = copyFixture('ts-basic')
const b = copyFixture('ts-basic')
const nested = copyFixture('py-nested')
const host = await createLocalHost()
const lsp = createLsp()
beforeAll(() => {
  for (const provider of host.providers) lsp.registerProvider(provider)
})
afterAll(async () => {
  await leaks.record()
  await lsp.dispose()
  await host.dispose()
  for (const copy of [a, b, nested]) copy.remove()
  expect(await leaks.survivors()).toEqual([])
})

test('several roots at once: each query is answered inside its own root, by one server serving both (RFC 0025)', async () => {
  lsp.registerWorkspace(await host.openWorkspace(a.root, { id: 'a', trust: 'trusted' }))
  lsp.registerWorkspace(await host.openWorkspace(b.root, { id: 'b', trust: 'trusted' }))
  for (const root of [a.root, b.root]) {
    const r = await lsp.query({
      operation: 'definition',
      root,
      path: 'src/main.ts',
      position: positionOf(root, 'src/main.ts', 'totalArea(shapes'),
    })
    expect(r.locations.map((l) => l.path)).toEqual([nodePath.join(root, 'src/shapes.ts')])
  }
  // Two roots of one service share the TypeScript server, as its workspace folders.
  const servers = host
    .status()
    .filter((s) => s.providerId === 'local:typescript')
    .map((s) => [s.root, ...(s.sharedRoots ?? [])])
  expect(servers).toEqual([[a.root, b.root].sort()])
  await leaks.record()
})

test('nested projects: one server for the root, each nested project folder one of its workspace folders', async () => {
  const workspace = await host.openWorkspace(nested.root, { trust: 'trusted' })
  lsp.registerWorkspace(workspace)
  for (const project of ['alpha', 'beta']) {
    const file = `${project}/tool.py`
    const r = await lsp.query({
      operation: 'definition',
      root: nested.root,
      path: file,
      position: positionOf(nested.root, file, 'helper()', { occurrence: 2 }),
    })
    expect(r.locations.map((l) => l.path)).toEqual([nodePath.join(nested.root, file)])
  }
  const statuses = host.status().filter((s) => s.providerId === 'local:pyright')
  expect(statuses.map((s) => s.root)).toEqual([nested.root])
  // The root and its two nested project folders.
  expect(statuses[0]?.projects).toEqual({ loaded: 3, found: 3 })
  // A workspace-scoped query asks that one server, which sees each symbol once.
  const symbols = await lsp.query({ operation: 'workspaceSymbols', root: nested.root, query: 'helper' })
  expect(symbols.symbols.map((s) => nodePath.relative(nested.root, s.location.path)).sort()).toEqual(['alpha/tool.py', 'beta/tool.py'])
  expect(symbols.meta.coverage).toEqual({ projectsSearched: 3, projectsFound: 3, complete: true })
  expect(host.status().filter((s) => s.providerId === 'local:pyright')).toHaveLength(1)
  await leaks.record()
})
