import { uriToPath } from '@codeseam/lsp'

import type { FileStatusParams } from './connection.js'

/**
 * Per-file status as a server reports it (clangd's textDocument/clangd.fileStatus), kept for the documents
 * the host has open: whether a document is idle (no preamble or AST work queued or running for it) since
 * its last sync, and waits for that. Keyed by path: the server may spell a URI differently from the host.
 */
export class FileStatus {
  /** Whether the server reports per-file status (clangd initialized with `clangdFileStatus`): set by its first report. */
  reported = false
  /**
   * The file status of each open document (by path) reported since the document's last sync (undefined
   * while the server has reported nothing since), and when it last changed (performance.now()).
   */
  private readonly states = new Map<string, { state: string | undefined; since: number }>()
  /** Called with a document's path when its file status changes (a Set: one waiter per open document may wait at once). */
  private readonly listeners = new Set<(path: string) => void>()

  /** A document was opened or changed: what the server reported about it before no longer counts. */
  synced(uri: string): void {
    this.states.set(uriToPath(uri) ?? uri, { state: undefined, since: performance.now() })
  }

  /** A document was closed: nothing left to wait for about it. */
  closed(uri: string): void {
    const key = uriToPath(uri) ?? uri
    this.states.delete(key)
    for (const listener of this.listeners) listener(key)
  }

  /** A file status report; kept only for documents the host has open. */
  report(params: FileStatusParams): void {
    if (params === null || typeof params !== 'object' || typeof params.uri !== 'string' || typeof params.state !== 'string') return
    this.reported = true
    const key = uriToPath(params.uri) ?? params.uri
    const previous = this.states.get(key)
    // clangd repeats "idle" after every request it ran: only a change counts.
    if (previous === undefined || previous.state === params.state) return
    this.states.set(key, { state: params.state, since: performance.now() })
    for (const listener of this.listeners) listener(key)
  }

  /**
   * Whether the server has reported the document idle since its last sync, for at least `forMs` without a
   * change. True for a document the host does not have open.
   */
  idle(uri: string, forMs = 0): boolean {
    const status = this.states.get(uriToPath(uri) ?? uri)
    return status === undefined || (status.state === 'idle' && performance.now() - status.since >= forMs)
  }

  /**
   * Resolves once the server has reported the document idle after its last sync for `forMs` without a
   * change (see {@link idle}), or at the deadline or on abort (then false).
   */
  waitIdle(uri: string, deadline: number, signal: AbortSignal | undefined, forMs: number): Promise<boolean> {
    const key = uriToPath(uri) ?? uri
    return new Promise<boolean>((resolve) => {
      let settle: NodeJS.Timeout | undefined
      const done = (value: boolean) => {
        clearTimeout(timer)
        clearTimeout(settle)
        this.listeners.delete(onStatus)
        signal?.removeEventListener('abort', onAbort)
        resolve(value)
      }
      // Idle now: done once it has been idle for `forMs` (a change before then starts over).
      const check = () => {
        clearTimeout(settle)
        const status = this.states.get(key)
        // A document closed meanwhile has nothing left to wait for.
        if (status === undefined) return done(true)
        if (status.state !== 'idle') return
        const left = status.since + forMs - performance.now()
        if (left <= 0) done(true)
        else settle = setTimeout(check, Math.ceil(left))
      }
      const onStatus = (changed: string) => changed === key && check()
      const onAbort = () => done(false)
      const timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()))
      this.listeners.add(onStatus)
      // An already-aborted signal never fires 'abort' again: give up now, not at the deadline.
      if (signal?.aborted === true) {
        done(false)
        return
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      check()
    })
  }
}
