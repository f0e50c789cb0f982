import type { Registration, ServerCapabilities } from 'vscode-languageserver-protocol/node'

import { supportsPullDiagnostics } from './capabilities.js'
import type { DiagnosticsEntry, DiagnosticsStore } from './diagnostics.js'

/** The parts of a running server its waits watch: work-done progress, registrations, pushed diagnostics. */
export interface WaitTarget {
  readonly activeProgress: ReadonlySet<string | number>
  readonly capabilities: ServerCapabilities
  readonly registrations: ReadonlyMap<string, Registration>
  readonly diagnostics: DiagnosticsStore
  on(event: 'progress' | 'registrations', listener: () => void): unknown
  off(event: 'progress' | 'registrations', listener: () => void): unknown
}

/** Resolves once no work-done progress is active (true), or at the deadline or on abort (false). */
export function waitForNoProgress(server: WaitTarget, deadline: number, signal?: AbortSignal): Promise<boolean> {
  if (server.activeProgress.size === 0) return Promise.resolve(true)
  return new Promise<boolean>((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer)
      server.off('progress', onProgress)
      signal?.removeEventListener('abort', onAbort)
      resolve(value)
    }
    const onProgress = () => server.activeProgress.size === 0 && done(true)
    const onAbort = () => done(false)
    const timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()))
    server.on('progress', onProgress)
    // An already-aborted signal never fires 'abort' again: give up now, not at the deadline.
    if (signal?.aborted === true) {
      done(false)
      return
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Waits for diagnostics pushed for a document after `afterSeq` (of `version` when the server reports
 * versions), quiet for `quietMs` — or until the server registers pull diagnostics, after which it pushes
 * nothing (pyright registers them only after initialized, so an early query could otherwise wait in vain).
 * Resolves with the entry then current, if any; `pullReady` says whether pull took over.
 */
export async function waitForPushOrPull(
  server: WaitTarget,
  uri: string,
  afterSeq: number,
  version: number,
  quietMs: number,
  deadline: number,
  signal?: AbortSignal,
): Promise<{ entry: DiagnosticsEntry | undefined; pullReady: boolean }> {
  const pullReady = () => supportsPullDiagnostics(server.capabilities, server.registrations)
  if (pullReady()) return { entry: server.diagnostics.get(uri), pullReady: true }
  const registered = new AbortController()
  const onRegistrations = () => {
    if (pullReady()) registered.abort()
  }
  server.on('registrations', onRegistrations)
  try {
    const entry = await server.diagnostics.waitForPush(
      uri,
      afterSeq,
      version,
      quietMs,
      deadline,
      signal === undefined ? registered.signal : AbortSignal.any([signal, registered.signal]),
    )
    return { entry, pullReady: pullReady() }
  } finally {
    server.off('registrations', onRegistrations)
  }
}
