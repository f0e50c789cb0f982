import type { LspDiagnostic, LspDiagnosticSeverity } from '@codeseam/lsp'
import type * as vscode from 'vscode'

import type { Containment } from '../containment.js'
import { fromVsRange } from './positions.js'

/** VS Code's DiagnosticSeverity counts from 0 (Error = 0 … Hint = 3). */
const severities: ReadonlyArray<LspDiagnosticSeverity> = ['error', 'warning', 'information', 'hint']

/** VS Code's DiagnosticTag: Unnecessary = 1, Deprecated = 2. */
const tagNames: Readonly<Record<number, 'unnecessary' | 'deprecated'>> = { 1: 'unnecessary', 2: 'deprecated' }

/**
 * One VS Code diagnostic as a seam diagnostic. `code` may be a plain value or `{ value, target }`; related
 * information outside the root is dropped (counted by `containment`).
 */
export function toDiagnostic(diagnostic: vscode.Diagnostic, containment: Containment): LspDiagnostic {
  const code = typeof diagnostic.code === 'object' && diagnostic.code !== null ? diagnostic.code.value : diagnostic.code
  const tags = (diagnostic.tags ?? []).flatMap((tag) => (tagNames[tag] ? [tagNames[tag]] : []))
  const related = (diagnostic.relatedInformation ?? []).flatMap((info) => {
    const kept = containment.keep(info.location.uri)
    return kept === undefined ? [] : [{ location: { ...kept, range: fromVsRange(info.location.range) }, message: info.message }]
  })
  return {
    range: fromVsRange(diagnostic.range),
    severity: severities[diagnostic.severity] ?? 'error',
    message: diagnostic.message,
    ...(code !== undefined && code !== null ? { code } : {}),
    ...(diagnostic.source ? { source: diagnostic.source } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    ...(related.length > 0 ? { related } : {}),
  }
}
