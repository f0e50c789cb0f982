import { performance } from 'node:perf_hooks'

import type { ReadLayer } from '../layers/read-layer.js'
import type { ReadQuery } from '../read-mix.js'
import type { ConcurrencyResult } from '../report.js'
import { round, roundSummary, summarize } from '../statistics.js'

/** `count` read queries (the mix, cycled) sent at once through a layer: throughput, latency, errors. */
export async function runConcurrency(
  workspace: string,
  layer: ReadLayer,
  queries: ReadonlyArray<ReadQuery>,
  count = 100,
): Promise<ConcurrencyResult> {
  const latencies: number[] = []
  let errors = 0
  let incorrect = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const query = queries[index % queries.length]!
      const sent = performance.now()
      try {
        const answer = await layer.run(query)
        latencies.push(performance.now() - sent)
        if (!layer.verify(query, answer)) incorrect++
      } catch {
        errors++
      }
    }),
  )
  const wallMs = performance.now() - started
  return {
    workspace,
    layer: layer.layer,
    queries: count,
    wallMs: round(wallMs),
    throughputPerSecond: round((count / wallMs) * 1000, 1),
    latency: roundSummary(summarize(latencies)),
    errors,
    incorrect,
  }
}
