// DiskWatch against real folders: what it announces, and what it keeps open.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, unlinkSync, watch, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, expect, test } from 'vitest'
import { FileChangeType } from 'vscode-languageserver-protocol/node'
import { pathToUri } from '@codeseam/lsp'

import { DiskWatch } from '../src/workspace/disk-watch.js'
import { withDeadline } from './fault-server/harness.js'

const base = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-disk-watch-')))
afterAll(() => rmSync(base, { recursive: true, force: true }))

/**
 * Kernel watches this process holds (inotify `wd:` lines in /proc/self/fdinfo), counted after one event-loop
 * turn: a closed watcher's handle goes away on the next turn.
 */
async function openWatches(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve))
  let count = 0
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      count += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('inotify wd:')).length
    } catch {
      // an fd closed while we read
    }
  }
  return count
}

/**
 * Runs `change` and resolves once a watcher of our own on `dir` saw `name` change. Node shares one kernel
 * watch per folder and calls its listeners in the order they were added, so DiskWatch (added first) has
 * seen the change by then.
 */
async function seen(dir: string, name: string, change: () => void): Promise<void> {
  const watcher = watch(dir)
  try {
    const event = new Promise<void>((resolve) => watcher.on('change', (_type, changed) => String(changed) === name && resolve()))
    change()
    await withDeadline(event, 30_000, `a change of ${name}`)
  } finally {
    watcher.close()
  }
}

test('a file created and deleted again before the next take() is not announced at all', async () => {
  const root = nodePath.join(base, 'created-deleted')
  mkdirSync(root)
  writeFileSync(nodePath.join(root, 'kept.fault'), 'kept\n')
  const disk = await DiskWatch.start([root], new Set(['.fault']))
  try {
    expect(await disk.take()).toEqual([])
    const brief = nodePath.join(root, 'brief.fault')
    await seen(root, 'brief.fault', () => writeFileSync(brief, 'brief\n'))
    await seen(root, 'brief.fault', () => unlinkSync(brief))
    const kept = nodePath.join(root, 'kept.fault')
    await seen(root, 'kept.fault', () => unlinkSync(kept))
    // The known file's deletion is still announced.
    expect(await disk.take()).toEqual([{ uri: pathToUri(kept), type: FileChangeType.Deleted }])
  } finally {
    disk.close()
  }
})

test('a tree over maxFolders is marked incomplete and leaves no watcher open', async () => {
  const root = nodePath.join(base, 'many-folders')
  for (let index = 0; index < 6; index++) mkdirSync(nodePath.join(root, `folder-${index}`), { recursive: true })
  const before = await openWatches()
  const disk = await DiskWatch.start([root], new Set(['.fault']), 3)
  try {
    expect(disk.complete).toBe(false)
    expect(await openWatches()).toBe(before)
  } finally {
    disk.close()
  }
})
