import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeEach, expect, test } from 'vitest'
import { contentHash, pathToUri, type LspWorkspaceEdit } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'

const base = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-ws-')))
const root = nodePath.join(base, 'root')
let host: LocalHost
const file = (name: string) => nodePath.join(root, name)
const read = (name: string) => readFileSync(file(name), 'utf8')
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } })
const edit = (name: string, edits: Array<{ range: ReturnType<typeof range>; newText: string }>) =>
  ({ type: 'edit', uri: pathToUri(file(name)), path: file(name), version: null, edits }) as const

beforeEach(async () => {
  rmSync(root, { recursive: true, force: true })
  mkdirSync(nodePath.join(root, 'dir'), { recursive: true })
  writeFileSync(file('a.txt'), 'alpha beta\n')
  writeFileSync(file('b.txt'), 'gamma\n')
  writeFileSync(nodePath.join(base, 'outside.txt'), 'outside\n')
  await host?.dispose()
  host = await createLocalHost({ builtins: false })
})
afterAll(async () => {
  await host.dispose()
  chmodSync(base, 0o755)
  rmSync(base, { recursive: true, force: true })
})

test('an edit across files is applied, with hashes before and after', async () => {
  const ws = await host.openWorkspace(root)
  const result = await ws.applyEdit({
    operations: [edit('a.txt', [{ range: range(0, 0, 5), newText: 'ALPHA' }]), edit('b.txt', [{ range: range(0, 5, 5), newText: '!' }])],
  })
  expect(read('a.txt')).toBe('ALPHA beta\n')
  expect(read('b.txt')).toBe('gamma!\n')
  expect(result.files.find((f) => f.path === file('a.txt'))).toMatchObject({
    hashBefore: contentHash('alpha beta\n'),
    hashAfter: contentHash('ALPHA beta\n'),
    editCount: 1,
    saved: true,
  })
})

test('a stale expected hash writes nothing (STALE_VERSION)', async () => {
  const ws = await host.openWorkspace(root)
  const change: LspWorkspaceEdit = {
    operations: [edit('a.txt', [{ range: range(0, 0, 5), newText: 'X' }]), edit('b.txt', [{ range: range(0, 0, 5), newText: 'Y' }])],
  }
  await expect(
    ws.applyEdit(change, { expectedHashes: { 'a.txt': contentHash('alpha beta\n'), 'b.txt': contentHash('something else') } }),
  ).rejects.toMatchObject({ code: 'STALE_VERSION' })
  expect(read('a.txt')).toBe('alpha beta\n')
  expect(read('b.txt')).toBe('gamma\n')
})

test('two edits of one file in one change, with its expected hash: the hash is of the file before the change', async () => {
  const ws = await host.openWorkspace(root)
  const result = await ws.applyEdit(
    {
      operations: [
        edit('a.txt', [{ range: range(0, 0, 5), newText: 'ALPHA' }]),
        edit('a.txt', [{ range: range(0, 6, 10), newText: 'BETA' }]),
      ],
    },
    { expectedHashes: { 'a.txt': contentHash('alpha beta\n') } },
  )
  expect(read('a.txt')).toBe('ALPHA BETA\n')
  expect(result.files).toEqual([
    expect.objectContaining({ hashBefore: contentHash('alpha beta\n'), hashAfter: contentHash('ALPHA BETA\n'), editCount: 2 }),
  ])
})

test('a failure part-way rolls back the files already written', async () => {
  const ws = await host.openWorkspace(root)
  const change: LspWorkspaceEdit = {
    operations: [
      edit('a.txt', [{ range: range(0, 0, 5), newText: 'CHANGED' }]),
      { type: 'create', uri: pathToUri(file('new.txt')), path: file('new.txt') },
      edit('missing.txt', [{ range: range(0, 0, 0), newText: 'x' }]),
    ],
  }
  await expect(ws.applyEdit(change)).rejects.toMatchObject({ message: expect.stringContaining('restored') })
  expect(read('a.txt')).toBe('alpha beta\n')
  expect(existsSync(file('new.txt'))).toBe(false)
})

test('create, rename and delete honour their options', async () => {
  const ws = await host.openWorkspace(root)
  await expect(
    ws.applyEdit({ operations: [{ type: 'create', uri: pathToUri(file('a.txt')), path: file('a.txt') }] }),
  ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  await ws.applyEdit({
    operations: [{ type: 'create', uri: pathToUri(file('a.txt')), path: file('a.txt'), options: { ignoreIfExists: true } }],
  })
  expect(read('a.txt')).toBe('alpha beta\n')
  await expect(
    ws.applyEdit({
      operations: [
        {
          type: 'rename',
          oldUri: pathToUri(file('a.txt')),
          oldPath: file('a.txt'),
          newUri: pathToUri(file('b.txt')),
          newPath: file('b.txt'),
        },
      ],
    }),
  ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  const result = await ws.applyEdit({
    operations: [
      {
        type: 'rename',
        oldUri: pathToUri(file('a.txt')),
        oldPath: file('a.txt'),
        newUri: pathToUri(file('b.txt')),
        newPath: file('b.txt'),
        options: { overwrite: true },
      },
      { type: 'delete', uri: pathToUri(file('dir')), path: file('dir') },
      { type: 'delete', uri: pathToUri(file('gone.txt')), path: file('gone.txt'), options: { ignoreIfNotExists: true } },
    ],
  })
  expect(read('b.txt')).toBe('alpha beta\n')
  expect(existsSync(file('a.txt'))).toBe(false)
  expect(existsSync(file('dir'))).toBe(false)
  expect(result.resourceOperations.map((o) => o.type)).toEqual(['rename', 'delete'])
})

test('nothing outside the root is read or written', async () => {
  const ws = await host.openWorkspace(root)
  await expect(ws.readFile('../outside.txt')).rejects.toMatchObject({ code: 'OUTSIDE_WORKSPACE' })
  expect(await ws.exists('../outside.txt')).toBe(false)
  const outside = nodePath.join(base, 'outside.txt')
  await expect(
    ws.applyEdit({
      operations: [
        edit('a.txt', [{ range: range(0, 0, 1), newText: 'Z' }]),
        { type: 'edit', uri: pathToUri(outside), path: outside, version: null, edits: [{ range: range(0, 0, 1), newText: 'Z' }] },
      ],
    }),
  ).rejects.toMatchObject({ code: 'OUTSIDE_WORKSPACE' })
  expect(read('a.txt')).toBe('alpha beta\n')
  expect(readFileSync(outside, 'utf8')).toBe('outside\n')
})

test('reads give the text and its hash; a missing file is NOT_FOUND', async () => {
  const ws = await host.openWorkspace(root, { id: 'mine' })
  expect(ws.id).toBe('mine')
  const snapshot = await ws.readFile('a.txt')
  expect(snapshot).toMatchObject({ path: file('a.txt'), text: 'alpha beta\n', hash: contentHash('alpha beta\n') })
  await expect(ws.readFile('nope.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' })
})

test('an edited executable script stays executable, and a hard-linked file stays linked', async () => {
  writeFileSync(file('run.sh'), '#!/bin/sh\necho old\n')
  chmodSync(file('run.sh'), 0o755)
  linkSync(file('b.txt'), nodePath.join(root, 'dir', 'b-link.txt'))
  const ws = await host.openWorkspace(root)
  await ws.applyEdit({
    operations: [edit('run.sh', [{ range: range(1, 5, 8), newText: 'new' }]), edit('b.txt', [{ range: range(0, 0, 5), newText: 'delta' }])],
  })
  expect(read('run.sh')).toBe('#!/bin/sh\necho new\n')
  expect(statSync(file('run.sh')).mode & 0o777).toBe(0o755)
  expect(readFileSync(nodePath.join(root, 'dir', 'b-link.txt'), 'utf8')).toBe('delta\n')
  expect(statSync(file('b.txt')).nlink).toBe(2)
})
