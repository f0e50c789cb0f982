import { compareText } from '@codeseam/lsp'

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
  const stop = idleOldestFirst(running)
    .slice(0, excess)
    .map((s) => s.key)
  return { stop, short: excess - stop.length }
}

/** Idle servers, least recently used first (busy ones are never reclaimed). */
function idleOldestFirst<S extends ServerUse>(running: ReadonlyArray<S>): S[] {
  return running.filter((s) => !s.busy).sort((a, b) => a.lastUsed - b.lastUsed || compareText(a.key, b.key))
}

/** A running server with its process tree's last sample. */
export interface ServerMemoryUse extends ServerUse {
  readonly rssBytes: number
}

/**
 * Which servers to stop so their sampled memory fits in `budgetBytes` (RFC 0033): idle ones least recently used
 * first, as for maxServers, until the rest fit; when only busy ones remain over it, the largest of them is
 * restarted once its queries finish (`restartWhenIdle`). Nothing when the total fits or there is no budget (0).
 */
export function chooseBudgetReclaim(
  running: ReadonlyArray<ServerMemoryUse>,
  budgetBytes: number,
): { stop: string[]; restartWhenIdle?: string } {
  let total = running.reduce((sum, s) => sum + s.rssBytes, 0)
  if (budgetBytes <= 0 || total <= budgetBytes) return { stop: [] }
  const stop: string[] = []
  for (const server of idleOldestFirst(running)) {
    if (total <= budgetBytes) break
    stop.push(server.key)
    total -= server.rssBytes
  }
  if (total <= budgetBytes) return { stop }
  const largest = running.filter((s) => s.busy).sort((a, b) => b.rssBytes - a.rssBytes)[0]
  return largest === undefined ? { stop } : { stop, restartWhenIdle: largest.key }
}
