import { writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { afterAll, expect, test } from 'vitest'
import { createLsp } from '@codeseam/lsp'

import { createLocalHost, type HostOptions } from '../src/index.js'
import { LeakCheck, copyFixture } from './helpers.js'

// Companions as configuration: a user profile turns them off or names them wrongly; a failing companion beside the server.
const leaks = new LeakCheck()
const copies: Array<{ remove: () => void }> = []
afterAll(async () => {
  for (const copy of copies) copy.remove()
  expect(await leaks.survivors()).toEqual([])
})

async function session(options: HostOptions) {
  const fixture = copyFixture('py-ruff')
  copies.push(fixture)
  const host = await createLocalHost(options)
  const lsp = createLsp()
  for (const provider of host.providers) lsp.registerProvider(provider)
  lsp.registerWorkspace(await host.openWorkspace(fixture.root))
  return {
    root: fixture.root,
    host,
    lsp,
    close: async () => {
      await leaks.record()
      await lsp.dispose()
      await host.dispose()
    },
  }
}

test('a user profile with companions: [] turns ruff off: no formatting, pyright diagnostics only', async () => {
  const { root, host, lsp, close } = await session({ profiles: [{ id: 'pyright', companions: [] }] })
  try {
    const provider = host.providers.find((p) => p.id === 'local:pyright')!
    expect(provider.operations).not.toContain('format')
    await expect(lsp.query({ operation: 'format', root, path: 'app/messy.py' })).rejects.toMatchObject({ code: 'UNSUPPORTED_OPERATION' })
    const r = await lsp.query({ operation: 'diagnostics', root, path: 'app/messy.py' })
    const sources = new Set(r.files.flatMap((f) => f.diagnostics.map((d) => d.source)))
    expect([...sources]).toEqual(['Pyright'])
    for (const status of provider.status!()) expect(status.companions).toBeUndefined()
  } finally {
    await close()
  }
})

test('a user profile can narrow the companion to some operations', async () => {
  const { root, host, lsp, close } = await session({ profiles: [{ id: 'pyright', companions: [{ id: 'ruff', operations: ['format'] }] }] })
  try {
    expect(host.providers.find((p) => p.id === 'local:pyright')!.operations).toContain('format')
    const r = await lsp.query({ operation: 'diagnostics', root, path: 'app/messy.py' })
    expect(r.files.flatMap((f) => f.diagnostics).some((d) => d.source === 'Ruff')).toBe(false)
    expect((await lsp.query({ operation: 'format', root, path: 'app/messy.py' })).edit.operations).toHaveLength(1)
  } finally {
    await close()
  }
})

test('a companion that is not built in, nor a companion-only profile, or an operation companions cannot answer, is refused', async () => {
  await expect(
    createLocalHost({ profiles: [{ id: 'pyright', companions: [{ id: 'black', operations: ['format'] }] }] }),
  ).rejects.toMatchObject({
    code: 'INVALID_ARGUMENT',
    message: expect.stringMatching(/companion "black", which is neither built in/),
  })
  await expect(
    createLocalHost({ profiles: [{ id: 'pyright', companions: [{ id: 'ruff', operations: ['hover' as 'format'] }] }] }),
  ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/cannot answer hover/) })
})

test("a broken ruff configuration: pyright's diagnostics still come, ruff's failure is in meta.failures", async () => {
  const { root, lsp, close } = await session({})
  try {
    writeFileSync(nodePath.join(root, 'app', 'ruff.toml'), 'line-length = "wide"\n')
    const r = await lsp.query({ operation: 'diagnostics', root, path: 'app/messy.py' })
    expect(r.files.flatMap((f) => f.diagnostics).some((d) => d.source === 'Pyright')).toBe(true)
    expect(r.meta.failures).toEqual([expect.objectContaining({ providerId: 'ruff', code: 'INVALID_ARGUMENT' })])
    // Formatting is ruff's alone: there the failure is the answer.
    await expect(lsp.query({ operation: 'format', root, path: 'app/messy.py' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  } finally {
    await close()
  }
})
