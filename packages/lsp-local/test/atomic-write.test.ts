// writeAtomically with the stat of the file as it was read: another writer's change, or a swap for a
// symbolic link, between the read and the write is not overwritten (STALE_VERSION, nothing written).
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, expect, test } from 'vitest'

import { writeAtomically } from '../src/workspace/atomic-write.js'

const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-atomic-')))
afterAll(() => rmSync(root, { recursive: true, force: true }))

test('an unchanged file is replaced', async () => {
  const path = nodePath.join(root, 'same.ts')
  writeFileSync(path, 'old\n')
  await writeAtomically(path, 'new\n', lstatSync(path))
  expect(readFileSync(path, 'utf8')).toBe('new\n')
})

test("another writer's change since the read is kept: STALE_VERSION, nothing written", async () => {
  const path = nodePath.join(root, 'changed.ts')
  writeFileSync(path, 'old\n')
  const read = lstatSync(path)
  writeFileSync(path, 'theirs, longer\n')
  await expect(writeAtomically(path, 'ours\n', read)).rejects.toMatchObject({ code: 'STALE_VERSION', data: { path } })
  expect(readFileSync(path, 'utf8')).toBe('theirs, longer\n')
})

test('a file swapped for a symbolic link since the read stays a link: STALE_VERSION', async () => {
  const path = nodePath.join(root, 'swapped.ts')
  const other = nodePath.join(root, 'other.ts')
  writeFileSync(path, 'old\n')
  writeFileSync(other, 'other\n')
  const read = lstatSync(path)
  renameSync(path, nodePath.join(root, 'swapped.aside'))
  symlinkSync('./other.ts', path)
  await expect(writeAtomically(path, 'ours\n', read)).rejects.toMatchObject({
    code: 'STALE_VERSION',
    message: expect.stringContaining('replaced by a symbolic link'),
  })
  expect(lstatSync(path).isSymbolicLink()).toBe(true)
  expect(readlinkSync(path)).toBe('./other.ts')
  expect(readFileSync(other, 'utf8')).toBe('other\n')
})

test('a file replaced by another file (new inode) since the read: STALE_VERSION', async () => {
  const path = nodePath.join(root, 'replaced.ts')
  writeFileSync(path, 'old\n')
  const read = lstatSync(path)
  writeFileSync(`${path}.new`, 'old\n')
  renameSync(`${path}.new`, path)
  await expect(writeAtomically(path, 'ours\n', read)).rejects.toMatchObject({ code: 'STALE_VERSION' })
  expect(readFileSync(path, 'utf8')).toBe('old\n')
})
