import { statSync, type Stats } from 'node:fs'

import { linesFor } from '@codeseam/lsp'
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol/node'

// The stat key documents are compared by, and the smallest change between two texts (document sync's helpers).

/**
 * mtime + ctime + size + inode of a file. Synchronous on purpose: one stat takes microseconds, while a
 * trip through the libuv thread pool costs a tenth of a millisecond per query under load. The times are
 * fractional milliseconds (sub-microsecond resolution at today's dates), finer than most file systems
 * keep; ctime also moves when a write restores an older mtime.
 */
export function statKey(path: string): string | undefined {
  const s = statSync(path, { throwIfNoEntry: false })
  return s !== undefined && s.isFile() ? statKeyOf(s) : undefined
}

/** The key of {@link statKey} from stats already taken (an open file's): a snapshot's `revision`. */
export function statKeyOf(s: Stats): string {
  return `${s.mtimeMs}:${s.ctimeMs}:${s.size}:${s.ino}`
}

/** The file's size in bytes, from a {@link statKeyOf} key. */
export function sizeOf(key: string): number {
  return Number(key.split(':')[2])
}

/** When the file last changed (its ctime), from a {@link statKeyOf} key. */
export function changedAt(key: string): number {
  return Number(key.split(':')[1])
}

/** The smallest single replacement turning `before` (with its content hash) into `after`, for incremental sync. */
export function minimalChange(before: string, beforeHash: string, after: string): TextDocumentContentChangeEvent {
  let start = 0
  const max = Math.min(before.length, after.length)
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++
  let endBefore = before.length
  let endAfter = after.length
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--
    endAfter--
  }
  // Never split a \r\n pair or a surrogate pair: widen by one on either side when in doubt.
  if (start > 0) start--
  if (endBefore < before.length) {
    endBefore++
    endAfter++
  }
  const lines = linesFor({ text: before, hash: beforeHash })
  return { range: { start: lines.positionAt(start), end: lines.positionAt(endBefore) }, text: after.slice(start, endAfter) }
}
