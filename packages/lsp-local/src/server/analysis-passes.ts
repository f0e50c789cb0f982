import { EventEmitter } from 'node:events'

/**
 * Whether a server has been through an analysis pass since it last took in its configuration. A server that
 * asks for its configuration reads its workspace again afterwards, in a pass of its own, and says one ran only
 * by its results: pushed diagnostics, or a request to pull them again (`workspace/diagnostic/refresh`). Until
 * then a workspace-wide answer can cover part of the workspace, however often it is repeated: pyright 1.1.414
 * finds its source files only in the analysis pass after a configuration, which waits for 250 ms without a
 * request and is put off by every request meanwhile, so a host asking steadily gets answers over the open files
 * alone, alike each time. pyright also asks for a refresh while it applies the configuration, before that
 * pass: only a pass signalled after the server answered a request sent since the configuration counts. When the
 * pass came before any such answer (pyright found its files at once), no further sign comes; a server left
 * alone for a quiet window with nothing in flight has run any pass it had pending (pyright's runs 250 ms after
 * the last request), so such a window without a pass means none was pending.
 *
 * A server that never asked for its configuration, or never signalled a pass (no diagnostics pushed, no refresh
 * asked), is taken as settled: there is nothing to wait for.
 */
export class AnalysisPasses extends EventEmitter<{ pass: []; configured: [] }> {
  private seq = 0
  private signalled = false
  /** The last configuration answer (by seq; 0: none). */
  private lastConfiguration = 0
  /** The last pass signalled after an answer to a request sent since the last configuration. */
  private lastPassAfterConfiguration = 0
  private answeredSinceConfiguration = false
  /** Requests in flight, and when the last was sent or answered. */
  private inFlight = 0
  private lastActivity = 0

  /** The server is answered its configuration (it applies it, then passes over the workspace again): returns the answer. */
  configured<T>(answer: T): T {
    this.lastConfiguration = ++this.seq
    this.answeredSinceConfiguration = false
    this.emit('configured')
    return answer
  }

  /** Whether the server has asked for its configuration and been answered at least once. */
  get configuredOnce(): boolean {
    return this.lastConfiguration > 0
  }

  /**
   * Resolves true once the server has been answered its configuration (the `configured` readiness rule: a
   * server that analyses nothing before it has its settings, bash-language-server), false at the deadline or on
   * abort.
   */
  waitConfigured(deadline: number, signal?: AbortSignal): Promise<boolean> {
    if (this.configuredOnce) return Promise.resolve(true)
    return new Promise((resolve) => {
      const done = (configured: boolean) => {
        clearTimeout(timer)
        this.off('configured', onConfigured)
        signal?.removeEventListener('abort', onAbort)
        resolve(configured)
      }
      const onConfigured = () => done(true)
      const onAbort = () => done(false)
      const timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()))
      this.on('configured', onConfigured)
      signal?.addEventListener('abort', onAbort, { once: true })
      if (signal?.aborted) done(false)
    })
  }

  /**
   * A request is being sent: call the returned function when it ends, with whether the server answered it (a
   * failed one, timed out or refused, still ends its flight).
   */
  asking(): (answered?: boolean) => void {
    const sentAt = ++this.seq
    this.inFlight++
    this.lastActivity = Date.now()
    let ended = false
    return (answered = true) => {
      if (ended) return
      ended = true
      this.inFlight--
      this.lastActivity = Date.now()
      if (answered && sentAt > this.lastConfiguration) this.answeredSinceConfiguration = true
    }
  }

  /** Tracks one request (see {@link asking}): returns its answer. */
  tracked<T>(answer: Promise<T>): Promise<T> {
    const ended = this.asking()
    void answer.then(
      () => ended(true),
      () => ended(false),
    )
    return answer
  }

  /** The server signalled a pass: pushed diagnostics, or asked for a diagnostics refresh. */
  passed(): void {
    this.signalled = true
    const seq = ++this.seq
    if (this.answeredSinceConfiguration) this.lastPassAfterConfiguration = seq
    this.emit('pass')
  }

  /** Whether a pass was signalled after the server answered a request sent since its last configuration. */
  get settled(): boolean {
    return !this.signalled || this.lastConfiguration === 0 || this.lastPassAfterConfiguration > this.lastConfiguration
  }

  /**
   * The server was told of files created or deleted, which a server that plans its files late (pyright) takes
   * in on a timer of its own, put off by every request (250 ms after the last one): the quiet window of
   * {@link waitQuiet} counts from now.
   */
  filesChanged(): void {
    this.lastActivity = Date.now()
  }

  /**
   * Resolves true once the server has had nothing in flight and no request (nor file change, see
   * {@link filesChanged}) for `quietMs`: any pass it had pending has run. False at the deadline or on abort.
   */
  waitQuiet(deadline: number, quietMs: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined
      const done = (quiet: boolean) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        resolve(quiet)
      }
      const onAbort = () => done(false)
      const check = () => {
        const now = Date.now()
        if (this.inFlight === 0 && now - this.lastActivity >= quietMs) return done(true)
        if (now >= deadline) return done(false)
        timer = setTimeout(check, Math.max(1, Math.min(deadline, Math.max(now, this.lastActivity) + quietMs) - now))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      if (signal?.aborted) done(false)
      else check()
    })
  }

  /**
   * Resolves `settled` once a pass settles the server, `quiet` once it has had nothing in flight and no request
   * for `quietMs` without one (nothing was pending), `timeout` at the deadline or on abort.
   */
  waitSettled(deadline: number, quietMs: number, signal?: AbortSignal): Promise<'settled' | 'quiet' | 'timeout'> {
    if (this.settled) return Promise.resolve('settled')
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined
      const done = (outcome: 'settled' | 'quiet' | 'timeout') => {
        clearTimeout(timer)
        this.off('pass', onPass)
        signal?.removeEventListener('abort', onAbort)
        resolve(outcome)
      }
      const onPass = () => this.settled && done('settled')
      const onAbort = () => done('timeout')
      const check = () => {
        const now = Date.now()
        if (this.inFlight === 0 && now - this.lastActivity >= quietMs) return done('quiet')
        if (now >= deadline) return done('timeout')
        timer = setTimeout(check, Math.max(1, Math.min(deadline, Math.max(now, this.lastActivity) + quietMs) - now))
      }
      this.on('pass', onPass)
      signal?.addEventListener('abort', onAbort, { once: true })
      if (signal?.aborted) done('timeout')
      else check()
    })
  }
}
