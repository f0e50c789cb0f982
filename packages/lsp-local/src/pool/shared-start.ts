import { LspError } from '@codeseam/lsp'

/**
 * One start shared by every caller that arrives while it runs. It answers to none of their signals or
 * deadlines: it has its own, and is aborted only when every caller waiting on it has given up. Each caller
 * waits bounded by its own signal and deadline.
 */
export class SharedStart<T> {
  private running: Promise<T> | undefined
  /** Aborts the shared start: only when every caller waiting on it has gone (or {@link abort}). */
  private controller: AbortController | undefined
  private waiters = 0

  /** @param label names what starts, for errors: `the <profile> server for <root>` */
  constructor(private readonly label: string) {}

  /** A start is in progress (it may already be abandoned by every caller and winding down). */
  get inProgress(): boolean {
    return this.running !== undefined
  }

  /** The start in progress, if any. */
  get current(): Promise<T> | undefined {
    return this.running
  }

  /**
   * Waits for the start in progress, or begins one with `start` (also when the one in progress was
   * abandoned: `start` then runs once that one has settled, never two at once).
   */
  join(start: (signal: AbortSignal) => Promise<T>, deadline: number, signal?: AbortSignal): Promise<T> {
    if (this.running === undefined || this.controller?.signal.aborted === true) {
      const controller = new AbortController()
      // A start everyone abandoned is still winding down: use its result if it came up anyway, else start
      // afresh once it has stopped (never two processes for one slot).
      const abandoned = this.running
      this.controller = controller
      this.waiters = 0
      const running = (abandoned === undefined ? start(controller.signal) : abandoned.catch(() => start(controller.signal))).finally(() => {
        if (this.running === running) {
          this.running = undefined
          this.controller = undefined
        }
      })
      // A start every caller left still settles; its outcome is only for those who wait.
      running.catch(() => undefined)
      this.running = running
    }
    return this.wait(this.running, deadline, signal)
  }

  /** Aborts the start in progress (the slot stops). */
  abort(reason: LspError): void {
    this.controller?.abort(reason)
  }

  /** One caller's wait on the shared start, bounded by that caller's own signal and deadline. */
  private wait(running: Promise<T>, deadline: number, signal?: AbortSignal): Promise<T> {
    const controller = this.controller
    if (signal?.aborted) return Promise.reject(new LspError('CANCELLED', `the request was cancelled while ${this.label} was starting`))
    this.waiters++
    return new Promise<T>((resolve, reject) => {
      let left = false
      const leave = (error: LspError) => {
        if (left) return
        left = true
        cleanup()
        this.waiters--
        if (this.waiters === 0 && this.running === running) controller?.abort(error)
        reject(error)
      }
      const onAbort = () => leave(new LspError('CANCELLED', `the request was cancelled while ${this.label} was starting`))
      const timer = setTimeout(
        () => leave(new LspError('TIMEOUT', `${this.label} did not finish starting within this request's deadline`)),
        Math.max(1, deadline - Date.now()),
      )
      const cleanup = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      running.then(
        (value) => {
          if (left) return
          left = true
          cleanup()
          this.waiters--
          resolve(value)
        },
        (error: unknown) => {
          if (left) return
          left = true
          cleanup()
          this.waiters--
          reject(error)
        },
      )
    })
  }
}
