import { chooseBudgetReclaim } from './reclaim.js'

const MB = 1024 ** 2

/** A running server as the budget sees it: its pool's figures, and how to stop it. */
export interface BudgetServer {
  /** Unique within its pool. */
  readonly key: string
  /** Its process tree's last sample, bytes. */
  readonly rssBytes: number
  /** Queries in flight or a start in progress: never stopped, only restarted once its queries finish. */
  readonly busy: boolean
  /** When it last answered or was asked (`performance.now()`: one clock for every pool of the process). */
  readonly lastUsed: number
  /** Stops it now when idle (restarts it once its queries finish when busy); its next answer says why. */
  stop(reason: string): Promise<void>
}

/** What the budget holds now. */
export interface BudgetUsage {
  /** The budget, bytes (0: none). */
  readonly budgetBytes: number
  /** The running servers' last samples summed, bytes. */
  readonly usedBytes: number
  /** Servers counted (each with a sample). */
  readonly servers: number
}

/**
 * One memory budget for every server of the pools that share it (RFC 0033): a host's, or in a daemon both trust
 * levels' hosts'. Each pool lists its running servers with their last samples; after a sampling round, when their
 * sum is over the budget, idle servers stop least recently used first across every pool, and if only busy ones are
 * left over it, the largest restarts once its queries finish. Nothing here samples: the pools' memory watches do.
 */
export class MemoryBudget {
  /** Each pool's way to list its running servers, and the budget its host's limits set. */
  private readonly pools = new Map<() => ReadonlyArray<BudgetServer>, number>()
  private enforcing: Promise<void> | undefined
  private again = false

  /**
   * The budget, bytes: the smallest its hosts' `limits.memoryBudgetBytes` set (a daemon's hosts share one config,
   * so one figure); 0 (none) when every host has none, or before a host joined.
   */
  get budgetBytes(): number {
    const set = [...this.pools.values()].filter((bytes) => bytes > 0)
    return set.length === 0 ? 0 : Math.min(...set)
  }

  /** A pool lists its running servers, under its host's budget; returns the way out (a disposed pool). */
  join(servers: () => ReadonlyArray<BudgetServer>, budgetBytes: number): () => void {
    this.pools.set(servers, budgetBytes)
    return () => this.pools.delete(servers)
  }

  usage(): BudgetUsage {
    const servers = this.servers()
    return { budgetBytes: this.budgetBytes, usedBytes: servers.reduce((sum, s) => sum + s.rssBytes, 0), servers: servers.length }
  }

  /** Brings the total under the budget after a sample (single-flight: a sample taken meanwhile enforces again after). */
  enforce(): Promise<void> {
    if (this.budgetBytes <= 0) return Promise.resolve()
    if (this.enforcing !== undefined) {
      this.again = true
      return this.enforcing
    }
    this.enforcing = this.round().finally(() => {
      this.enforcing = undefined
      if (this.again) {
        this.again = false
        void this.enforce()
      }
    })
    return this.enforcing
  }

  private async round(): Promise<void> {
    const servers = this.servers()
    const budgetBytes = this.budgetBytes
    const ids = new Map(servers.map((server, index) => [String(index), server]))
    const chosen = chooseBudgetReclaim(
      servers.map((s, index) => ({ key: String(index), busy: s.busy, lastUsed: s.lastUsed, rssBytes: s.rssBytes })),
      budgetBytes,
    )
    if (chosen.stop.length === 0 && chosen.restartWhenIdle === undefined) return
    const total = servers.reduce((sum, s) => sum + s.rssBytes, 0)
    const reason = `stopped: the ${Math.round(budgetBytes / MB)} MB memory budget was exceeded (${Math.round(total / MB)} MB across ${servers.length} servers; limits.memoryBudgetBytes); it starts again on its next question`
    const stops = [...chosen.stop, ...(chosen.restartWhenIdle === undefined ? [] : [chosen.restartWhenIdle])]
    await Promise.all(
      stops.map((id) =>
        ids
          .get(id)
          ?.stop(reason)
          .catch(() => undefined),
      ),
    )
  }

  private servers(): BudgetServer[] {
    return [...this.pools.keys()].flatMap((list) => list())
  }
}

/**
 * A memory budget to share between hosts (`LocalHostOptions.memoryBudget`): every server of each counts against one
 * total, the budget their `limits.memoryBudgetBytes` sets (RFC 0033). A daemon makes one for both trust levels.
 */
export function createMemoryBudget(): MemoryBudget {
  return new MemoryBudget()
}
