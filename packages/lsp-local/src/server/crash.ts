import type { LspError } from '@codeseam/lsp'

/** A server's crash, once: the SERVER_CRASHED error, and everyone who must hear of it (pending requests, waits). */
export class CrashSignal {
  private value: LspError | undefined
  /** Called once with the error when the server crashes. */
  readonly listeners = new Set<(error: LspError) => void>()

  /** The SERVER_CRASHED error, once the server has crashed. */
  get error(): LspError | undefined {
    return this.value
  }

  /** Records the crash, runs `announce` (the state change, seen with the error already set), then tells every listener. */
  raise(error: LspError, announce: () => void): void {
    this.value = error
    announce()
    for (const listener of this.listeners) listener(error)
    this.listeners.clear()
  }

  /** `wait`, or its rejection with the crash error if the server crashes first (or already has). */
  race<T>(wait: Promise<T>): Promise<T> {
    let listener: ((error: LspError) => void) | undefined
    const crashed = new Promise<never>((_, reject) => {
      if (this.value !== undefined) reject(this.value)
      listener = reject
      this.listeners.add(reject)
    })
    crashed.catch(() => {})
    return Promise.race([wait, crashed]).finally(() => listener && this.listeners.delete(listener))
  }
}
