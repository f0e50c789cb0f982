import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterEach, expect, test } from 'vitest'

import { DiskState } from '../src/disk-state.js'
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
