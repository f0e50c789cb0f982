import { describe, expect, it } from 'vitest'

import { performanceMarkdown } from '../src/docs-writer.js'
import type { BenchReport, TelemetrySeriesResult } from '../src/report.js'
import { medianInterval95 } from '../src/statistics.js'
import { telemetryTables } from '../src/table.js'
import { report } from './report.js'

const timing = (median: number) => ({ count: 100, median, p95: median * 3, min: median - 1, max: median + 1, mean: median })

function series(name: TelemetrySeriesResult['series'], added: number, interval: [number, number], target: number): TelemetrySeriesResult {
  return {
    series: name,
    pairs: 100,
    added: timing(added),
    addedMedianInterval: { low: interval[0], high: interval[1] },
    addedCpu: timing(added / 2),
    instrumented: timing(2 + added),
    plain: timing(2),
    byOperation: { hover: { added: timing(added), spansPerCall: 2, spanNames: { 'codeseam.query': 2 } } },
    ...(name === 'with exporter'
      ? {
          spansPerCall: { median: 1, min: 1, max: 2 },
          spansDuringPlainCalls: 0,
          spanNames: { 'codeseam.query': 1.25 },
          exported: { traceRequests: 3, metricRequests: 4, bytes: 4096 },
        }
      : {}),
    wrong: { instrumented: 0, plain: 0 },
    target,
  }
}

function reportWith(telemetry: BenchReport['telemetry']): BenchReport {
  return report(telemetry === undefined ? {} : { telemetry })
}

describe('the median interval', () => {
  it('brackets the median with order statistics', () => {
    const values = Array.from({ length: 101 }, (_, i) => i)
    const { low, high } = medianInterval95(values)
    expect(low).toBeLessThan(50)
    expect(high).toBeGreaterThan(50)
    expect(low + high).toBe(100)
    expect(medianInterval95([3])).toEqual({ low: 3, high: 3 })
  })
})

describe('the telemetry-overhead tables', () => {
  it('judges each series against its own target, and says when the interval straddles it', () => {
    const [main] = telemetryTables(
      reportWith({
        workspace: 'ts-50',
        calls: 'callTool',
        operations: ['hover'],
        series: [series('API, no SDK', 0.01, [-0.02, 0.04], 0.05), series('with exporter', 0.35, [0.25, 0.45], 0.3)],
        setup: ['the AsyncLocalStorage context manager is registered for both arms'],
      }),
    )
    const verdicts = main!.rows.map((row) => row[row.length - 1])
    expect(verdicts).toEqual(['met', 'not met (the 95% interval straddles the target)'])
    expect(main!.rows[1]).toContain('median 1 (1–2); mean by name: codeseam.query × 1.25')
    expect(main!.note).toContain('the AsyncLocalStorage context manager is registered for both arms')
  })

  it('renders a "Telemetry overhead" section in the docs only when the scenario ran', () => {
    expect(telemetryTables(reportWith(undefined))).toEqual([])
    const markdown = performanceMarkdown(
      reportWith({
        workspace: 'ts-50',
        calls: 'callTool',
        operations: ['hover'],
        series: [series('API, no SDK', 0.09, [0.06, 0.12], 0.05)],
        setup: [],
      }),
      'performance.json',
      'performance.svg',
    )
    expect(markdown).toContain('## Telemetry overhead')
    expect(markdown).toMatch(/\| API, no SDK \| 0\.090 \|.*\| not met \|/)
  })
})
