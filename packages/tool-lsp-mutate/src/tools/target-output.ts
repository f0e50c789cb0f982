import { toModelPosition, type ResolvedTarget } from '@codeseam/lsp'
import type { ResolvedTargetOutput } from '@codeseam/tool-lsp'

/** Where a target landed, as results show it (1-based, workspace-relative). */
export function targetOutputOf(resolved: ResolvedTarget): ResolvedTargetOutput {
  const position = toModelPosition(resolved.position)
  return {
    path: resolved.displayPath,
    rootId: resolved.rootId,
    line: position.line,
    column: position.column,
    ...(resolved.symbol === undefined ? {} : { symbol: resolved.symbol.qualifiedName, kind: resolved.symbol.kind }),
    resolvedBy: resolved.resolvedBy,
  }
}
