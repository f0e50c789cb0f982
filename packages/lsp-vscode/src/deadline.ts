import { LspError } from '@codeseam/lsp'

/** How a step that outlives its deadline is reported: a read simply timed out; a mutation may have happened. */
export type DeadlineOutcome = 'TIMEOUT' | 'UNCERTAIN'

/**
 * One total time budget for one seam operation, shared by every VS Code call it makes (retries included).
 * VS Code commands cannot be cancelled, so running out of time abandons the call rather than stopping it:
 * for a read that is a TIMEOUT, for a mutation it is UNCERTAIN.
 */
export class Deadline {
  private readonly endsAt: number
  /** Set when a wait ran to the end of the budget: timers and clocks disagree by a millisecond or two. */
  private exhausted = false

  constructor(
    readonly operation: string,
    readonly totalMs: number,
    private readonly signal: AbortSignal,
  ) {
    this.endsAt = Date.now() + totalMs
  }

  /** Milliseconds left (never negative). */
  remaining(): number {
    return Math.max(0, this.endsAt - Date.now())
  }

  /** Throws CANCELLED or TIMEOUT when the operation may not start another step. */
  check(step: string): void {
    if (this.signal.aborted) throw new LspError('CANCELLED', `${this.operation} was cancelled before ${step}`)
    if (this.exhausted || this.remaining() === 0) {
      throw new LspError(
        'TIMEOUT',
        `${this.operation} ran out of its ${this.totalMs} ms budget before ${step}; retry, or raise timeoutMs`,
        {
          data: { operation: this.operation, step },
        },
      )
    }
  }

  /**
   * Waits for `work` within what is left of the budget. When time runs out or the caller aborts, the
   * result is abandoned and the error says whether the step may still take effect (`UNCERTAIN`).
   */
  async run<T>(step: string, work: () => Thenable<T>, outcome: DeadlineOutcome = 'TIMEOUT'): Promise<T> {
    this.check(step)
    let timer: ReturnType<typeof setTimeout> | undefined
    let onAbort: (() => void) | undefined
    const abandoned = new Promise<never>((_, reject) => {
      const fail = (why: 'time' | 'cancel') => {
        if (outcome === 'UNCERTAIN') {
          reject(
            new LspError(
              'UNCERTAIN',
              `${step} did not finish ${why === 'time' ? `within the ${this.totalMs} ms budget of ${this.operation}` : 'before the caller cancelled'}; VS Code commands cannot be cancelled, so it may still complete: check the files before retrying`,
              { data: { operation: this.operation, step } },
            ),
          )
        } else if (why === 'cancel') {
          reject(new LspError('CANCELLED', `${this.operation} was cancelled during ${step}`))
        } else {
          reject(
            new LspError(
              'TIMEOUT',
              `${step} did not answer within the ${this.totalMs} ms budget of ${this.operation}; the language extension may still be loading, retry shortly`,
              {
                data: { operation: this.operation, step },
              },
            ),
          )
        }
      }
      timer = setTimeout(() => fail('time'), this.remaining())
      onAbort = () => fail('cancel')
      this.signal.addEventListener('abort', onAbort, { once: true })
    })
    try {
      return await Promise.race([Promise.resolve().then(work), abandoned])
    } finally {
      clearTimeout(timer)
      if (onAbort) this.signal.removeEventListener('abort', onAbort)
    }
  }

  /**
   * Waits until `subscribe` reports an event or `maxMs` (capped by the budget) passes, whichever is first.
   * Resolves true when the event came. Never throws for running out of time: the caller decides.
   */
  async waitFor(subscribe: (fire: () => void) => { dispose(): unknown }, maxMs: number): Promise<boolean> {
    const remaining = this.remaining()
    const budget = Math.min(maxMs, remaining)
    if (budget <= 0 || this.signal.aborted) return false
    const untilTheEnd = budget === remaining
    let subscription: { dispose(): unknown } | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let onAbort: (() => void) | undefined
    try {
      return await new Promise<boolean>((resolve) => {
        subscription = subscribe(() => resolve(true))
        timer = setTimeout(() => {
          if (untilTheEnd) this.exhausted = true
          resolve(false)
        }, budget)
        onAbort = () => resolve(false)
        this.signal.addEventListener('abort', onAbort, { once: true })
      })
    } finally {
      subscription?.dispose()
      clearTimeout(timer)
      if (onAbort) this.signal.removeEventListener('abort', onAbort)
    }
  }
}
