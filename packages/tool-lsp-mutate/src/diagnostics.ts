import {
  displayPath,
  TextLines,
  toLspError,
  type LspDiagnostic,
  type LspPosition,
  type LspService,
  type LspSpeculationResult,
  type LspTextEdit,
} from '@codeseam/lsp'

import type { DiagnosticDelta, ReceiptDiagnostic, ReceiptDiagnosticsFile } from './receipt.js'

/**
 * Diagnostic snapshots of the files a transaction touches, before and after it writes, and the delta
 * between them. Waiting for fresh diagnostics is the provider's bounded `waitMs` (tied to the document's
 * current version), never a sleep here.
 */

/** Diagnostics of one file at one moment. */
export interface FileDiagnosticsSnapshot {
  readonly path: string
  readonly freshness: 'current' | 'stale' | 'unknown' | 'unavailable'
  readonly diagnostics: ReadonlyArray<LspDiagnostic>
  readonly note?: string
}

/** Reads the diagnostics of each file (absolute paths), in parallel; a failure is recorded, never thrown. */
export async function snapshotDiagnostics(
  lsp: LspService,
  root: string,
  paths: ReadonlyArray<string>,
  waitMs: number,
  signal?: AbortSignal,
): Promise<Map<string, FileDiagnosticsSnapshot>> {
  const entries = await Promise.all(
    paths.map(async (path): Promise<[string, FileDiagnosticsSnapshot]> => {
      if (!lsp.operationsFor(path).includes('diagnostics')) {
        return [path, { path, freshness: 'unavailable', diagnostics: [], note: 'no language provider reports diagnostics for this file' }]
      }
      try {
        const result = await lsp.query({ operation: 'diagnostics', root, path, waitMs }, signal)
        const file = result.files.find((f) => f.path === path) ?? result.files[0]
        if (file === undefined)
          return [path, { path, freshness: 'unknown', diagnostics: [], note: 'the provider returned no entry for this file' }]
        return [path, { path, freshness: file.freshness, diagnostics: file.diagnostics }]
      } catch (cause) {
        const error = toLspError(cause, 'SERVER_ERROR', 'diagnostics')
        return [path, { path, freshness: 'unavailable', diagnostics: [], note: `${error.code}: ${error.message}` }]
      }
    }),
  )
  return new Map(entries)
}

/** Maps a position in a file's old text to the new text through the edit's text edits (all against the old text). */
export type PositionMap = (position: LspPosition) => LspPosition

/**
 * The position map of one edited file: a position after an edit moves by what the edit added or removed; a
 * position inside an edited span goes to the span's new start.
 */
export function positionMap(before: string, after: string, edits: ReadonlyArray<LspTextEdit>): PositionMap {
  const old = new TextLines(before)
  const now = new TextLines(after)
  const spans = edits
    .map((e) => ({ start: old.offsetAt(e.range.start), end: old.offsetAt(e.range.end), length: e.newText.length }))
    .sort((a, b) => a.start - b.start || a.end - b.end)
  return (position) => {
    const offset = old.offsetAt(position)
    let shift = 0
    for (const span of spans) {
      if (span.end <= offset) {
        shift += span.length - (span.end - span.start)
        continue
      }
      if (span.start <= offset) return now.positionAt(span.start + shift)
      break
    }
    return now.positionAt(offset + shift)
  }
}

/** A speculative check's answer as snapshots, one per path. */
export function speculatedSnapshots(result: LspSpeculationResult): Map<string, FileDiagnosticsSnapshot> {
  return new Map(
    result.files.map((file) => [
      file.path,
      {
        path: file.path,
        freshness: file.freshness,
        diagnostics: file.diagnostics,
        ...(file.note === undefined ? {} : { note: file.note }),
      },
    ]),
  )
}

/**
 * A diagnostic's identity: file (by the map it is in), severity, source, code, message and its start position
 * — for the old snapshot, mapped through the edit — so a line shift is no change but the same message at a
 * new place is (documented in docs/mutations.md).
 */
function identity(d: LspDiagnostic, map?: PositionMap): string {
  const start = map === undefined ? d.range.start : map(d.range.start)
  return [d.severity, d.source ?? '', String(d.code ?? ''), d.message, start.line, start.character].join('\u0000')
}

function toReceipt(root: string, path: string, d: LspDiagnostic): ReceiptDiagnostic {
  return {
    path: displayPath(root, path),
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: d.severity,
    message: d.message,
    ...(d.code === undefined ? {} : { code: d.code }),
    ...(d.source === undefined ? {} : { source: d.source }),
  }
}

/**
 * Introduced / resolved / persisting diagnostics between two snapshots. `renamed` maps an old path to its
 * new path for files a transaction moved.
 */
export function diagnosticDelta(
  root: string,
  before: ReadonlyMap<string, FileDiagnosticsSnapshot>,
  after: ReadonlyMap<string, FileDiagnosticsSnapshot>,
  renamed: ReadonlyMap<string, string> = new Map(),
  maps: ReadonlyMap<string, PositionMap> = new Map(),
): DiagnosticDelta {
  const introduced: ReceiptDiagnostic[] = []
  const resolved: ReceiptDiagnostic[] = []
  const persisting: ReceiptDiagnostic[] = []
  const files: ReceiptDiagnosticsFile[] = []
  const paths = new Set<string>([...before.keys()].map((p) => renamed.get(p) ?? p))
  for (const path of after.keys()) paths.add(path)
  const originalOf = new Map([...renamed].map(([from, to]) => [to, from]))
  for (const path of paths) {
    const old = before.get(originalOf.get(path) ?? path)
    const now = after.get(path)
    const remaining = new Map<string, LspDiagnostic[]>()
    const map = maps.get(originalOf.get(path) ?? path)
    for (const d of old?.diagnostics ?? []) {
      const key = identity(d, map)
      remaining.set(key, [...(remaining.get(key) ?? []), d])
    }
    for (const d of now?.diagnostics ?? []) {
      const bucket = remaining.get(identity(d))
      if (bucket !== undefined && bucket.length > 0) {
        bucket.shift()
        persisting.push(toReceipt(root, path, d))
      } else introduced.push(toReceipt(root, path, d))
    }
    for (const bucket of remaining.values()) for (const d of bucket) resolved.push(toReceipt(root, path, d))
    const notes = [old?.note, now?.note].filter((n): n is string => n !== undefined)
    files.push({
      path: displayPath(root, path),
      before: old?.freshness ?? 'unavailable',
      after: now?.freshness ?? 'unavailable',
      ...(notes.length === 0 ? {} : { note: notes.join('; ') }),
    })
  }
  const settled = files.every(
    (f) => f.after === 'current' || (f.after === 'unavailable' && f.note?.startsWith('no language provider') === true),
  )
  return { introduced, resolved, persisting, files, settled }
}
