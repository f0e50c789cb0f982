import { readFile, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { afterAll, expect, test } from 'vitest'
import type { LspProviderStatus } from '@codeseam/lsp'

import { createLocalHost, type HostOptions, type LocalHost } from '../src/index.js'
import { LeakCheck, copyFixture, descendantPids, positionOf } from './helpers.js'

const leaks = new LeakCheck()
const hosts: LocalHost[] = []
const copies: Array<{ remove: () => void }> = []
afterAll(async () => {
  await leaks.record()
  await Promise.all(hosts.map((h) => h.dispose()))
  for (const copy of copies) copy.remove()
  expect(await leaks.survivors()).toEqual([])
})

async function setup(options: HostOptions = {}) {
  const copy = copyFixture('ts-basic')
  copies.push(copy)
  const host = await createLocalHost(options)
  hosts.push(host)
  const workspace = await host.openWorkspace(copy.root, { trust: 'trusted' })
  const provider = host.providers.find((p) => p.id === 'local:typescript')
  if (provider === undefined) throw new Error('no typescript provider')
  const root = workspace.root
  const definition = (signal = new AbortController().signal) =>
    provider.query(
      {
        operation: 'definition',
        root,
        path: nodePath.join(root, 'src/main.ts'),
        position: positionOf(root, 'src/main.ts', 'totalArea(shapes'),
        languageId: 'typescript',
      },
      signal,
    )
  return { host, provider, root, definition }
}

async function serverProcesses(): Promise<number[]> {
  const pids: number[] = []
  for (const pid of await descendantPids()) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
    if (cmdline.includes('--lsp')) pids.push(pid)
  }
  return pids
}

test('concurrent first queries share one server start', async () => {
  const { definition } = await setup()
  const before = await serverProcesses()
  const results = await Promise.all(Array.from({ length: 6 }, () => definition()))
  for (const r of results) expect(r.locations.length).toBe(1)
  await leaks.record()
  const started = (await serverProcesses()).filter((pid) => !before.includes(pid))
  expect(started.length).toBe(1)
})

test('a file changed on disk is re-synced before the next query; results carry the version they used', async () => {
  const { provider, root } = await setup()
  const main = nodePath.join(root, 'src/main.ts')
  const hover = () =>
    provider.query(
      { operation: 'hover', root, path: main, position: positionOf(root, 'src/main.ts', 'total ='), languageId: 'typescript' },
      new AbortController().signal,
    )
  const first = await hover()
  expect(first.hover?.contents).toContain('number')
  expect(first.meta.documentVersion).toBe(1)
  await writeFile(
    main,
    (await readFile(main, 'utf8')).replace('const total = totalArea(shapes, 1)', 'const total = String(totalArea(shapes, 1))'),
  )
  const second = await hover()
  expect(second.hover?.contents).toContain('string')
  expect(second.meta.documentVersion).toBe(2)
  expect(second.meta.contentHash).not.toBe(first.meta.contentHash)
})

test('status reports state, negotiated operations, uptime and the RSS of the process tree', async () => {
  const { host, definition } = await setup()
  await definition()
  const [status] = await host.statusWithMemory()
  expect(status).toMatchObject({ providerId: 'local:typescript', server: 'typescript', state: 'ready', restarts: 0 })
  expect(status?.operations).toEqual(expect.arrayContaining(['definition', 'references', 'rename']))
  expect(status?.rssBytes).toBeGreaterThan(1_000_000)
  expect(status?.uptimeMs).toBeGreaterThanOrEqual(0)
})

test('an idle server is reclaimed after the TTL and starts again on the next query', async () => {
  const { provider, definition } = await setup({ idleTtlMs: 1500 })
  const before = await serverProcesses()
  await definition()
  const mine = (await serverProcesses()).filter((pid) => !before.includes(pid))
  expect(mine.length).toBe(1)
  await leaks.record()
  const idle = new Promise<LspProviderStatus>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server was not reclaimed within 30 s')), 30_000)
    const off = provider.onStatusChange!((status) => {
      if (status.state === 'idle') {
        clearTimeout(timer)
        off()
        resolve(status)
      }
    })
  })
  expect((await idle).state).toBe('idle')
  const alive = await serverProcesses()
  expect(mine.filter((pid) => alive.includes(pid))).toEqual([])
  const again = await definition()
  expect(again.locations.length).toBe(1)
  await leaks.record()
})

test('a deadline that passes is TIMEOUT and an abort is CANCELLED, never an empty answer', async () => {
  const { definition } = await setup({ requestTimeoutMs: 1 })
  await expect(definition()).rejects.toMatchObject({ code: 'TIMEOUT' })
  const slow = await setup()
  const controller = new AbortController()
  const pending = slow.definition(controller.signal)
  controller.abort()
  await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' })
  await leaks.record()
})

test('dispose is idempotent and stops every server; afterwards queries fail with DISPOSED', async () => {
  const { host, definition } = await setup()
  await definition()
  await leaks.record()
  await Promise.all([host.dispose(), host.dispose()])
  await host.dispose()
  await expect(definition()).rejects.toMatchObject({ code: 'DISPOSED' })
})

test('files created, changed or deleted by someone else are announced before whole-workspace queries', async () => {
  const { provider, root } = await setup()
  const shapes = nodePath.join(root, 'src/shapes.ts')
  const references = async () =>
    (
      await provider.query(
        {
          operation: 'references',
          root,
          path: shapes,
          position: positionOf(root, 'src/shapes.ts', 'totalArea(shapes: R'),
          languageId: 'typescript',
        },
        new AbortController().signal,
      )
    ).locations.map((l) => nodePath.relative(root, l.path))
  expect(await references()).not.toContain('src/extra.ts')
  // An agent's own file tool writes a new caller, then asks at once.
  await writeFile(nodePath.join(root, 'src/extra.ts'), "import { totalArea } from './shapes'\nexport const extra = totalArea([], 2)\n")
  expect(await references()).toContain('src/extra.ts')
  await leaks.record()
})
