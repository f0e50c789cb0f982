import { LspError, toLspError } from './errors.js'
import { isWithin } from './paths.js'
import { relativizeResult } from './relative-text.js'
import type { Registration } from './registry.js'
import type { RelativizerCache } from './relativizer-cache.js'
import { uniqueSymbols } from './fan-out-merge.js'
import { resultKindByOperation, type LspLocation, type LspQueryRequest, type LspQueryResult } from './vocabulary.js'

/*
 * The provider-call stage: one provider asked one question, under the caller's cancellation, its answer checked
 * for the expected kind, contained to the root and rewritten to workspace-relative text.
 */

/**
 * Runs `run` with the caller's signal (a fresh one when there is none) and rejects with CANCELLED as soon as
 * that signal aborts, whether or not the provider notices.
 */
function withCancellation<T>(signal: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (signal?.aborted) return Promise.reject(new LspError('CANCELLED', 'the request was cancelled before it started'))
  if (signal === undefined) return run(new AbortController().signal)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new LspError('CANCELLED', 'the request was cancelled'))
    signal.addEventListener('abort', onAbort, { once: true })
    const done = () => signal.removeEventListener('abort', onAbort)
    let running: Promise<T>
    try {
      running = run(signal)
    } catch (error) {
      done()
      reject(error)
      return
    }
    running.then(
      (value) => {
        done()
        resolve(value)
      },
      (error: unknown) => {
        done()
        reject(error)
      },
    )
  })
}

/**
 * Drops locations outside every root of the workspace (defence in depth: providers must already do this) and
 * counts them; drops repeated workspace symbols. A location in another open root of the same service is an
 * answer, never "outside the workspace" (RFC 0025).
 */
function containLocations<T extends LspQueryResult>(result: T, roots: ReadonlyArray<string>): T {
  const inside = (location: LspLocation) => roots.some((root) => isWithin(root, location.path))
  if (result.kind === 'locations') {
    const kept = result.locations.filter(inside)
    const dropped = result.locations.length - kept.length
    if (dropped === 0) return result
    return {
      ...result,
      locations: kept,
      meta: { ...result.meta, droppedOutsideWorkspace: (result.meta.droppedOutsideWorkspace ?? 0) + dropped },
    }
  }
  if (result.kind === 'workspaceSymbols') {
    const kept = result.symbols.filter((s) => inside(s.location))
    const dropped = result.symbols.length - kept.length
    const unique = uniqueSymbols(kept)
    if (dropped === 0) return unique === result.symbols ? result : { ...result, symbols: unique }
    return {
      ...result,
      symbols: unique,
      meta: { ...result.meta, droppedOutsideWorkspace: (result.meta.droppedOutsideWorkspace ?? 0) + dropped },
    }
  }
  return result
}

/**
 * The roots of a request's workspace (RFC 0025): its own root first, then every other root open in the same
 * service. A service is one workspace; harnesses that keep roots apart use one service each.
 */
export function workspaceRootsOf(root: string, openRoots: ReadonlyArray<string>): ReadonlyArray<string> {
  return [root, ...openRoots.filter((open) => open !== root)]
}

/** Asks one provider; throws UNSUPPORTED_OPERATION, CANCELLED, SERVER_ERROR or MALFORMED_RESPONSE as the call goes. */
export async function callProvider(
  registration: Registration,
  request: LspQueryRequest,
  languageId: string,
  signal: AbortSignal | undefined,
  relativizers: RelativizerCache,
  openRoots: ReadonlyArray<string> = [],
): Promise<LspQueryResult> {
  const workspaceRoots = workspaceRootsOf(request.root, openRoots)
  const { info, provider } = registration
  if (!info.operations.includes(request.operation)) {
    throw new LspError(
      'UNSUPPORTED_OPERATION',
      `provider "${info.id}" does not support "${request.operation}" (it supports: ${info.operations.join(', ')})`,
      { data: { providerId: info.id, operation: request.operation } },
    )
  }
  const started = performance.now()
  let result: LspQueryResult
  try {
    result = await withCancellation(signal, (inner) => provider.query({ ...request, languageId, workspaceRoots }, inner))
  } catch (error) {
    throw toLspError(error, 'SERVER_ERROR', `provider "${info.id}" failed on ${request.operation}`)
  }
  const expected = resultKindByOperation[request.operation]
  if (result === null || typeof result !== 'object' || result.kind !== expected) {
    throw new LspError(
      'MALFORMED_RESPONSE',
      `provider "${info.id}" answered ${request.operation} with a "${String((result as { kind?: unknown } | null)?.kind)}" result; expected "${expected}"`,
      { data: { providerId: info.id } },
    )
  }
  // Paths in free text (names, hovers, messages) become workspace-relative; `path`/`uri` fields stay absolute.
  const contained = relativizeResult(containLocations(result, workspaceRoots), relativizers.for(request.root))
  return { ...contained, meta: { ...contained.meta, providerId: info.id, elapsedMs: performance.now() - started } }
}
