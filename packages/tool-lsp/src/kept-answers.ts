import { BoundedCache, contentHash, LspError, type LspResultMeta, type LspService } from '@codeseam/lsp'

import { decodeCursorState } from './budget.js'
import type { ToolContext } from './definition.js'

/**
 * Pages from the computed answer (RFC 0026): the first page of a capped answer keeps the whole answer (and the
 * context its pages show) in the session, here per `ctx.lsp`; later pages come from it with no server request
 * while the workspace's change mark is what it was at the first page. A page after a change is refused as stale.
 */

/** Answers kept at once per session; the least recently used goes first. */
export const maxKeptAnswers = 16

/** Bytes (estimated as UTF-16 of their JSON) of every kept answer together; a larger answer is not kept. */
export const maxKeptBytes = 32 * 1024 * 1024

/** A session's kept answers, bounded in entries and bytes (an answer larger than the budget is not kept). */
type KeptAnswers = BoundedCache<string, unknown>

const sessions = new WeakMap<LspService, KeptAnswers>()

function keptIn(lsp: LspService): KeptAnswers {
  let kept = sessions.get(lsp)
  if (kept === undefined) sessions.set(lsp, (kept = new BoundedCache({ entries: maxKeptAnswers, size: maxKeptBytes })))
  return kept
}

/** Whether an answer's meta says it is the whole answer: ready, all of the workspace searched, no provider failed. */
export function completeAnswer(meta: LspResultMeta): boolean {
  return (
    meta.status === 'ready' &&
    !meta.truncated &&
    meta.stale !== true &&
    meta.coverage?.complete !== false &&
    (meta.failures === undefined || meta.failures.length === 0)
  )
}

/** A rough size of a value to keep: its JSON length in UTF-16 bytes. */
export function estimatedBytes(value: unknown): number {
  return JSON.stringify(value).length * 2
}

/** What one computation of the answer gives back: the value (plain JSON data) and whether it may be kept (complete and capped). */
export interface Computed<T> {
  readonly value: T
  readonly keep: boolean
}

/** The answer a page is cut from. */
export interface PageAnswer<T> {
  readonly value: T
  /** Set when the answer is kept: cursors carry it, so a later page finds the answer and knows whether it holds. */
  readonly mark?: string
  /** Served from the kept answer: no server was asked. */
  readonly kept: boolean
}

/**
 * The answer for one page: the kept one when the cursor names a kept answer and the workspace has not changed
 * since (after the backend took in every change it could have noticed), else computed by `compute` (told
 * whether the answer can be kept, so it can gather what later pages show) and kept when it says so. A cursor
 * whose answer was kept before a change is refused (STALE_VERSION) with how to ask again.
 */
export async function pageAnswer<T>(
  context: ToolContext,
  options: {
    /** The workspace roots the answer covers: their change marks decide whether it still holds. */
    readonly roots: ReadonlyArray<string>
    readonly fingerprint: string
    readonly cursor: string | undefined
    readonly compute: (keepable: boolean) => Promise<Computed<T>>
  },
): Promise<PageAnswer<T>> {
  const wanted = decodeCursorState(options.cursor, options.fingerprint).mark
  const marks = await Promise.all(options.roots.map((root) => context.lsp.changeMark(root, context.signal)))
  const mark = marks.some((m) => m === undefined) ? undefined : contentHash(marks.join('\n\n')).slice(0, 12)
  if (wanted !== undefined && mark !== undefined && wanted !== mark) {
    throw new LspError(
      'STALE_VERSION',
      'the cursor is stale: files in the workspace were edited, created or deleted since its first page, so later pages of that answer may be wrong. Repeat the call without cursor to get the answer as it is now',
    )
  }
  const store = keptIn(context.lsp)
  const key = `${options.fingerprint}\0${mark ?? ''}`
  if (wanted !== undefined && mark !== undefined) {
    const hit = store.get(key)
    if (hit !== undefined) return { value: hit as T, mark, kept: true }
  }
  const computed = await options.compute(mark !== undefined)
  if (mark === undefined || !computed.keep) return { value: computed.value, kept: false }
  store.set(key, computed.value, estimatedBytes(computed.value))
  return { value: computed.value, mark, kept: false }
}
