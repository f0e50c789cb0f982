import { performance } from 'node:perf_hooks'

import type { ReadLayer } from './layers/read-layer.js'
import type { ReadQuery } from './read-mix.js'

/** One timed answer. */
export interface Sample {
  readonly ms: number
  readonly correct: boolean
  readonly answer: unknown
}

/** Runs one query through a layer and checks the answer. */
export async function timeQuery(layer: Pick<ReadLayer, 'run' | 'verify'>, query: ReadQuery): Promise<Sample> {
  const started = performance.now()
  const answer = await layer.run(query)
  const ms = performance.now() - started
  return { ms, correct: layer.verify(query, answer), answer }
}

/**
 * Repeats a query until a layer answers it correctly, bounded: the first correct answer marks a warm
 * layer (servers may answer early from a partial project). Throws with the last answer when it never does.
 */
export async function untilCorrect(
  layer: Pick<ReadLayer, 'layer' | 'run' | 'verify'>,
  query: ReadQuery,
  deadlineMs = 120_000,
): Promise<{ attempts: number; ms: number }> {
  const started = performance.now()
  let attempts = 0
  let last: unknown
  while (performance.now() - started < deadlineMs) {
    attempts++
    const sample = await timeQuery(layer, query)
    if (sample.correct) return { attempts, ms: performance.now() - started }
    last = sample.answer
  }
  throw new Error(
    `${layer.layer} never answered "${query.label}" correctly within ${deadlineMs} ms; last answer: ${JSON.stringify(last)?.slice(0, 400)}`,
  )
}

/** Rejects when `deadlineMs` passes first; its timer also keeps the process alive while waiting. */
export function withDeadline<T>(promise: Promise<T>, deadlineMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`deadline of ${deadlineMs} ms passed waiting for ${what}`)), deadlineMs)
  })
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer))
}
