import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { createRequire, syncBuiltinESMExports } from 'node:module'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, afterEach, beforeEach, expect, test } from 'vitest'
import { pathToUri } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { readCacheLimits } from '../src/workspace/read-cache.js'

/**
 * A workspace serves a file it read again while the file's stat key holds: these tests count the opens
 * (so they see the cache at work) and change the file every way it can change, expecting the new text.
 */

/** The CommonJS `fs.promises` (the ESM namespace is frozen); `syncBuiltinESMExports` makes named imports see a wrapper. */
const fsPromises = createRequire(import.meta.url)('node:fs').promises as Record<string, unknown>

const base = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-read-cache-')))
const root = nodePath.join(base, 'root')
const file = (name: string) => nodePath.join(root, name)
let host: LocalHost
let opened: string[] = []
const originalOpen = fsPromises['open'] as (...args: unknown[]) => unknown
const defaults = { ...readCacheLimits }

beforeEach(async () => {
  rmSync(root, { recursive: true, force: true })
  mkdirSync(root, { recursive: true })
  writeFileSync(file('a.txt'), 'alpha beta\n')
  writeFileSync(nodePath.join(base, 'outside.txt'), 'outside!!!\n')
  opened = []
  fsPromises['open'] = function (this: unknown, ...args: unknown[]) {
    if (typeof args[0] === 'string') opened.push(args[0])
    return originalOpen.apply(this, args)
  }
  syncBuiltinESMExports()
  // Files here were written moments ago: without this, none would be kept (see racyChangeMs). Negative, not 0:
  // a file's ctime can be a little ahead of Date.now() (a CI run once saw a just-written file refused).
  readCacheLimits.racyChangeMs = -10_000
  host = await createLocalHost({ builtins: false })
})
afterEach(async () => {
  fsPromises['open'] = originalOpen
  syncBuiltinESMExports()
  Object.assign(readCacheLimits, defaults)
  await host.dispose()
})
afterAll(() => rmSync(base, { recursive: true, force: true }))

const opens = (name: string) => opened.filter((path) => path === file(name)).length

test('an unchanged file is served again without opening it; a change on disk is read', async () => {
  const ws = await host.openWorkspace(root)
  expect((await ws.readFile('a.txt')).text).toBe('alpha beta\n')
  const first = await ws.readFile('a.txt')
  expect(first.text).toBe('alpha beta\n')
  expect(opens('a.txt')).toBe(1)
  writeFileSync(file('a.txt'), 'alpha beta gamma\n')
  const changed = await ws.readFile('a.txt')
  expect(changed.text).toBe('alpha beta gamma\n')
  expect(changed.hash).not.toBe(first.hash)
  expect(opens('a.txt')).toBe(2)
})

test('a same-size rewrite is read (the stat key moves with the change time)', async () => {
  const ws = await host.openWorkspace(root)
  await ws.readFile('a.txt')
  await ws.readFile('a.txt')
  expect(opens('a.txt')).toBe(1)
  writeFileSync(file('a.txt'), 'ALPHA BETA\n')
  expect((await ws.readFile('a.txt')).text).toBe('ALPHA BETA\n')
})

test('an edit applied through the workspace is read back, not the text before it', async () => {
  const ws = await host.openWorkspace(root)
  await ws.readFile('a.txt')
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }
  await ws.applyEdit({
    operations: [{ type: 'edit', uri: pathToUri(file('a.txt')), path: file('a.txt'), version: null, edits: [{ range, newText: 'omega' }] }],
  })
  expect((await ws.readFile('a.txt')).text).toBe('omega beta\n')
})

test('a kept file that became a symbolic link out of the root is refused at the next read', async () => {
  const ws = await host.openWorkspace(root)
  await ws.readFile('a.txt')
  await ws.readFile('a.txt')
  expect(opens('a.txt')).toBe(1)
  unlinkSync(file('a.txt'))
  symlinkSync(nodePath.join(base, 'outside.txt'), file('a.txt'))
  await expect(ws.readFile('a.txt')).rejects.toMatchObject({ code: 'OUTSIDE_WORKSPACE' })
})

test('a deleted file is NOT_FOUND, not its last text', async () => {
  const ws = await host.openWorkspace(root)
  await ws.readFile('a.txt')
  unlinkSync(file('a.txt'))
  await expect(ws.readFile('a.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' })
})

test('a file changed just before it was read is not kept: it is opened at every read', async () => {
  Object.assign(readCacheLimits, defaults)
  const ws = await host.openWorkspace(root)
  writeFileSync(file('a.txt'), 'fresh\n')
  await ws.readFile('a.txt')
  expect((await ws.readFile('a.txt')).text).toBe('fresh\n')
  expect(opens('a.txt')).toBe(2)
})

test('every read hands out its own snapshot object (the seam freezes and binds each one)', async () => {
  const ws = await host.openWorkspace(root)
  const first = await ws.readFile('a.txt')
  Object.freeze(first)
  const second = await ws.readFile('a.txt')
  expect(second).not.toBe(first)
  expect(second).toEqual(first)
  expect(opens('a.txt')).toBe(1)
})

test('the kept text is bounded in characters: the least recently read file goes first, a larger one is never kept', async () => {
  writeFileSync(file('b.txt'), 'gamma delt\n')
  writeFileSync(file('big.txt'), 'x'.repeat(40) + '\n')
  // Room for two of the 11-character files, not for the 41-character one.
  readCacheLimits.characters = 22
  const ws = await host.openWorkspace(root)
  await ws.readFile('a.txt')
  await ws.readFile('b.txt')
  await ws.readFile('a.txt')
  await ws.readFile('b.txt')
  expect([opens('a.txt'), opens('b.txt')]).toEqual([1, 1])
  writeFileSync(file('c.txt'), 'epsilon ze\n')
  // c joins; a, read before b, goes.
  await ws.readFile('c.txt')
  await ws.readFile('b.txt')
  expect((await ws.readFile('a.txt')).text).toBe('alpha beta\n')
  expect([opens('a.txt'), opens('b.txt'), opens('c.txt')]).toEqual([2, 1, 1])
  await ws.readFile('big.txt')
  expect((await ws.readFile('big.txt')).text).toBe(`${'x'.repeat(40)}\n`)
  expect(opens('big.txt')).toBe(2)
})
