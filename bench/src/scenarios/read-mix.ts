import type { ReadLayer } from '../layers/read-layer.js'
import { timeQuery, untilCorrect } from '../measure.js'
import { isDerivedOperation, type ReadQuery } from '../read-mix.js'
import { incrementsOf, type Turn } from '../increments.js'
import type { IncrementResult, Layer, ReadMixResult } from '../report.js'
import { ratioToFloor, roundSummary, summarize, type FloorRatio, type TimingSummary } from '../statistics.js'

/** Rounds a ratio for the JSON. */
function roundRatio(ratio: FloorRatio): FloorRatio {
  return { median: Math.round(ratio.median * 100) / 100, p95: Math.round(ratio.p95 * 100) / 100 }
}

/**
 * The read mix: every layer warms up (each query until it answers correctly), then the layers take turns
 * query by query, so load from other processes on the machine falls on all of them alike. A derived
 * operation (read-mix.ts) gets its own figures beside the native ones, but stays out of the whole mix's.
 */
export async function runReadMix(
  workspace: string,
  layers: ReadonlyArray<ReadLayer>,
  queries: ReadonlyArray<ReadQuery>,
  rounds: number,
  options: { readonly mix?: IncrementResult['mix'] } = {},
): Promise<{ results: ReadMixResult[]; increments: IncrementResult[] }> {
  for (const layer of layers) for (const query of queries) await untilCorrect(layer, query)
  const times = new Map<ReadLayer, Map<string, number[]>>(layers.map((layer) => [layer, new Map(queries.map((q) => [q.operation, []]))]))
  const incorrect = new Map<ReadLayer, number>(layers.map((layer) => [layer, 0]))
  const wrongByOperation: Record<string, Record<string, number>> = Object.fromEntries(
    queries.map((query) => [query.operation, Object.fromEntries(layers.map((layer) => [layer.layer, 0]))]),
  )
  // How much each layer found for references: the host may search more projects than the floor loaded.
  const found = new Map<ReadLayer, number>()
  // Per turn (one query, every layer once): each layer's time, for the paired increments.
  const turns: Turn[] = []
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const turn: Partial<Record<Layer, number>> = {}
      // Rotate who goes first so no layer always runs right after another one's work.
      for (let i = 0; i < layers.length; i++) {
        const layer = layers[(round + i) % layers.length]!
        const sample = await timeQuery(layer, query)
        times.get(layer)!.get(query.operation)!.push(sample.ms)
        turn[layer.layer] = sample.ms
        if (!sample.correct) {
          incorrect.set(layer, incorrect.get(layer)! + 1)
          wrongByOperation[query.operation]![layer.layer]!++
        }
        if (query.operation === 'references') found.set(layer, layer.locationCount(sample.answer))
      }
      turns.push({ operation: query.operation, ms: turn })
    }
  }
  const floor = layers.find((layer) => layer.layer === 'floor')
  const summaryOf = (layer: ReadLayer, operation?: string): TimingSummary => {
    const byOperation = times.get(layer)!
    if (operation !== undefined) return summarize(byOperation.get(operation)!)
    return summarize([...byOperation].flatMap(([name, ms]) => (isDerivedOperation(name) ? [] : ms)))
  }
  const wrong = Object.fromEntries(layers.map((layer) => [layer.layer, incorrect.get(layer)!]))
  const increments = incrementsOf(workspace, options.mix ?? 'read mix', turns, wrong, wrongByOperation)
  const results = layers.map((layer) => {
    const all = summaryOf(layer)
    const byOperation: Record<string, { summary: TimingSummary; ratio?: FloorRatio; locations?: number; derived?: true }> = {}
    for (const query of queries) {
      const summary = summaryOf(layer, query.operation)
      byOperation[query.operation] = {
        summary: roundSummary(summary),
        ...(floor === undefined ? {} : { ratio: roundRatio(ratioToFloor(summary, summaryOf(floor, query.operation))) }),
        ...(query.operation === 'references' && found.has(layer) ? { locations: found.get(layer)! } : {}),
        ...(isDerivedOperation(query.operation) ? { derived: true as const } : {}),
      }
    }
    return {
      workspace,
      layer: layer.layer,
      all: roundSummary(all),
      ...(floor === undefined ? {} : { ratio: roundRatio(ratioToFloor(all, summaryOf(floor))) }),
      byOperation,
      incorrect: incorrect.get(layer)!,
    }
  })
  return { results, increments }
}

export { roundRatio }
