/** The longest delay Node's timers honour. */
const maxDelayMs = 2 ** 31 - 1

/** A deadline registered with {@link Deadlines}; `cancel` forgets it (idempotent). */
export interface Deadline {
  cancel(): void
}

interface Entry {
  readonly at: number
  readonly expire: () => void
}

/**
 * Many deadlines on one timer. Requests to one server share a timeout, so each new deadline lies after the
 * armed one and costs no timer call at all: the timer is re-armed only when it fires or an earlier
 * deadline arrives. A per-request setTimeout/clearTimeout pair cost a measurable share of the host's
 * per-query latency (docs/performance.md). The timer is unref'd: it never keeps a process alive on its
 * own (a running server's pipes do).
 */
export class Deadlines {
  private readonly entries = new Set<Entry>()
  private timer: NodeJS.Timeout | undefined
  private armedAt = Number.POSITIVE_INFINITY

  /** Calls `expire` once `ms` milliseconds have passed, unless cancelled first. */
  add(ms: number, expire: () => void): Deadline {
    const entry: Entry = { at: performance.now() + ms, expire }
    this.entries.add(entry)
    if (entry.at < this.armedAt) this.arm(entry.at)
    return { cancel: () => void this.entries.delete(entry) }
  }

  /** Forgets every deadline and stops the timer. */
  clear(): void {
    this.entries.clear()
    clearTimeout(this.timer)
    this.timer = undefined
    this.armedAt = Number.POSITIVE_INFINITY
  }

  private arm(at: number): void {
    clearTimeout(this.timer)
    this.armedAt = at
    // Node runs a delay above 2^31 − 1 ms after 1 ms instead: wait at most that long and re-arm.
    this.timer = setTimeout(() => this.fire(), Math.min(maxDelayMs, Math.max(0, Math.ceil(at - performance.now()))))
    this.timer.unref()
  }

  private fire(): void {
    this.timer = undefined
    this.armedAt = Number.POSITIVE_INFINITY
    const now = performance.now()
    let next = Number.POSITIVE_INFINITY
    const due: Entry[] = []
    for (const entry of this.entries) {
      // Timers may fire up to a millisecond early by the fractional clock: that counts as due.
      if (entry.at <= now + 1) due.push(entry)
      else if (entry.at < next) next = entry.at
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next)
    // Re-armed before any callback runs, so one that throws cannot strand the others.
    for (const entry of due) {
      this.entries.delete(entry)
      try {
        entry.expire()
      } catch {
        // An expiry callback's failure is its own; the remaining deadlines still expire.
      }
    }
  }
}
