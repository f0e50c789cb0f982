import { readTreeMemory } from '../server/process-tree.js'

const MiB = 1024 ** 2

/** A breach the host acts on: restart the server gracefully, then report it in status and the next result's meta. */
export interface MemoryBreach {
  readonly key: string
  readonly pid: number
  readonly rssBytes: number
  readonly ceilingBytes: number
  /** Ready-made reason for status and logs. */
  readonly reason: string
}

/**
 * Samples the process trees it watches and reports a tree that stays over its ceiling for
 * `breachSamples` consecutive samples. Reports once per watch (the host restarts the server and watches
 * the new process). `check()` samples now; `start()` samples every `intervalMs` without keeping the
 * process alive.
 */
export class MemoryWatcher {
  private readonly watched = new Map<string, { pid: number; ceilingBytes: number; over: number; rssBytes?: number }>()
  private timer: NodeJS.Timeout | undefined
  private checking: Promise<MemoryBreach[]> | undefined

  constructor(
    private readonly onBreach: (breach: MemoryBreach) => void,
    private readonly options: { readonly intervalMs: number; readonly breachSamples: number },
  ) {}

  watch(key: string, pid: number, ceilingBytes: number): void {
    if (ceilingBytes <= 0) return
    this.watched.set(key, { pid, ceilingBytes, over: 0 })
  }

  unwatch(key: string): void {
    this.watched.delete(key)
  }

  get size(): number {
    return this.watched.size
  }

  /** The last sampled resident memory of a watched tree; undefined before its first sample. */
  lastRss(key: string): number | undefined {
    return this.watched.get(key)?.rssBytes
  }

  /** Samples every watched tree once (single-flight); returns the breaches it reported. */
  check(): Promise<MemoryBreach[]> {
    this.checking ??= this.sample().finally(() => {
      this.checking = undefined
    })
    return this.checking
  }

  private async sample(): Promise<MemoryBreach[]> {
    const breaches: MemoryBreach[] = []
    for (const [key, entry] of [...this.watched]) {
      const memory = await readTreeMemory(entry.pid)
      if (memory === undefined) {
        this.watched.delete(key) // exited: the crash path reports it
        continue
      }
      entry.rssBytes = memory.rssBytes
      entry.over = memory.rssBytes > entry.ceilingBytes ? entry.over + 1 : 0
      if (entry.over >= this.options.breachSamples && this.watched.get(key) === entry) {
        this.watched.delete(key)
        const mb = (n: number) => `${Math.round(n / MiB)} MiB`
        const breach: MemoryBreach = {
          key,
          pid: entry.pid,
          rssBytes: memory.rssBytes,
          ceilingBytes: entry.ceilingBytes,
          reason: `its process tree used ${mb(memory.rssBytes)}, over the ${mb(entry.ceilingBytes)} ceiling (maxServerMemoryBytes), so it was restarted`,
        }
        breaches.push(breach)
        this.onBreach(breach)
      }
    }
    return breaches
  }

  start(): void {
    if (this.timer !== undefined) return
    this.timer = setInterval(() => void this.check(), this.options.intervalMs)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
    this.watched.clear()
  }
}
