import { execFileSync } from 'node:child_process'
import { readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
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

test('two worktrees of one repository: two roots, each with its own server (their files differ)', async () => {
  const repository = copyFixture('ts-basic')
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      stdio: 'pipe',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
    })
  git(repository.root, 'init', '-q', '-b', 'main')
  git(repository.root, 'add', '-A')
  git(repository.root, 'commit', '-qm', 'fixture')
  const worktree = `${repository.root}-feature`
  git(repository.root, 'worktree', 'add', '-q', '-b', 'feature', worktree)
  // The feature branch's copy of the file the definition lands in differs: a shared server could answer from either.
  writeFileSync(
    nodePath.join(worktree, 'src/shapes.ts'),
    `// feature branch\n${readFileSync(nodePath.join(worktree, 'src/shapes.ts'), 'utf8')}`,
  )
  const both = createLsp()
  try {
    for (const provider of host.providers) both.registerProvider(provider)
    both.registerWorkspace(await host.openWorkspace(repository.root, { id: 'main', trust: 'trusted' }))
    both.registerWorkspace(await host.openWorkspace(realpathSync(worktree), { id: 'feature', trust: 'trusted' }))
    for (const root of [repository.root, realpathSync(worktree)]) {
      const r = await both.query({
        operation: 'definition',
        root,
        path: 'src/main.ts',
        position: positionOf(root, 'src/main.ts', 'totalArea(shapes'),
      })
      expect(r.locations.map((l) => [l.path, l.range.start.line])).toEqual([
        [nodePath.join(root, 'src/shapes.ts'), positionOf(root, 'src/shapes.ts', 'export function totalArea', { offset: 16 }).line],
      ])
    }
    const servers = host
      .status()
      .filter((s) => s.providerId === 'local:typescript' && (s.root === repository.root || s.root === realpathSync(worktree)))
    expect(servers.map((s) => [s.root, s.sharedRoots]).sort()).toEqual(
      [
        [repository.root, undefined],
        [realpathSync(worktree), undefined],
      ].sort(),
    )
  } finally {
    await both.dispose()
    repository.remove()
    rmSync(worktree, { recursive: true, force: true })
  }
  await leaks.record()
})
