import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterEach, expect, test } from 'vitest'

import { findStoredIndex, keptEntriesPerRoot, pruneStoredIndexes, rootPrefix, type IndexSidecar } from '../src/index.js'

// Store pruning on a real folder: entries are folders with an index and a sidecar, as `codeseam index` writes them.

const folders: string[] = []
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true })
})

/** Writes an entry of `root` built at `indexedAt` (the index's bytes do not matter here). */
async function entry(store: string, root: string, name: string, indexedAt: string): Promise<string> {
  const directory = nodePath.join(store, `${rootPrefix(root)}-scip-typescript-0.4.0-${name}`)
  await mkdir(directory)
  await writeFile(nodePath.join(directory, 'index.scip'), '')
  const sidecar: IndexSidecar = {
    format: 1,
    root,
    key: nodePath.basename(directory),
    indexer: { name: 'scip-typescript', version: '0.4.0' },
    variant: [],
    indexedAt,
    indexMs: 1,
    contentDigest: name,
    documents: {},
  }
  await writeFile(nodePath.join(directory, 'sidecar.json'), JSON.stringify(sidecar))
  return directory
}

test('the newest entries of a root are kept, older ones removed; other roots and folders being written stay', async () => {
  const store = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-prune-'))
  folders.push(store)
  const root = '/abs/project'
  const other = '/abs/other'
  const written: string[] = []
  for (let day = 1; day <= keptEntriesPerRoot + 2; day++) {
    written.push(await entry(store, root, `000000000000000${day}`, `2026-12-0${day}T10:00:00.000Z`))
  }
  const otherEntry = await entry(store, other, '0000000000000001', '2026-11-01T10:00:00.000Z')
  const building = nodePath.join(store, `${nodePath.basename(written[0] ?? '')}.tmp-abc`)
  await mkdir(building)

  const removed = await pruneStoredIndexes(root, { store })
  // The two oldest go; the newest `keptEntriesPerRoot` stay.
  expect(removed.sort()).toEqual(written.slice(0, 2).sort())
  const left = (await readdir(store)).map((name) => nodePath.join(store, name)).sort()
  expect(left).toEqual([...written.slice(2), otherEntry, building].sort())
  expect((await findStoredIndex(root, { store }))?.directory).toBe(written.at(-1))

  // `except` keeps an entry beyond the newest ones (the one just written, whatever its date).
  const removedAgain = await pruneStoredIndexes(root, { store, keep: 1, except: written[2] ?? '' })
  expect(removedAgain).toEqual([written[3]])
  expect(await pruneStoredIndexes(other, { store, keep: 0 })).toEqual([otherEntry])
})
