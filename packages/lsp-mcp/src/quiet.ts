/**
 * Questions in flight and when the last one ended: work that may wait (the host's lookup of every installed server,
 * with a stored index: RFC 0034) starts in a pause between questions, not beside an answer. A long answer from the
 * index read page by page is several questions a few milliseconds apart: no pause until the last page.
 */
export class Quiet {
  #inFlight = 0
  #lastEnd: number
  readonly #now: () => number

  constructor(now: () => number = Date.now) {
    this.#now = now
    this.#lastEnd = now()
  }

  /** Runs a question, counted while it is in flight. */
  track<T>(question: () => Promise<T>): Promise<T> {
    this.#inFlight++
    let running: Promise<T>
    try {
      running = question()
    } catch (error) {
      running = Promise.reject(error)
    }
    return running.finally(() => {
      this.#inFlight--
      this.#lastEnd = this.#now()
    })
  }

  /** Resolves once no question has been in flight for `ms` (from construction, or from the last one's end). */
  async pause(ms: number): Promise<void> {
    for (;;) {
      const quietFor = this.#inFlight > 0 ? 0 : this.#now() - this.#lastEnd
      if (this.#inFlight === 0 && quietFor >= ms) return
      await new Promise<void>((resolve) => setTimeout(resolve, ms - quietFor))
    }
  }
}
