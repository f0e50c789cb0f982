import type { ReadLayer } from '../layers/read-layer.js'
import { timeQuery, untilCorrect } from '../measure.js'
import type { ReadQuery } from '../read-mix.js'
import type { HotReferencesResult } from '../report.js'
import { ratioToFloor, roundSummary, summarize } from '../statistics.js'
import { roundRatio } from './read-mix.js'

/** References on the hot symbol: time, locations and the bytes each layer hands its caller. */
export async function runHotReferences(
  workspace: string,
  layers: ReadonlyArray<ReadLayer>,
  query: ReadQuery,
  rounds: number,
): Promise<HotReferencesResult[]> {
  const samples = new Map<ReadLayer, { ms: number[]; answer: unknown }>()
  for (const layer of layers) {
    await untilCorrect(layer, query)
    samples.set(layer, { ms: [], answer: undefined })
  }
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < layers.length; i++) {
      const layer = layers[(round + i) % layers.length]!
      const sample = await timeQuery(layer, query)
      if (!sample.correct) throw new Error(`${layer.layer} answered the hot references query incorrectly`)
      const entry = samples.get(layer)!
      entry.ms.push(sample.ms)
      entry.answer = sample.answer
    }
  }
  const floor = layers.find((layer) => layer.layer === 'floor')
  const floorSummary = floor === undefined ? undefined : summarize(samples.get(floor)!.ms)
  return layers.map((layer) => {
    const { ms, answer } = samples.get(layer)!
    const summary = summarize(ms)
    return {
      workspace,
      layer: layer.layer,
      summary: roundSummary(summary),
      ...(floorSummary === undefined ? {} : { ratio: roundRatio(ratioToFloor(summary, floorSummary)) }),
      locations: layer.locationCount(answer),
      outputBytes: layer.outputBytes(answer),
      truncated: layer.truncated(answer),
    }
  })
}
