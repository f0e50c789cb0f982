// When a bare server's answer after a cold start counts as its first COMPLETE answer (Go and Rust rows). The
// bare side is asked again and again from spawn; each answer is kept with the time it came and the server's
// state when it was asked. Which answer counts is decided here, apart from the servers, so it can be tested.

/** One answer of a cold start's series, in the normal form both sides share (sorted, unique keys). */
export interface PolledAnswer {
  /** Spawn → this answer, ms. */
  readonly ms: number
  /** The answer's keys; absent when the request failed (e.g. rust-analyzer's "content modified" while loading). */
  readonly keys?: ReadonlyArray<string>
  readonly error?: string
  /** rust-analyzer: its last `experimental/serverStatus` said quiescent when the request was sent. */
  readonly quiescent?: boolean
}

/**
 * - `equalsFinal` (gopls): the first answer equal to the final answer — the answer of the same server after
 *   every source file was opened.
 * - `quiescentThenEqualsFinal` (rust-analyzer): the same, counting only answers asked once the server said it
 *   was quiescent: an answer from a half-built index that happens to be right is luck, not readiness.
 */
export type CompletenessRule = 'equalsFinal' | 'quiescentThenEqualsFinal'

/** Whether two normal answers hold the same keys in the same order (both are sorted and unique). */
export function sameAnswer(a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index])
}

/** Whether one answer of the series counts as complete under the rule. */
export function isComplete(answer: PolledAnswer, final: ReadonlyArray<string>, rule: CompletenessRule): boolean {
  if (answer.keys === undefined || answer.error !== undefined) return false
  if (rule === 'quiescentThenEqualsFinal' && answer.quiescent !== true) return false
  return sameAnswer(answer.keys, final)
}

/** The first complete answer of a series and its index, or undefined when none is. */
export function firstCompleteAnswer(
  answers: ReadonlyArray<PolledAnswer>,
  final: ReadonlyArray<string>,
  rule: CompletenessRule,
): { readonly index: number; readonly answer: PolledAnswer } | undefined {
  const index = answers.findIndex((answer) => isComplete(answer, final, rule))
  return index < 0 ? undefined : { index, answer: answers[index]! }
}

/**
 * The final answer from a series asked after every file was opened: the first answer that the next `agree − 1`
 * answers repeat (no failures among them, not empty), or undefined when the series never settles.
 */
export function settledAnswer(answers: ReadonlyArray<PolledAnswer>, agree = 2): ReadonlyArray<string> | undefined {
  for (let start = 0; start + agree <= answers.length; start++) {
    const run = answers.slice(start, start + agree)
    const first = run[0]!.keys
    if (first === undefined || first.length === 0) continue
    if (run.every((answer) => answer.error === undefined && answer.keys !== undefined && sameAnswer(answer.keys, first))) return first
  }
  return undefined
}

/** One side of a first-answer figure over several cold starts: how many were complete, the median time of those. */
export interface ColdSideSummary {
  readonly runs: number
  readonly complete: number
  /** Median over the complete runs (absent when none was). */
  readonly medianMs?: number
}

const median = (values: ReadonlyArray<number>): number | undefined => {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** A side's cold starts summarised: an incomplete run counts as a run, never as a time. */
export function coldSideSummary(sides: ReadonlyArray<{ readonly ms?: number; readonly complete: boolean }>): ColdSideSummary {
  const times = sides.filter((side) => side.complete && side.ms !== undefined).map((side) => side.ms!)
  const medianMs = median(times)
  return { runs: sides.length, complete: times.length, ...(medianMs === undefined ? {} : { medianMs }) }
}

/**
 * codeseam ÷ bare over paired cold starts: the median of each pair's ratio. Undefined unless EVERY run of both
 * sides was complete — one incomplete first answer is a failure, which a ratio of the others would hide.
 */
export function pairedColdRatio(
  pairs: ReadonlyArray<{ readonly upper: { ms?: number; complete: boolean }; readonly lower: { ms?: number; complete: boolean } }>,
): number | undefined {
  if (pairs.length === 0) return undefined
  const ok = (side: { ms?: number; complete: boolean }) => side.complete && side.ms !== undefined && side.ms > 0
  if (!pairs.every((pair) => ok(pair.upper) && ok(pair.lower))) return undefined
  return median(pairs.map((pair) => pair.upper.ms! / pair.lower.ms!))
}
