/** A running server as the reclaimer sees it. */
export interface ServerUse {
  readonly key: string
  /** Queries in flight or a start in progress: never reclaimed. */
  readonly busy: boolean
  /** When it last answered or was asked (any monotonic clock). */
  readonly lastUsed: number
}

/**
 * Which idle servers to stop so that `incoming` more fit under `maxServers`: least recently used first,
 * busy ones never. `short` > 0 means even stopping every idle server is not enough (the caller reports
 * UNAVAILABLE or waits for a busy one to finish).
 */
export function chooseReclaim(running: ReadonlyArray<ServerUse>, maxServers: number, incoming = 1): { stop: string[]; short: number } {
  const excess = running.length + incoming - maxServers
  if (excess <= 0) return { stop: [], short: 0 }
  const idle = running.filter((s) => !s.busy).sort((a, b) => a.lastUsed - b.lastUsed || a.key.localeCompare(b.key))
  const stop = idle.slice(0, excess).map((s) => s.key)
  return { stop, short: excess - stop.length }
}
