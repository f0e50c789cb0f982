import { readFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { afterAll, expect, test, vi } from 'vitest'
import type { LspProviderStatus } from '@codeseam/lsp'

import { createLocalHost, type HostOptions, type LocalHost } from '../src/index.js'
import { LeakCheck, copyFixture, descendantPids, positionOf } from './helpers.js'

// Real memory in status (issue 51, RFC 0030): each running server's process tree sampled off the question's path,
// the sample and its time in the synchronous status, the per-server ceiling beside it; the native TypeScript server.

const MiB = 1024 ** 2
const leaks = new LeakCheck()
const hosts: LocalHost[] = []
const copies: Array<{ remove: () => void }> = []
afterAll(async () => {
  await leaks.record()
  await Promise.all(hosts.map((h) => h.dispose()))
  for (const copy of copies) copy.remove()
  expect(await leaks.survivors()).toEqual([])
})

async function setup(options: HostOptions) {
  const copy = copyFixture('ts-basic')
  copies.push(copy)
  const host = await createLocalHost(options)
  hosts.push(host)
  const workspace = await host.openWorkspace(copy.root, { trust: 'trusted' })
  const provider = host.providers.find((p) => p.id === 'local:typescript')
  if (provider === undefined) throw new Error('no typescript provider')
  const root = workspace.root
  const definition = () =>
    provider.query(
      {
        operation: 'definition',
        root,
        path: nodePath.join(root, 'src/main.ts'),
        position: positionOf(root, 'src/main.ts', 'totalArea(shapes'),
        languageId: 'typescript',
      },
      new AbortController().signal,
    )
  const typescript = (): LspProviderStatus | undefined => host.status().find((s) => s.server === 'typescript' && s.root === root)
  return { host, provider, definition, typescript }
}

/** Language servers (`--lsp` on their command line) under this test process. */
async function serverPids(): Promise<number[]> {
  const pids: number[] = []
  for (const pid of await descendantPids()) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
    if (cmdline.includes('--lsp')) pids.push(pid)
  }
  return pids
}

/** VmRSS of one process, bytes, read here (not through the host's code). */
async function vmRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024
}

test("a running server's status carries its process tree's resident memory: a sample, when it was taken, and the per-server ceiling", async () => {
  const ceiling = 2048 * MiB
  const { definition, typescript } = await setup({ limits: { memoryCheckIntervalMs: 100, maxServerMemoryBytes: ceiling } })
  expect(typescript()).toBeUndefined() // nothing started, nothing sampled: no figure at all
  const before = await serverPids()
  expect((await definition()).locations).toHaveLength(1)
  const answered = Date.now()
  const [pid] = (await serverPids()).filter((p) => !before.includes(p))
  if (pid === undefined) throw new Error('no TypeScript server process started')
  // The synchronous status shows the last periodic sample: wait for one taken after the answer.
  const status = await vi.waitFor(
    () => {
      const now = typescript()
      expect(now?.rssSampledAt).toBeGreaterThanOrEqual(answered)
      return now as LspProviderStatus
    },
    { timeout: 20_000, interval: 50 },
  )
  // The tree as this test reads it from /proc itself: the server and every descendant.
  const tree = [pid, ...(await descendantPids(pid))]
  const mine = (await Promise.all(tree.map(vmRss))).reduce((sum, rss) => sum + rss, 0)
  const rss = status.rssBytes ?? 0
  expect(rss).toBeGreaterThan(10 * MiB)
  expect(rss).toBeGreaterThanOrEqual((await vmRss(pid)) * 0.8) // at least the server process itself
  expect(Math.abs(rss - mine) / mine).toBeLessThan(0.25) // an idle server's tree, read a moment apart
  expect(status.rssSampledAt).toBeLessThanOrEqual(Date.now())
  expect(status.memoryCeilingBytes).toBe(ceiling)
  expect(status.state).toBe('ready')
})

test('without a ceiling the memory is still sampled; a stopped server shows no figure, never a 0', async () => {
  const { provider, definition, typescript } = await setup({
    limits: { memoryCheckIntervalMs: 100, maxServerMemoryBytes: 0 },
    idleTtlMs: 1500,
  })
  const idle = new Promise<void>((resolve) => {
    const off = provider.onStatusChange!((status) => {
      if (status.state === 'idle') {
        off()
        resolve()
      }
    })
  })
  await definition()
  const sampled = await vi.waitFor(
    () => {
      const now = typescript()
      expect(now?.rssBytes).toBeGreaterThan(10 * MiB)
      return now as LspProviderStatus
    },
    { timeout: 20_000, interval: 50 },
  )
  expect(sampled.memoryCeilingBytes).toBeUndefined()
  await idle // reclaimed after the idle TTL
  const after = typescript()
  expect(after?.state).toBe('idle')
  expect(after).not.toHaveProperty('rssBytes')
  expect(after).not.toHaveProperty('rssSampledAt')
  await leaks.record()
})
