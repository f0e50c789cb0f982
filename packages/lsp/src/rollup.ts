import { compareText } from './compare-text.js'
import { errorCodeOf } from './telemetry.js'

/** One operation's figures since the service started: what `code_status` shows a reader without a tracing backend. */
export interface LspOperationRollup {
  readonly operation: string
  /** Calls since start, failures included. */
  readonly count: number
  /** Failures since start, by LspError code (INTERNAL for a failure that was not one). */
  readonly errors: Readonly<Record<string, number>>
  /** Median and 95th percentile latency (ms) over the most recent {@link rollupWindow} calls. */
  readonly p50Ms: number
  readonly p95Ms: number
}

/** How many recent durations per operation the percentiles are taken over. */
export const rollupWindow = 1024

interface Series {
  count: number
  readonly errors: Record<string, number>
  readonly recent: number[]
  next: number
}

/** Counts, errors and recent latencies per operation; bounded (a ring of {@link rollupWindow} per operation). */
export class OperationRollup {
  private readonly series = new Map<string, Series>()

  record(operation: string, elapsedMs: number, error?: unknown): void {
    let series = this.series.get(operation)
    if (series === undefined) {
      series = { count: 0, errors: {}, recent: [], next: 0 }
      this.series.set(operation, series)
    }
    series.count++
    if (error !== undefined) {
      const code = errorCodeOf(error)
      series.errors[code] = (series.errors[code] ?? 0) + 1
    }
    if (series.recent.length < rollupWindow) series.recent.push(elapsedMs)
    else series.recent[series.next] = elapsedMs
    series.next = (series.next + 1) % rollupWindow
  }

  snapshot(): ReadonlyArray<LspOperationRollup> {
    return [...this.series.entries()]
      .sort(([a], [b]) => compareText(a, b))
      .map(([operation, s]) => {
        const sorted = [...s.recent].sort((a, b) => a - b)
        return { operation, count: s.count, errors: { ...s.errors }, p50Ms: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95) }
      })
  }
}

/** Nearest-rank percentile of sorted values, rounded to 0.1 ms; 0 when there are none. */
function percentile(sorted: ReadonlyArray<number>, p: number): number {
  if (sorted.length === 0) return 0
  const value = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0
  return Math.round(value * 10) / 10
}
