import type { ReadLayer } from '../layers/read-layer.js'
import { timeQuery, untilCorrect } from '../measure.js'
import type { ReadQuery } from '../read-mix.js'
import type { ReadMixResult } from '../report.js'
import { ratioToFloor, roundSummary, summarize, type FloorRatio, type TimingSummary } from '../statistics.js'

/** Rounds a ratio for the JSON. */
function roundRatio(ratio: FloorRatio): FloorRatio {
  return { median: Math.round(ratio.median * 100) / 100, p95: Math.round(ratio.p95 * 100) / 100 }
}

/**
 * The read mix: every layer warms up (each query until it answers correctly), then the layers take turns
 * query by query, so load from other processes on the machine falls on all of them alike.
 */
export async function runReadMix(
  workspace: string,
  layers: ReadonlyArray<ReadLayer>,
  queries: ReadonlyArray<ReadQuery>,
  rounds: number,
): Promise<ReadMixResult[]> {
  for (const layer of layers) for (const query of queries) await untilCorrect(layer, query)
  const times = new Map<ReadLayer, Map<string, number[]>>(layers.map((layer) => [layer, new Map(queries.map((q) => [q.operation, []]))]))
  const incorrect = new Map<ReadLayer, number>(layers.map((layer) => [layer, 0]))
  // How much each layer found for references: the host may search more projects than the floor loaded.
  const found = new Map<ReadLayer, number>()
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      // Rotate who goes first so no layer always runs right after another one's work.
      for (let i = 0; i < layers.length; i++) {
        const layer = layers[(round + i) % layers.length]!
        const sample = await timeQuery(layer, query)
        times.get(layer)!.get(query.operation)!.push(sample.ms)
        if (!sample.correct) incorrect.set(layer, incorrect.get(layer)! + 1)
        if (query.operation === 'references') found.set(layer, layer.locationCount(sample.answer))
      }
    }
  }
  const floor = layers.find((layer) => layer.layer === 'floor')
  const summaryOf = (layer: ReadLayer, operation?: string): TimingSummary => {
    const byOperation = times.get(layer)!
    return summarize(operation === undefined ? [...byOperation.values()].flat() : byOperation.get(operation)!)
  }
  return layers.map((layer) => {
    const all = summaryOf(layer)
    const byOperation: Record<string, { summary: TimingSummary; ratio?: FloorRatio; locations?: number }> = {}
    for (const query of queries) {
      const summary = summaryOf(layer, query.operation)
      byOperation[query.operation] = {
        summary: roundSummary(summary),
        ...(floor === undefined ? {} : { ratio: roundRatio(ratioToFloor(summary, summaryOf(floor, query.operation))) }),
        ...(query.operation === 'references' && found.has(layer) ? { locations: found.get(layer)! } : {}),
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
}

export { roundRatio }
