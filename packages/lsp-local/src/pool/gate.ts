import { LspError } from '@codeseam/lsp'

/** A waiter in the gate's queue. */
interface Waiter {
  readonly exclusive: boolean
  readonly admit: () => void
}

/**
 * The read/write gate of one (root, server) slot (RFC 0018): every query passes it shared, a speculative
 * check exclusive, so no query — of any session sharing the host — runs while a server holds speculative text.
 * First come, first served: a waiting speculation holds back the queries that came after it (no starvation).
 */
export class SlotGate {
  private readers = 0
  private writer = false
  private readonly queue: Waiter[] = []

  /** Whether a speculation holds the gate now (tests and telemetry). */
  get exclusiveHeld(): boolean {
    return this.writer
  }

  /** Enters shared; the returned function leaves. CANCELLED when `signal` aborts while waiting. */
  shared(signal?: AbortSignal): Promise<() => void> {
    return this.enter(false, signal)
  }

  /** Enters alone (no reader, no other writer); the returned function leaves. */
  exclusive(signal?: AbortSignal): Promise<() => void> {
    return this.enter(true, signal)
  }

  private enter(exclusive: boolean, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted === true) return Promise.reject(cancelled())
    if (this.queue.length === 0 && this.admits(exclusive)) return Promise.resolve(this.take(exclusive))
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = this.queue.indexOf(waiter)
        if (index >= 0) this.queue.splice(index, 1)
        reject(cancelled())
        this.drain()
      }
      const waiter: Waiter = {
        exclusive,
        admit: () => {
          signal?.removeEventListener('abort', onAbort)
          resolve(this.take(exclusive))
        },
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.queue.push(waiter)
    })
  }

  private admits(exclusive: boolean): boolean {
    return exclusive ? !this.writer && this.readers === 0 : !this.writer
  }

  private take(exclusive: boolean): () => void {
    if (exclusive) this.writer = true
    else this.readers++
    let left = false
    return () => {
      if (left) return
      left = true
      if (exclusive) this.writer = false
      else this.readers--
      this.drain()
    }
  }

  private drain(): void {
    for (;;) {
      const next = this.queue[0]
      if (next === undefined || !this.admits(next.exclusive)) return
      this.queue.shift()
      next.admit()
    }
  }
}

function cancelled(): LspError {
  return new LspError('CANCELLED', 'the query was cancelled while it waited for a speculative check on its server to finish')
}
