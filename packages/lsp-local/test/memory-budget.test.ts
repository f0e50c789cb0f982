import * as nodePath from 'node:path'

import { afterAll, expect, test, vi } from 'vitest'
import type { LspProviderStatus } from '@codeseam/lsp'

import { createLocalHost, type HostOptions, type LocalHost } from '../src/index.js'
import { LeakCheck, copyFixture, positionOf } from './helpers.js'

// One memory budget for every server of a host (issue 51 item 3, RFC 0033): two native TypeScript servers on two
// roots under a budget that holds one of them; the idle one stops, and its next answer says so.

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

async function hostWith(options: HostOptions) {
  const host = await createLocalHost(options)
  hosts.push(host)
  const provider = host.providers.find((p) => p.id === 'local:typescript')
  if (provider === undefined) throw new Error('no typescript provider')
  const open = async () => {
    const copy = copyFixture('ts-basic')
    copies.push(copy)
    const { root } = await host.openWorkspace(copy.root, { trust: 'trusted' })
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
    const status = (): LspProviderStatus | undefined => host.status().find((s) => s.server === 'typescript' && s.root === root)
    return { root, definition, status }
  }
  return { host, open }
}

/** The resident memory of a server that answered once, sampled after its answer. */
async function sampledAfterAnswer(root: Awaited<ReturnType<Awaited<ReturnType<typeof hostWith>>['open']>>): Promise<number> {
  expect((await root.definition()).locations).toHaveLength(1)
  const answered = Date.now()
  return vi.waitFor(
    () => {
      const now = root.status()
      expect(now?.rssSampledAt).toBeGreaterThanOrEqual(answered)
      return now?.rssBytes ?? 0
    },
    { timeout: 20_000, interval: 50 },
  )
}

// Only the budget limits these servers: no per-server ceiling, no heap cap derived from a budget this small.
const limits = { memoryCheckIntervalMs: 100, maxServerMemoryBytes: 0, nodeHeapMb: 0 }

test('two servers over a budget that holds one: the idle one stops, and its next answer is degraded, never empty', async () => {
  // One server's memory once it answered, measured on this machine without a budget.
  const measuring = await hostWith({ limits: { ...limits, memoryBudgetBytes: 0 } })
  const one = await sampledAfterAnswer(await measuring.open())
  expect(one).toBeGreaterThan(10 * MiB)
  await measuring.host.dispose()

  // Just above one server, well below two.
  const budget = Math.round(one * 1.5)
  const { open } = await hostWith({ limits: { ...limits, memoryBudgetBytes: budget } })
  const first = await open()
  const second = await open()
  await sampledAfterAnswer(first)
  // Alone, the first server fits: it runs on, counted against the budget.
  expect(first.status()?.state).toBe('ready')
  expect(first.status()?.memoryBudget).toMatchObject({ budgetBytes: budget, servers: 1 })

  await sampledAfterAnswer(second)
  // The second server's samples push the total over: the first, idle and least recently used, is stopped, saying why.
  const stopped = await vi.waitFor(
    () => {
      const now = first.status()
      expect(now?.state).toBe('idle')
      expect(now?.reason).toMatch(/^stopped: the \d+ MB memory budget was exceeded \(\d+ MB across 2 servers/)
      return now as LspProviderStatus
    },
    { timeout: 20_000, interval: 50 },
  )
  expect(stopped).not.toHaveProperty('rssBytes')
  expect(second.status()?.state).toBe('ready') // the one in use runs on

  // The next answer on the stopped root: its server starts again, answers in full, and the answer says it is degraded.
  const again = await first.definition()
  expect(again.locations).toHaveLength(1)
  expect(again.meta.status).toBe('degraded')
  // Said once: the reason was taken by that answer.
  expect(first.status()?.reason ?? '').not.toMatch(/memory budget/)
})
