import type { LanguageHosts } from './language-hosts.js'
import { removeOwnSocket, stopListeners, type Listeners } from './listeners.js'
import type { DaemonSession } from './sessions.js'

/**
 * How the daemon ends: after `idleMs` without sessions, or when closed — every session closed, the listeners
 * stopped, every language server stopped, the socket removed if it is still ours.
 */

export interface ShutdownDeps {
  readonly sessions: Map<string, DaemonSession>
  readonly hosts: LanguageHosts
  /** Exit after this long without sessions (ms); 0: never. */
  readonly idleMs: number
}

/** What a listening daemon stops: its listeners, its socket, its sweep of idle sessions. */
export interface Serving {
  readonly listeners: Listeners
  readonly socketPath: string | undefined
  readonly socketInode: number | undefined
  readonly sweep: NodeJS.Timeout
}

export interface Shutdown {
  /** Resolves with why once the daemon has shut down. */
  readonly closed: Promise<string>
  /** Whether shutdown began. */
  isClosing(): boolean
  /** (Re)arms the idle exit: called whenever the session count may have changed. */
  armIdle(): void
  /**
   * Runs the opening of a session: no idle exit while one opens (a relay that connected to the daemon it started
   * is not left to the idle timer while its session is created, however slow the machine).
   */
  opening<T>(work: () => Promise<T>): Promise<T>
  /** Records what close stops, once the daemon listens. */
  serving(serving: Serving): void
  /** Shuts the daemon down; idempotent. */
  close(reason?: string): Promise<string>
}

export function daemonShutdown(deps: ShutdownDeps): Shutdown {
  const { sessions, idleMs } = deps
  let closing: Promise<string> | undefined
  let idleTimer: NodeJS.Timeout | undefined
  let openingSessions = 0
  let served: Serving | undefined
  let resolveClosed: (reason: string) => void = () => {}
  const closed = new Promise<string>((resolve) => (resolveClosed = resolve))
  const close = (reason = 'closed'): Promise<string> => {
    closing ??= (async () => {
      if (served !== undefined) clearInterval(served.sweep)
      if (idleTimer !== undefined) clearTimeout(idleTimer)
      const started = performance.now()
      await Promise.all([...sessions.values()].map((entry) => entry.close('the daemon is shutting down')))
      const stopped = served === undefined ? Promise.resolve() : stopListeners(served.listeners)
      await deps.hosts.disposeAll()
      await stopped
      removeOwnSocket(served?.socketPath, served?.socketInode)
      const done = `${reason}; language servers stopped in ${Math.round(performance.now() - started)} ms`
      resolveClosed(done)
      return done
    })()
    return closing
  }
  return {
    closed,
    isClosing: () => closing !== undefined,
    armIdle() {
      if (idleTimer !== undefined) clearTimeout(idleTimer)
      idleTimer = undefined
      if (idleMs > 0 && sessions.size === 0 && openingSessions === 0 && closing === undefined) {
        idleTimer = setTimeout(() => void close(`no session for ${Math.round(idleMs / 1000)} s`), idleMs)
      }
    },
    async opening(work) {
      openingSessions++
      if (idleTimer !== undefined) clearTimeout(idleTimer)
      idleTimer = undefined
      try {
        return await work()
      } finally {
        openingSessions--
        this.armIdle()
      }
    },
    serving(serving) {
      served = serving
    },
    close,
  }
}
