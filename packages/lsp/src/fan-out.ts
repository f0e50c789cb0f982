import { setMaxListeners } from 'node:events'

import { LspError, toLspError } from './errors.js'
import { mergeFanOut } from './fan-out-merge.js'
import { callProvider } from './provider-call.js'
import type { Registration, Registry } from './registry.js'
import type { RelativizerCache } from './relativizer-cache.js'
import type { LspQueryRequest, LspQueryResult } from './vocabulary.js'

/*
 * The fan-out stage: a workspace-scoped query sent to every provider that supports it, at once, and their
 * answers merged; one provider failing only degrades the answer, every provider failing fails it.
 */

/**
 * A signal for a fan-out that follows the caller's: every provider (and each of its roots and servers) listens
 * for the abort at once, which is no leak, so the many listeners sit on a signal of the seam's own (no
 * MaxListenersExceededWarning in the caller's process), with one listener on the caller's, removed after.
 */
function fanOutSignal(signal: AbortSignal | undefined): { readonly signal: AbortSignal | undefined; readonly release: () => void } {
  if (signal === undefined) return { signal, release: () => {} }
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  const forward = () => controller.abort(signal.reason)
  if (signal.aborted) forward()
  else signal.addEventListener('abort', forward, { once: true })
  return { signal: controller.signal, release: () => signal.removeEventListener('abort', forward) }
}

/** The language id a provider is asked in when no file picks one: its first claim's. */
function languageOf(info: Registration['info']): string {
  return Object.values(info.extensions)[0] ?? Object.values(info.fileNames)[0] ?? Object.values(info.interpreters)[0] ?? ''
}

/** Sends a workspace-scoped query to every provider that supports it and merges what they answer. */
export async function fanOut(
  registry: Registry,
  relativizers: RelativizerCache,
  request: LspQueryRequest,
  signal: AbortSignal | undefined,
): Promise<LspQueryResult> {
  const targets = registry.registered().filter((r) => r.info.operations.includes(request.operation))
  if (targets.length === 0) {
    throw new LspError(
      registry.providerCount === 0 ? 'UNAVAILABLE' : 'UNSUPPORTED_OPERATION',
      registry.providerCount === 0 ? 'no language provider is registered' : `no registered provider supports "${request.operation}"`,
    )
  }
  const started = performance.now()
  const scoped = fanOutSignal(signal)
  let settled: PromiseSettledResult<LspQueryResult>[]
  try {
    settled = await Promise.allSettled(
      targets.map((r) => callProvider(r, request, languageOf(r.info), scoped.signal, relativizers, registry.openRoots())),
    )
  } finally {
    scoped.release()
  }
  if (signal?.aborted) throw new LspError('CANCELLED', 'the request was cancelled')
  const results: LspQueryResult[] = []
  const failures: { providerId: string; code: string; message: string }[] = []
  settled.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') results.push(outcome.value)
    else {
      const error = toLspError(outcome.reason, 'SERVER_ERROR', 'fan-out')
      failures.push({
        providerId: targets[index]?.info.id ?? '?',
        code: error.code,
        message: relativizers.for(request.root)(error.message),
      })
    }
  })
  if (results.length === 0) {
    const firstFailure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    throw toLspError(firstFailure?.reason, 'SERVER_ERROR', `every provider failed on ${request.operation}`)
  }
  const merged = mergeFanOut(results, failures)
  return { ...merged, meta: { ...merged.meta, elapsedMs: performance.now() - started } }
}
