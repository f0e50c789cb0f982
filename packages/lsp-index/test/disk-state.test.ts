import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterEach, expect, test } from 'vitest'

import { DiskState, diskHashesFile } from '../src/disk-state.js'
import { sha256, type IndexSidecar } from '../src/store.js'

// What the disk holds against a sidecar (RFC 0034): a file there at index time that no indexed project held
// (the sidecar's `unindexed`) is not new since — it is neither answered from the index nor counted stale — until
// it changes; a file the sidecar never saw is added.

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-disk-state-'))
  roots.push(root)
  for (const [relative, text] of Object.entries(files)) writeFileSync(nodePath.join(root, relative), text)
  return root
}

function sidecarOf(root: string, documents: Record<string, string>, unindexed?: Record<string, string>): IndexSidecar {
  const hashes = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([path, text]) => [path, sha256(text)]))
  return {
    format: 1,
    root,
    key: 'k',
    indexer: { name: 'scip-typescript', version: '0.4.0' },
    variant: [],
    indexedAt: '2026-12-06T20:00:00.000Z',
    indexMs: 1,
    contentDigest: 'd',
    documents: hashes(documents),
    ...(unindexed === undefined ? {} : { unindexed: hashes(unindexed) }),
  }
}

const extensions = new Set(['.ts', '.json'])

test('a file no indexed project held is notIndexed while unchanged, added once it changes; a new file is added', async () => {
  const files = { 'a.ts': 'export const a = 1\n', 'loose.ts': 'export const loose = 2\n', 'package.json': '{}\n' }
  const root = workspace(files)
  const disk = new DiskState(
    root,
    sidecarOf(root, { 'a.ts': files['a.ts'] }, { 'loose.ts': files['loose.ts'], 'package.json': '{}\n' }),
    extensions,
  )

  expect(await disk.view()).toEqual({
    changed: new Set(),
    missing: new Set(),
    added: new Set(),
    notIndexed: new Set(['loose.ts', 'package.json']),
  })
  expect(await disk.fileState('loose.ts')).toBe('notIndexed')
  expect(await disk.fileState('loose.ts', sha256(files['loose.ts']))).toBe('notIndexed')
  expect(await disk.fileState('a.ts')).toBe('unchanged')

  writeFileSync(nodePath.join(root, 'loose.ts'), 'export const loose = 3\n')
  writeFileSync(nodePath.join(root, 'new.ts'), 'export const created = 4\n')
  unlinkSync(nodePath.join(root, 'a.ts'))
  expect(await disk.view()).toEqual({
    changed: new Set(),
    missing: new Set(['a.ts']),
    added: new Set(['loose.ts', 'new.ts']),
    notIndexed: new Set(['package.json']),
  })
})

test('a sidecar without `unindexed` (written before it existed) counts every file the index does not hold as added', async () => {
  const files = { 'a.ts': 'export const a = 1\n', 'loose.ts': 'export const loose = 2\n' }
  const root = workspace(files)
  const disk = new DiskState(root, sidecarOf(root, { 'a.ts': files['a.ts'] }), extensions)
  expect(await disk.view()).toEqual({ changed: new Set(), missing: new Set(), added: new Set(['loose.ts']), notIndexed: new Set() })
})

test('a view taken since a moment is reused for a question of that moment; one taken before it is not', async () => {
  const files = { 'a.ts': 'export const a = 1\n' }
  const root = workspace(files)
  const disk = new DiskState(root, sidecarOf(root, files), extensions)
  const asked = performance.now()
  const view = disk.view()
  expect(await disk.view(asked)).toBe(await view)
  expect((await view).changed).toEqual(new Set())

  writeFileSync(nodePath.join(root, 'a.ts'), 'export const a = 2\n')
  const later = performance.now()
  // The view above began before the change: a question asked since gets a new one, which sees it.
  expect((await disk.view(later)).changed).toEqual(new Set(['a.ts']))
  const [one, two] = await Promise.all([disk.view(), disk.view()])
  expect(one).not.toBe(two)
})

test('hashes kept beside the index are used while a file keeps its stat key; a file written since is read again', async () => {
  const files = { 'a.ts': 'export const a = 1\n', 'b.ts': 'export const b = 1\n' }
  const root = workspace(files)
  const entry = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-disk-hashes-'))
  roots.push(entry)
  const hashesFile = nodePath.join(entry, diskHashesFile)
  // Read just after being written: not kept (written again within the file system's timestamp granularity, a file
  // can keep its stat key with other bytes).
  const fresh = new DiskState(root, sidecarOf(root, files), extensions, { hashesFile })
  await fresh.view()
  await fresh.saveHashes()
  expect(JSON.parse(readFileSync(hashesFile, 'utf8'))).toEqual({ format: 1, root, hashes: {} })
  // Read an hour later (the clock the state is given): kept.
  const hourLater = () => Date.now() + 3_600_000
  const first = new DiskState(root, sidecarOf(root, files), extensions, { hashesFile, now: hourLater })
  await first.view()
  await first.saveHashes()
  const kept = JSON.parse(readFileSync(hashesFile, 'utf8')) as { root: string; hashes: Record<string, [string, string]> }
  expect(kept.root).toBe(root)
  expect(Object.keys(kept.hashes).sort()).toEqual(['a.ts', 'b.ts'])

  // A kept hash is what the next process believes for an unchanged stat key: a forged one shows it was used.
  const [key] = kept.hashes['a.ts'] ?? ['']
  writeFileSync(hashesFile, JSON.stringify({ ...kept, hashes: { 'a.ts': [key, sha256('something else')] } }))
  const second = new DiskState(root, sidecarOf(root, files), extensions, { hashesFile })
  await second.loadHashes()
  expect(await second.fileState('a.ts')).toBe('changed')

  // Written again (same bytes): its stat key changed, so it is read and hashed anew.
  writeFileSync(nodePath.join(root, 'a.ts'), files['a.ts'])
  expect(await second.fileState('a.ts')).toBe('unchanged')

  // Another root's file, or a malformed one, adds nothing.
  writeFileSync(hashesFile, JSON.stringify({ ...kept, root: '/elsewhere', hashes: { 'b.ts': [key, sha256('x')] } }))
  const third = new DiskState(root, sidecarOf(root, files), extensions, { hashesFile })
  await third.loadHashes()
  expect(await third.fileState('b.ts')).toBe('unchanged')
  writeFileSync(hashesFile, '{ not json')
  await third.loadHashes()
  expect(existsSync(hashesFile)).toBe(true)
})

test('the mark moves with every write that changes what the disk holds against the index, and only then', async () => {
  const files = { 'a.ts': 'export const a = 1\n', 'b.ts': 'export const b = 1\n' }
  const root = workspace(files)
  const disk = new DiskState(root, sidecarOf(root, files), extensions)
  const at = async () => disk.mark()
  const indexed = await at()
  expect(await at()).toBe(indexed)
  // Each write below changes the file's size too: a write within the file system's timestamp granularity that kept
  // size and times would keep its stat key (the hash cache's known limit, see `settledMs`).
  const seen = new Set([indexed])
  const step = async (change: () => void) => {
    change()
    const mark = await at()
    expect(seen.has(mark)).toBe(false)
    seen.add(mark)
    return mark
  }
  const changed = await step(() => writeFileSync(nodePath.join(root, 'a.ts'), 'export const a = 22\n'))
  // Changed again: still `changed`, but the content differs, so an answer computed before may too.
  await step(() => writeFileSync(nodePath.join(root, 'a.ts'), 'export const a = 333\n'))
  await step(() => writeFileSync(nodePath.join(root, 'c.ts'), 'export const c = 1\n'))
  await step(() => unlinkSync(nodePath.join(root, 'b.ts')))
  // Back to the indexed content and files: the mark the indexed tree has.
  writeFileSync(nodePath.join(root, 'a.ts'), files['a.ts'])
  writeFileSync(nodePath.join(root, 'b.ts'), files['b.ts'])
  unlinkSync(nodePath.join(root, 'c.ts'))
  expect(await at()).toBe(indexed)
  writeFileSync(nodePath.join(root, 'a.ts'), 'export const a = 22\n')
  expect(await at()).toBe(changed)
})
