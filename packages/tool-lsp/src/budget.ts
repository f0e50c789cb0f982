import { contentHash, LspError } from '@codeseam/lsp'

import type { PageOutput } from './schemas.js'

/**
 * Every list a tool returns is budgeted the same way: at most `limit` items, the total, whether it was cut,
 * and an opaque cursor to the next page. A cursor is bound to the query it came from, so it cannot be
 * replayed against a different one.
 */

/** Bounds of a list parameter. */
export interface LimitBounds {
  readonly defaultLimit: number
  readonly maxLimit: number
}

/** Clamps a requested limit into its bounds (a model asking for 10 000 gets the maximum, and is told so by `truncated`). */
export function clampLimit(requested: number | undefined, bounds: LimitBounds): number {
  if (requested === undefined) return bounds.defaultLimit
  return Math.max(1, Math.min(requested, bounds.maxLimit))
}

interface CursorState {
  readonly v: 1
  /** Offset of the next page's first item. */
  readonly o: number
  /** Fingerprint of the query. */
  readonly f: string
  /** The workspace's change mark (hashed) when the first page's answer was kept (RFC 0026). */
  readonly m?: string
}

/** A short fingerprint of the parts of a request that decide the list (not limit or cursor). */
export function queryFingerprint(parts: ReadonlyArray<unknown>): string {
  return contentHash(JSON.stringify(parts)).slice(0, 16)
}

/** Encodes a cursor; `mark`: the change mark of a kept answer, so later pages can tell whether it still holds. */
export function encodeCursor(offset: number, fingerprint: string, mark?: string): string {
  const state: CursorState = { v: 1, o: offset, f: fingerprint, ...(mark === undefined ? {} : { m: mark }) }
  return Buffer.from(JSON.stringify(state), 'utf8').toString('base64url')
}

/** Decodes a cursor and checks it belongs to this query; undefined → first page. */
export function decodeCursor(cursor: string | undefined, fingerprint: string): number {
  return decodeCursorState(cursor, fingerprint).offset
}

/** A cursor's offset and, when its answer was kept, the change mark it was kept at. */
export function decodeCursorState(cursor: string | undefined, fingerprint: string): { offset: number; mark?: string } {
  if (cursor === undefined || cursor === '') return { offset: 0 }
  let state: Partial<CursorState>
  try {
    state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorState>
  } catch {
    throw new LspError('INVALID_ARGUMENT', 'cursor is not a cursor this tool returned: pass nextCursor from the previous result unchanged')
  }
  if (
    state.v !== 1 ||
    typeof state.o !== 'number' ||
    !Number.isInteger(state.o) ||
    state.o < 0 ||
    typeof state.f !== 'string' ||
    (state.m !== undefined && typeof state.m !== 'string')
  ) {
    throw new LspError('INVALID_ARGUMENT', 'cursor is not a cursor this tool returned: pass nextCursor from the previous result unchanged')
  }
  if (state.f !== fingerprint) {
    throw new LspError(
      'INVALID_ARGUMENT',
      'cursor belongs to a different query: repeat the same arguments with it, or drop cursor to start over',
    )
  }
  return { offset: state.o, ...(state.m === undefined ? {} : { mark: state.m }) }
}

/** One page of a list plus its budget description. */
export interface Page<T> {
  readonly items: T[]
  readonly page: PageOutput
}

/** Slices `items` into the page the cursor points at. */
export function paginate<T>(
  items: ReadonlyArray<T>,
  options: { limit: number; cursor?: string | undefined; fingerprint: string; mark?: string | undefined },
): Page<T> {
  const offset = decodeCursor(options.cursor, options.fingerprint)
  if (offset > items.length) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `cursor points past the end (${items.length} items now): the answer changed; drop cursor to start over`,
    )
  }
  const slice = items.slice(offset, offset + options.limit)
  const next = offset + slice.length
  const truncated = next < items.length
  return {
    items: slice,
    page: {
      returned: slice.length,
      total: items.length,
      limit: options.limit,
      truncated,
      ...(offset > 0 ? { offset } : {}),
      ...(truncated ? { nextCursor: encodeCursor(next, options.fingerprint, options.mark) } : {}),
    },
  }
}

/**
 * Runs `work` over `items` with at most `concurrency` in flight, keeping order. Stops starting new work
 * once `signal` aborts.
 */
export async function mapBounded<T, R>(
  items: ReadonlyArray<T>,
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results: R[] = Array.from({ length: items.length })
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      if (signal?.aborted) throw new LspError('CANCELLED', 'the request was cancelled')
      const index = next++
      results[index] = await work(items[index] as T, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  return results
}
