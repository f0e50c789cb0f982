import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLsp, type LspService } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { LeakCheck, copyFixture, positionOf } from './helpers.js'

// ruff (in process, its WebAssembly build) beside the real pyright: each operation routed or merged.
const leaks = new LeakCheck()
const fixture = copyFixture('py-ruff')
const root = fixture.root
let host: LocalHost
let lsp: LspService
const read = (file: string) => readFileSync(nodePath.join(root, file), 'utf8')
const lineRange = (file: string, text: string) => {
  const at = positionOf(root, file, text)
  return { start: at, end: { line: at.line, character: at.character + text.length } }
}

beforeAll(async () => {
  host = await createLocalHost()
  lsp = createLsp()
  for (const provider of host.providers) lsp.registerProvider(provider)
  // Untrusted: ruff configuration is data and applies all the same.
  lsp.registerWorkspace(await host.openWorkspace(root))
})
afterAll(async () => {
  await leaks.record()
  await lsp.dispose()
  await host.dispose()
  fixture.remove()
  expect(await leaks.survivors()).toEqual([])
})

describe('ruff beside pyright', () => {
  test('the provider declares the companion operations and its status names the companion', async () => {
    const provider = host.providers.find((p) => p.id === 'local:pyright')!
    expect(provider.operations).toEqual(expect.arrayContaining(['format', 'codeActions', 'resolveCodeAction', 'diagnostics']))
    await lsp.query({ operation: 'hover', root, path: 'app/clean.py', position: positionOf(root, 'app/clean.py', 'home') })
    const statuses = provider.status!().filter((s) => s.root === root)
    expect(statuses.length).toBeGreaterThan(0)
    for (const status of statuses) {
      expect(status.companions).toEqual([{ id: 'ruff', operations: ['format', 'codeActions', 'resolveCodeAction', 'diagnostics'] }])
      // pyright itself negotiated no formatting: that comes from the companion alone.
      expect(status.operations).not.toContain('format')
    }
  })

  test('diagnostics of one file: pyright and ruff merged, each keeping its source', async () => {
    const r = await lsp.query({ operation: 'diagnostics', root, path: 'app/messy.py' })
    const diagnostics = r.files.flatMap((f) => f.diagnostics)
    const bySource = (source: string) => diagnostics.filter((d) => d.source === source)
    expect(bySource('Pyright').some((d) => /not assignable|"str"/.test(d.message))).toBe(true)
    const unused = bySource('Ruff').find((d) => d.code === 'F401')
    expect(unused).toMatchObject({ severity: 'warning', tags: ['unnecessary'], range: lineRange('app/messy.py', 'json') })
    // The root's pyproject adds I (import sorting) to ruff's defaults.
    expect(bySource('Ruff').some((d) => d.code === 'I001')).toBe(true)
    expect(r.meta.failures).toBeUndefined()
  })

  test('workspace diagnostics: ruff checks exactly the files pyright analysed', async () => {
    const r = await lsp.query({ operation: 'diagnostics', root })
    const messy = r.files.find((f) => f.path === nodePath.join(root, 'app/messy.py'))
    expect(messy?.diagnostics.map((d) => d.source)).toEqual(expect.arrayContaining(['Pyright', 'Ruff']))
    // strict/ extends shared.toml, which ignores F401: no unused-import warning there, but E401-family rules apply.
    const codes = (file: string) =>
      (r.files.find((f) => f.path === nodePath.join(root, file))?.diagnostics ?? []).filter((d) => d.source === 'Ruff').map((d) => d.code)
    expect(codes('strict/wide.py')).toContain('E702')
    expect(codes('strict/wide.py')).not.toContain('F401')
    // plain/pyproject.toml has no [tool.ruff]: the root's configuration applies there (F401 and I).
    expect(codes('plain/sample.py')).toEqual(expect.arrayContaining(['F401']))
    const ruffPaths = r.files.filter((f) => f.diagnostics.some((d) => d.source === 'Ruff')).map((f) => f.path)
    for (const path of ruffPaths) expect(r.coverage.analysed).toContain(path)
    expect(r.coverage.analysed.length).toBeGreaterThan(1)
  })

  test('code actions: organize imports and fix-all from ruff, each resolved by ruff', async () => {
    const range = lineRange('app/messy.py', 'import sys')
    const all = await lsp.query({ operation: 'codeActions', root, path: 'app/messy.py', range })
    expect(all.actions.map((a) => a.kind)).toEqual(expect.arrayContaining(['source.organizeImports', 'source.fixAll']))
    const only = await lsp.query({ operation: 'codeActions', root, path: 'app/messy.py', range, only: ['source.organizeImports'] })
    expect(only.actions.map((a) => a.title)).toEqual(['Ruff: Organize imports'])
    const sorted = await lsp.query({ operation: 'resolveCodeAction', root, path: 'app/messy.py', actionId: only.actions[0]!.id })
    expect(sorted.edit.operations).toHaveLength(1)
    const fixAll = all.actions.find((a) => a.kind === 'source.fixAll')!
    const fixed = await lsp.query({ operation: 'resolveCodeAction', root, path: 'app/messy.py', actionId: fixAll.id })
    await lsp.applyEdit(fixed.edit, { root })
    const after = read('app/messy.py')
    // F401 removed the unused json import; I001 sorted os before sys.
    expect(after).not.toContain('import json')
    expect(after.indexOf('import os')).toBeLessThan(after.indexOf('import sys'))
    // An action listed for the old text is refused once the file changed.
    await expect(
      lsp.query({ operation: 'resolveCodeAction', root, path: 'app/messy.py', actionId: only.actions[0]!.id }),
    ).rejects.toMatchObject({ code: 'STALE_VERSION' })
  })

  test('quick fixes for the ruff diagnostics on the line; fix-all leaves the unsafe ones out', async () => {
    const file = 'app/compare.py'
    const r = await lsp.query({ operation: 'codeActions', root, path: file, range: lineRange(file, 'value == None'), only: ['quickfix'] })
    expect(r.actions.map((a) => a.title)).toEqual([expect.stringMatching(/^Ruff \(E711\): /)])
    const all = await lsp.query({
      operation: 'codeActions',
      root,
      path: file,
      range: lineRange(file, 'import json'),
      only: ['source.fixAll'],
    })
    const fixed = await lsp.query({ operation: 'resolveCodeAction', root, path: file, actionId: all.actions[0]!.id })
    await lsp.applyEdit(fixed.edit, { root })
    expect(read(file)).not.toContain('import json')
    expect(read(file)).toContain('value == None')
  })

  test('format: ruff alone, with the nearest configuration; an already formatted file gets no edits', async () => {
    const r = await lsp.query({ operation: 'format', root, path: 'app/messy.py' })
    expect(r.edit.operations).toHaveLength(1)
    await lsp.applyEdit(r.edit, { root })
    expect(read('app/messy.py')).toContain('def greet(name: str) -> str:')
    expect(read('app/messy.py')).toContain('"hello "')
    const again = await lsp.query({ operation: 'format', root, path: 'app/messy.py' })
    expect(again.edit.operations).toEqual([])
    // strict/ruff.toml: 40 columns and single quotes.
    const strict = await lsp.query({ operation: 'format', root, path: 'strict/wide.py' })
    await lsp.applyEdit(strict.edit, { root })
    expect(read('strict/wide.py')).toContain("value = {\n    'first': 1,")
  })

  test('range formatting is refused, typed', async () => {
    await expect(
      lsp.query({ operation: 'format', root, path: 'app/clean.py', range: lineRange('app/clean.py', 'import os') }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED_OPERATION', message: expect.stringMatching(/whole files/) })
  })
})
