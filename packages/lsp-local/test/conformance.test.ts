import { afterAll, expect, test } from 'vitest'
import { formatConformanceReport, runConformance } from '@codeseam/lsp/testing'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { LeakCheck } from './helpers.js'

const hosts: LocalHost[] = []
const leaks = new LeakCheck()
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.dispose()))
  expect(await leaks.survivors()).toEqual([])
})

test('the seam conformance kit passes with the default TypeScript profile', async () => {
  const report = await runConformance({
    setup: async (root) => {
      const host = await createLocalHost()
      hosts.push(host)
      const workspace = await host.openWorkspace(root, { trust: 'trusted' })
      const provider = host.providers.find((p) => p.id === 'local:typescript')
      if (provider === undefined) throw new Error('no typescript provider')
      return {
        provider,
        workspace,
        dispose: async () => {
          await leaks.record()
          await host.dispose()
        },
      }
    },
  })
  console.log(formatConformanceReport(report))
  expect(report.checks.filter((c) => c.status === 'failed')).toEqual([])
  expect(report.passed).toBe(true)
})
