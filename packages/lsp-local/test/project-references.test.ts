import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLsp, type LspService } from '@codeseam/lsp'

import { createLocalHost, type HostOptions, type LocalHost } from '../src/index.js'
import { LeakCheck, copyFixture, positionOf, textAt, typeScriptLanguageServerInstead } from './helpers.js'

const tsls = typeScriptLanguageServerInstead
// ts-refs: a solution-style root tsconfig referencing three projects; ts-monorepo: the same projects with no
// root tsconfig at all (each package stands alone, as in many pnpm monorepos).
const profiles: Array<[string, string, HostOptions]> = [
  ['typescript', 'ts-refs', {}],
  ['typescript', 'ts-monorepo', {}],
  ['typescript-language-server', 'ts-refs', tsls],
  ['typescript-language-server', 'ts-monorepo', tsls],
]

// A solution-style tsconfig with three referenced projects: a query started in `core` must find the
// sites in `app` and `cli`, although nothing in those projects was opened.
describe.each(profiles)('project references (%s, %s)', (_name, fixture, options) => {
  const copy = copyFixture(fixture)
  const root = copy.root
  const core = 'packages/core/src/index.ts'
  const leaks = new LeakCheck()
  let host: LocalHost
  let lsp: LspService
  beforeAll(async () => {
    host = await createLocalHost(options)
    lsp = createLsp()
    await host.attach(lsp, [{ root, trust: 'trusted' }])
  })
  afterAll(async () => {
    await leaks.record()
    await lsp.dispose()
    await host.dispose()
    copy.remove()
    expect(await leaks.survivors()).toEqual([])
  })

  test('references from core find the call sites in app and cli', async () => {
    const r = await lsp.query({ operation: 'references', root, path: core, position: positionOf(root, core, 'formatGreeting(name') })
    const files = new Set(r.locations.map((l) => nodePath.relative(root, l.path)))
    expect([...files].sort()).toEqual(expect.arrayContaining(['packages/app/src/index.ts', 'packages/cli/src/index.ts', core]))
    expect(r.locations.every((l) => textAt(l.path, l.range) === 'formatGreeting')).toBe(true)
    // declaration + import and call in app + import and call in cli
    expect(r.locations.length).toBeGreaterThanOrEqual(5)
  })

  test('rename from core edits app and cli', async () => {
    const r = await lsp.query({
      operation: 'rename',
      root,
      path: core,
      position: positionOf(root, core, 'formatGreeting(name'),
      newName: 'greet',
    })
    const touched = r.edit.operations.flatMap((o) => (o.type === 'edit' ? [nodePath.relative(root, o.path)] : []))
    expect(touched).toEqual(expect.arrayContaining(['packages/app/src/index.ts', 'packages/cli/src/index.ts', core]))
    const edits = r.edit.operations.flatMap((o) => (o.type === 'edit' ? o.edits : []))
    expect(edits.length).toBeGreaterThanOrEqual(5)
    await leaks.record()
  })
})

// Proof that the check above can fail: the native server on its own searches only loaded projects.
test('without loading every project first, the native server misses the other projects', async () => {
  const copy = copyFixture('ts-monorepo')
  const host = await createLocalHost({ profiles: [{ id: 'typescript', loadAllProjects: false }] })
  const leaks = new LeakCheck()
  try {
    const workspace = await host.openWorkspace(copy.root, { trust: 'trusted' })
    const provider = host.providers.find((p) => p.id === 'local:typescript')
    const core = 'packages/core/src/index.ts'
    const r = await provider!.query(
      {
        operation: 'references',
        root: workspace.root,
        path: nodePath.join(copy.root, core),
        position: positionOf(copy.root, core, 'formatGreeting(name'),
        languageId: 'typescript',
      },
      new AbortController().signal,
    )
    expect(r.locations.every((l) => l.path.includes('packages/core'))).toBe(true)
    await leaks.record()
  } finally {
    await host.dispose()
    copy.remove()
  }
  expect(await leaks.survivors()).toEqual([])
})
