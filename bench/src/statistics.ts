/** Summary of a set of timings, in milliseconds. */
export interface TimingSummary {
  readonly count: number
  readonly median: number
  readonly p95: number
  readonly min: number
  readonly max: number
  readonly mean: number
}

/** The q-quantile (0..1) of sorted values, by linear interpolation between closest ranks. */
export function quantile(sorted: ReadonlyArray<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = (sorted.length - 1) * q
  const low = Math.floor(rank)
  const high = Math.ceil(rank)
  const lowValue = sorted[low]!
  return lowValue + (sorted[high]! - lowValue) * (rank - low)
}

/** Median, p95, min, max and mean of timings. */
export function summarize(values: ReadonlyArray<number>): TimingSummary {
  const sorted = [...values].sort((a, b) => a - b)
  const sum = sorted.reduce((total, value) => total + value, 0)
  return {
    count: sorted.length,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
  }
}

/** A layer's timings relative to the floor's: median over median, p95 over p95. */
export interface FloorRatio {
  readonly median: number
  readonly p95: number
}

/** Ratio of a summary to the floor's summary. */
export function ratioToFloor(layer: TimingSummary, floor: TimingSummary): FloorRatio {
  return { median: layer.median / floor.median, p95: layer.p95 / floor.p95 }
}

/** Rounds to a fixed number of significant decimals for the JSON (keeps the file diff-friendly). */
export function round(value: number, decimals = 3): number {
  if (!Number.isFinite(value)) return value
  const factor = 10 ** decimals
  return Math.round(value * factor) / factor
}

/** A summary with every figure rounded. */
export function roundSummary(summary: TimingSummary): TimingSummary {
  return {
    count: summary.count,
    median: round(summary.median),
    p95: round(summary.p95),
    min: round(summary.min),
    max: round(summary.max),
    mean: round(summary.mean),
  }
}

/**
 * Paired differences `a[i] − b[i]`, one per turn in which both sides ran the same query (the turns' load
 * falls on both alike). The lists must be the same length: a missing turn would pair unrelated samples.
 */
export function pairedDifferences(a: ReadonlyArray<number>, b: ReadonlyArray<number>): number[] {
  if (a.length !== b.length) throw new Error(`paired series differ in length (${a.length} vs ${b.length})`)
  return a.map((value, index) => value - b[index]!)
}

/** The median of several runs' figures (undefined figures, from runs that did not measure it, left out). */
export function medianOfRuns(values: ReadonlyArray<number | undefined>): number | undefined {
  const present = values.filter((value): value is number => value !== undefined && Number.isFinite(value))
  if (present.length === 0) return undefined
  return quantile(
    [...present].sort((x, y) => x - y),
    0.5,
  )
}

/**
 * A distribution-free 95% confidence interval for the median: the order statistics ranked n/2 ∓ 0.98·√n (the
 * normal approximation to the binomial), so a reader sees how finely a median of noisy samples is known.
 */
export function medianInterval95(values: ReadonlyArray<number>): { readonly low: number; readonly high: number } {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return { low: Number.NaN, high: Number.NaN }
  const k = Math.max(0, Math.floor(sorted.length / 2 - 0.98 * Math.sqrt(sorted.length)))
  return { low: sorted[k]!, high: sorted[sorted.length - 1 - k]! }
}
