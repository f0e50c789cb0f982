import { expect, test } from 'vitest'
import { formatConformanceReport, runConformance, typeScriptFixture } from '@codeseam/lsp/testing'
import { lspOperations } from '@codeseam/lsp'

import { createIndexProvider, indexOperations, readScipIndex } from '../src/index.js'
import { indexWorkspace } from './indexer.js'

test('the seam conformance kit passes on the TypeScript fixture, answered from a scip-typescript index', { timeout: 180_000 }, async () => {
  const report = await runConformance({
    fixture: typeScriptFixture,
    setup: async (root) => {
      const built = await indexWorkspace(root)
      const provider = createIndexProvider({ index: await readScipIndex(built.path), root })
      return { provider, dispose: built.dispose }
    },
  })
  const text = formatConformanceReport(report)
  console.log(text)
  expect(
    report.checks.filter((c) => c.status === 'failed'),
    text,
  ).toEqual([])
  // Every operation the index claims is checked and passes; every other one is skipped as not claimed.
  const claimed = new Set<string>(indexOperations)
  for (const check of report.checks.filter((c) => c.operation !== undefined)) {
    if (claimed.has(check.operation ?? '')) expect(check.status, `${check.name}: ${check.message}`).toBe('passed')
    else expect(check.message, check.name).toMatch(/provider does not claim/)
  }
  const passed = new Set(report.checks.filter((c) => c.status === 'passed').map((c) => c.operation))
  expect([...claimed].filter((o) => !passed.has(o as never))).toEqual([])
  expect(lspOperations.filter((o) => !claimed.has(o)).length).toBe(lspOperations.length - indexOperations.length)
})
