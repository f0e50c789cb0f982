import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import { afterAll, expect, test } from 'vitest'
import { isLspError } from '@codeseam/lsp'

import { Containment } from '../src/containment.js'

const base = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-contain-')))
const root = nodePath.join(base, 'root')
const outside = nodePath.join(base, 'outside')
mkdirSync(nodePath.join(root, 'src'), { recursive: true })
mkdirSync(outside)
writeFileSync(nodePath.join(root, 'src', 'a.ts'), 'a')
writeFileSync(nodePath.join(outside, 'secret.ts'), 'secret')
symlinkSync(outside, nodePath.join(root, 'escape'))
symlinkSync(nodePath.join(root, 'src'), nodePath.join(root, 'inner-link'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

function code(run: () => unknown): string | undefined {
  try {
    run()
    return undefined
  } catch (error) {
    return isLspError(error) ? error.code : 'not an LspError'
  }
}

test('inputs that escape the root are OUTSIDE_WORKSPACE, after symlink resolution', async () => {
  const c = await Containment.forRoot(root)
  expect(c.input('src/a.ts')).toBe(nodePath.join(root, 'src', 'a.ts'))
  expect(c.input('inner-link/a.ts')).toBe(nodePath.join(root, 'src', 'a.ts'))
  expect(c.input('src/new-file.ts')).toBe(nodePath.join(root, 'src', 'new-file.ts'))
  for (const path of ['../outside/secret.ts', 'src/../../outside/secret.ts', '%2e%2e/outside/secret.ts', nodePath.join(outside, 'secret.ts'), 'escape/secret.ts', 'escape/not-yet.ts', 'https://example.com/a.ts', pathToFileURL(nodePath.join(outside, 'secret.ts')).href]) {
    expect(code(() => c.input(path)), path).toBe('OUTSIDE_WORKSPACE')
  }
})

test('server URIs outside the root, through symlinks or with other schemes are dropped', async () => {
  const c = await Containment.forRoot(root)
  expect(c.output(pathToFileURL(nodePath.join(root, 'src', 'a.ts')).href)).toBe(nodePath.join(root, 'src', 'a.ts'))
  expect(c.output(pathToFileURL(nodePath.join(outside, 'secret.ts')).href)).toBeUndefined()
  expect(c.output(pathToFileURL(nodePath.join(root, 'escape', 'secret.ts')).href)).toBeUndefined()
  expect(c.output('untitled:Untitled-1')).toBeUndefined()
  expect(c.output('https://example.com/a.ts')).toBeUndefined()
})

test('a root is canonicalized; a missing root is NOT_FOUND', async () => {
  const c = await Containment.forRoot(nodePath.join(root, 'inner-link'))
  expect(c.root).toBe(nodePath.join(root, 'src'))
  await expect(Containment.forRoot(nodePath.join(base, 'missing'))).rejects.toMatchObject({ code: 'NOT_FOUND' })
})
