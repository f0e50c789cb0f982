import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, expect, test } from 'vitest'

import { ruffSettingsFor } from '../src/companions/ruff/config.js'
import { createLocalHost, type LocalHost } from '../src/index.js'

// ruff's configuration discovery on real files, read through the host's contained workspace reads.
let host: LocalHost
const made: string[] = []
beforeAll(async () => {
  host = await createLocalHost()
})
afterAll(async () => {
  await host.dispose()
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

/** A temp folder with these files (path → text), opened as a workspace; returns the settings lookup. */
async function tree(files: Record<string, string>) {
  const base = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-ruff-config-')))
  made.push(base)
  const root = nodePath.join(base, 'root')
  for (const [file, text] of Object.entries({ 'root/.keep': '', ...files })) {
    mkdirSync(nodePath.dirname(nodePath.join(base, file)), { recursive: true })
    writeFileSync(nodePath.join(base, file), text)
  }
  const workspace = await host.openWorkspace(root)
  const settingsFor = (file: string) =>
    ruffSettingsFor(nodePath.join(root, file), { root: workspace.root, readFile: (path) => workspace.readFile(path) })
  return { base, root, settingsFor }
}

test('in one folder .ruff.toml wins over ruff.toml over pyproject.toml', async () => {
  const { root, settingsFor } = await tree({
    'root/.ruff.toml': 'line-length = 1\n',
    'root/ruff.toml': 'line-length = 2\n',
    'root/pyproject.toml': '[tool.ruff]\nline-length = 3\n',
    'root/a.py': '',
  })
  expect(await settingsFor('a.py')).toEqual({ options: { 'line-length': 1 }, source: nodePath.join(root, '.ruff.toml') })
})

test('the closest folder wins; a pyproject.toml without [tool.ruff] does not count', async () => {
  const { root, settingsFor } = await tree({
    'root/ruff.toml': 'line-length = 2\n',
    'root/pkg/pyproject.toml': '[project]\nname = "pkg"\n',
    'root/pkg/sub/pyproject.toml': '[tool.ruff]\nline-length = 3\n',
    'root/pkg/a.py': '',
    'root/pkg/sub/b.py': '',
  })
  expect((await settingsFor('pkg/a.py')).source).toBe(nodePath.join(root, 'ruff.toml'))
  expect(await settingsFor('pkg/sub/b.py')).toEqual({
    options: { 'line-length': 3 },
    source: nodePath.join(root, 'pkg/sub/pyproject.toml'),
  })
})

test('no configuration up to the root: ruff defaults (a config above the root is never read)', async () => {
  const { settingsFor } = await tree({ 'ruff.toml': 'line-length = 5\n', 'root/a.py': '' })
  expect(await settingsFor('a.py')).toEqual({ options: {} })
})

test('extend: relative to the file naming it, the base under the extending settings, extend-* lists added', async () => {
  const { settingsFor } = await tree({
    'root/configs/base.toml':
      'line-length = 10\n[lint]\nselect = ["E"]\nextend-select = ["I"]\nextend-ignore = ["E501"]\n[format]\nquote-style = "single"\n',
    'root/app/ruff.toml': 'extend = "../configs/base.toml"\nline-length = 20\n[lint]\nextend-ignore = ["E402"]\n',
    'root/app/a.py': '',
  })
  expect((await settingsFor('app/a.py')).options).toEqual({
    'line-length': 20,
    lint: { select: ['E'], 'extend-select': ['I'], 'extend-ignore': ['E501', 'E402'] },
    format: { 'quote-style': 'single' },
  })
})

test('extend pointing outside the root is refused, typed, and so is a config file linking out', async () => {
  const outside = await tree({ 'shared.toml': 'line-length = 1\n', 'root/ruff.toml': 'extend = "../shared.toml"\n', 'root/a.py': '' })
  await expect(outside.settingsFor('a.py')).rejects.toMatchObject({
    code: 'OUTSIDE_WORKSPACE',
    message: expect.stringMatching(/outside the workspace root/),
  })
  const linked = await tree({ 'elsewhere.toml': 'line-length = 1\n', 'root/a.py': '' })
  symlinkSync(nodePath.join(linked.base, 'elsewhere.toml'), nodePath.join(linked.root, 'ruff.toml'))
  await expect(linked.settingsFor('a.py')).rejects.toMatchObject({ code: 'OUTSIDE_WORKSPACE' })
})

test('an extend cycle fails, typed, naming the chain', async () => {
  const { settingsFor } = await tree({
    'root/ruff.toml': 'extend = "one.toml"\n',
    'root/one.toml': 'extend = "two.toml"\n',
    'root/two.toml': 'extend = "one.toml"\n',
    'root/a.py': '',
  })
  await expect(settingsFor('a.py')).rejects.toMatchObject({
    code: 'INVALID_ARGUMENT',
    message: expect.stringMatching(/extends itself: .*one\.toml → .*two\.toml → .*one\.toml/),
  })
})

test('invalid TOML and settings ruff rejects fail with the config file named', async () => {
  const broken = await tree({ 'root/ruff.toml': 'line-length = \n', 'root/a.py': '' })
  await expect(broken.settingsFor('a.py')).rejects.toMatchObject({
    code: 'INVALID_ARGUMENT',
    message: expect.stringMatching(/not valid TOML/),
  })
  const unknown = await tree({ 'root/ruff.toml': 'no-such-setting = 1\n', 'root/a.py': 'x = 1\n' })
  const lsp = (await import('@codeseam/lsp')).createLsp()
  for (const provider of host.providers) lsp.registerProvider(provider)
  lsp.registerWorkspace(await host.openWorkspace(unknown.root))
  await expect(lsp.query({ operation: 'format', root: unknown.root, path: 'a.py' })).rejects.toMatchObject({
    code: 'INVALID_ARGUMENT',
    message: expect.stringMatching(/ruff rejects the settings of .*ruff\.toml: unknown field `no-such-setting`/),
  })
  await lsp.dispose()
})
