import {
  displayPath,
  inSpan,
  resolveInRoot,
  TelemetryAttr,
  TelemetrySpan,
  toLspError,
  type LspService,
  type LspWorkspace,
} from '@codeseam/lsp'
import { languageDiagnosticsLimits, quoteDiagnosticsLimit } from '@codeseam/tool-lsp'

import { diagnosticDelta, positionMap, speculatedSnapshots, type FileDiagnosticsSnapshot, type PositionMap } from './diagnostics.js'
import type { BuiltPreview } from './preview.js'
import type { DiagnosticDelta } from './receipt.js'

/**
 * What a transaction checks besides writing (RFC 0018): which files' diagnostics (touched, then the impact
 * set, up to a limit), the prediction of an edit from a speculative check, and the position maps that match
 * diagnostics before and after.
 */

/** Which files a transaction checks (see MutationSession.checkedFiles). */
export interface CheckedFiles {
  readonly before: ReadonlyArray<string>
  readonly after: ReadonlyArray<string>
  readonly impact: number
  readonly notChecked: ReadonlyArray<string>
}

/**
 * What the checked files' diagnostics cannot see, per language (`LspLanguageFacts.diagnosticsLimit`), e.g.
 * rust-analyzer without `cargo check`: quoted by the receipt next to its counts.
 */
export function diagnosticsLimits(lsp: LspService, paths: ReadonlyArray<string>): string[] {
  return languageDiagnosticsLimits(lsp, paths).map(quoteDiagnosticsLimit)
}

export function withChecked(delta: DiagnosticDelta, checks: CheckedFiles, limits: ReadonlyArray<string> = []): DiagnosticDelta {
  // A file counts as checked when its diagnostics after the edit were read (not `unavailable`).
  const files = delta.files.filter((f) => f.after !== 'unavailable').length
  return {
    ...delta,
    checked: { files, impact: checks.impact, notChecked: checks.notChecked, ...(limits.length === 0 ? {} : { limits: [...limits] }) },
  }
}

/** Position maps of every modified file with one edit operation. */
export function positionMaps(built: BuiltPreview): Map<string, PositionMap> {
  const maps = new Map<string, PositionMap>()
  for (const [path, edits] of built.textEdits) {
    const before = built.basis.get(path)?.text
    const after = built.contents.get(path)
    if (before !== undefined && after !== undefined) maps.set(path, positionMap(before, after, edits))
  }
  return maps
}

/**
 * The files whose diagnostics a transaction checks: every touched file, then the impact set, up to
 * `maxCheckedFiles`. `before` are paths as they are now, `after` as they will be (renamed files moved).
 */
export function checkedFiles(workspace: LspWorkspace, built: BuiltPreview, impact: ReadonlyArray<string>, limit: number): CheckedFiles {
  const touched = [...built.basis.keys()]
  const survivors = new Set(built.survivors)
  const extra = [...new Set(impact.map((p) => resolveInRoot(workspace.root, p)))].filter((p) => !built.basis.has(p) && !survivors.has(p))
  const all = [...touched, ...extra]
  const kept = all.slice(0, Math.max(limit, touched.length))
  const keptSet = new Set(kept)
  const impactKept = extra.filter((p) => keptSet.has(p))
  return {
    before: kept,
    after: [...new Set([...built.survivors, ...impactKept])],
    impact: impactKept.length,
    notChecked: all.filter((p) => !keptSet.has(p)).map((p) => displayPath(workspace.root, p)),
  }
}

/** The diagnostics the edit would introduce, from a speculative check of the servers' in-memory documents. */
export async function predictDiagnostics(
  lsp: LspService,
  root: string,
  built: BuiltPreview,
  checks: CheckedFiles,
  before: ReadonlyMap<string, FileDiagnosticsSnapshot>,
  maps: ReadonlyMap<string, PositionMap>,
  waitMs: number,
  signal: AbortSignal,
  notes: string[],
): Promise<DiagnosticDelta | undefined> {
  if (built.preview.resourceOperations.length > 0) {
    notes.push('not predicted: edits that create, rename or delete files are checked only after they are written')
    return undefined
  }
  try {
    const result = await inSpan(TelemetrySpan.postDiagnostics, { [TelemetryAttr.diagnosticsPhase]: 'predicted' }, () =>
      lsp.speculate({ root, documents: [...built.contents].map(([path, text]) => ({ path, text })), paths: checks.after, waitMs }, signal),
    )
    if (result.files.every((f) => f.freshness === 'unavailable')) {
      const why = [...new Set(result.files.map((f) => f.note).filter((n) => n !== undefined))].join('; ')
      notes.push(`not predicted: no file could be checked in memory${why === '' ? '' : ` (${why})`}`)
      return undefined
    }
    return withChecked(
      diagnosticDelta(root, before, speculatedSnapshots(result), built.renamed, maps),
      checks,
      diagnosticsLimits(lsp, checks.after),
    )
  } catch (cause) {
    if (signal.aborted) throw cause
    const error = toLspError(cause, 'SERVER_ERROR', 'speculate')
    notes.push(`not predicted: the in-memory check failed (${error.code}: ${error.message})`)
    return undefined
  }
}
