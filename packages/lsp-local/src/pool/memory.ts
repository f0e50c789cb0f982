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

/** One sample of a watched tree: its resident memory and when it was read. */
export interface MemorySample {
  readonly pid: number
  readonly rssBytes: number
  /** Milliseconds since the epoch. */
  readonly sampledAt: number
}

interface Watched {
  readonly pid: number
  /** 0: sampled for status only, never a breach. */
  ceilingBytes: number
  over: number
  sample?: MemorySample
}

/**
 * Samples the process trees it watches, for status (each running server's resident memory, RFC 0030) and for the
 * ceiling: a tree that stays over its ceiling for `breachSamples` consecutive samples is reported once per watch
 * (the host restarts the server and watches the new process). A tree is sampled as soon as it is watched, then every
 * `intervalMs` on a timer that runs only while something is watched and never keeps the process alive; `check()`
 * samples now. Nothing here is on a question's path.
 */
export class MemoryWatcher {
  private readonly watched = new Map<string, Watched>()
  private timer: NodeJS.Timeout | undefined
  private checking: Promise<MemoryBreach[]> | undefined

  constructor(
    private readonly onBreach: (breach: MemoryBreach) => void,
    private readonly options: {
      readonly intervalMs: number
      readonly breachSamples: number
      /** After each sample taken (a round, or a watch's first): the budget checks the total (RFC 0033). */
      readonly sampled?: () => void
    },
  ) {}

  /**
   * Watches a process tree under a key (`ceilingBytes` 0: for status only). Watching the same pid again keeps its
   * samples and sets the ceiling (a server is sampled from its spawn, its ceiling armed once it is up).
   */
  watch(key: string, pid: number, ceilingBytes: number): void {
    const existing = this.watched.get(key)
    const entry: Watched = existing?.pid === pid ? existing : { pid, ceilingBytes: 0, over: 0 }
    entry.ceilingBytes = Math.max(0, ceilingBytes)
    this.watched.set(key, entry)
    // A sample at once (status has a figure without waiting for the interval: at spawn, again once the server is up);
    // it never counts towards a breach, and never replaces a later one.
    const asked = Date.now()
    void readTreeMemory(pid).then((memory) => {
      if (memory !== undefined && this.watched.get(key) === entry && (entry.sample?.sampledAt ?? 0) <= asked) {
        entry.sample = { pid, rssBytes: memory.rssBytes, sampledAt: Date.now() }
        this.options.sampled?.()
      }
    })
    this.start()
  }

  unwatch(key: string): void {
    this.watched.delete(key)
  }

  get size(): number {
    return this.watched.size
  }

  /** The last sample of a watched tree; undefined before its first sample or once it is no longer watched. */
  lastSample(key: string): MemorySample | undefined {
    return this.watched.get(key)?.sample
  }

  /** The last sampled resident memory of a watched tree; undefined before its first sample. */
  lastRss(key: string): number | undefined {
    return this.lastSample(key)?.rssBytes
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
      if (this.watched.get(key) !== entry) continue // unwatched or replaced while sampling
      if (memory === undefined) {
        this.watched.delete(key) // exited: the crash path reports it
        continue
      }
      entry.sample = { pid: entry.pid, rssBytes: memory.rssBytes, sampledAt: Date.now() }
      if (entry.ceilingBytes <= 0) continue
      entry.over = memory.rssBytes > entry.ceilingBytes ? entry.over + 1 : 0
      if (entry.over >= this.options.breachSamples) {
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
    if (this.watched.size === 0) this.pause()
    this.options.sampled?.()
    return breaches
  }

  /** Samples every `intervalMs` while something is watched, without keeping the process alive. */
  private start(): void {
    if (this.timer !== undefined) return
    this.timer = setInterval(() => void this.check(), this.options.intervalMs)
    this.timer.unref()
  }

  private pause(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  stop(): void {
    this.pause()
    this.watched.clear()
  }
}
