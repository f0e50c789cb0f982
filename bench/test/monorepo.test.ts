import { expect, test } from 'vitest'

import { monorepoTables } from '../src/monorepo-table.js'
import type { BenchReport } from '../src/report.js'
import { monorepoSymbols } from '../src/scenarios/monorepo-first-answer.js'

test('the large-monorepo table: each symbol with the projects searched first, both sides and the ratio', () => {
  const report = {
    monorepoFirstAnswer: {
      corpus: 'tanstack-query',
      linkedPackages: 120,
      sourceFiles: 955,
      projects: 102,
      target: 1.3,
      symbols: [
        {
          symbol: 'createSyncStoragePersister',
          path: monorepoSymbols[0]!.path,
          expected: 5,
          bare: { runs: 3, complete: 3, medianMs: 4000 },
          codeseam: { runs: 3, complete: 3, medianMs: 2000 },
          ratio: 0.5,
          projectsSearched: 2,
        },
        {
          symbol: 'QueryClient',
          path: monorepoSymbols[1]!.path,
          expected: 6,
          bare: { runs: 3, complete: 3, medianMs: 4000 },
          codeseam: { runs: 3, complete: 2 },
        },
      ],
    },
  } as unknown as BenchReport
  const [table] = monorepoTables(report)
  expect(table?.title).toContain('tanstack-query (120 workspace packages linked, 955 source files, 102 projects)')
  expect(table?.rows[0]).toEqual([
    `createSyncStoragePersister (${monorepoSymbols[0]!.path})`,
    '5',
    '2 of 102',
    '4000 (3/3 complete)',
    '2000 (3/3 complete)',
    '0.50×',
  ])
  // A side with an incomplete run has no ratio: one incomplete first answer is a failure.
  expect(table?.rows[1]?.[5]).toBe('—')
  expect(monorepoTables({} as BenchReport)).toEqual([])
})
