import { isLspError, type LspError, type LspResultFor, type LspWorkspaceInfo, type ResolvedFile } from '@codeseam/lsp'

import type { ToolContext } from './definition.js'
import { completeAnswer } from './kept-answers.js'
import { rootFailureReason, type SearchGap } from './targeting.js'

/** The diagnostics answers `code_diagnostics` pages through: one per root asked (or the one file), and the roots that failed. */
export interface DiagnosticsAnswers {
  readonly answers: ReadonlyArray<{ readonly root: string; readonly rootId: string; readonly result: LspResultFor<'diagnostics'> }>
  readonly gaps: ReadonlyArray<SearchGap>
}

/**
 * Asks for one file's diagnostics, or every root's. A root whose query fails is a named gap; the other roots'
 * diagnostics stay. All failing is a failure.
 */
export async function askDiagnostics(
  context: ToolContext,
  file: ResolvedFile | undefined,
  roots: ReadonlyArray<LspWorkspaceInfo>,
  maxFiles: number | undefined,
): Promise<DiagnosticsAnswers> {
  if (file !== undefined) {
    const result = await context.lsp.query({ operation: 'diagnostics', root: file.workspace.root, path: file.path }, context.signal)
    return { answers: [{ root: file.workspace.root, rootId: file.workspace.id, result }], gaps: [] }
  }
  const answers: Array<DiagnosticsAnswers['answers'][number]> = []
  const gaps: SearchGap[] = []
  let firstError: LspError | undefined
  for (const root of roots) {
    try {
      answers.push({
        root: root.root,
        rootId: root.id,
        result: await context.lsp.query(
          { operation: 'diagnostics', root: root.root, ...(maxFiles === undefined ? {} : { maxFiles }) },
          context.signal,
        ),
      })
    } catch (error) {
      if (!isLspError(error) || error.code === 'CANCELLED' || error.code === 'DISPOSED' || context.signal.aborted) throw error
      firstError ??= error
      gaps.push({ where: root.id, why: rootFailureReason(error, root.root) })
    }
  }
  if (answers.length === 0 && firstError !== undefined) throw firstError
  return { answers, gaps }
}

/**
 * Whether the answers may be kept for later pages (RFC 0026): every root answered, completely, with diagnostics
 * computed for every file as it is now (asking again would give the same answer).
 */
export function keepableDiagnostics(asked: DiagnosticsAnswers): boolean {
  return (
    asked.gaps.length === 0 &&
    asked.answers.every(
      (a) => completeAnswer(a.result.meta) && a.result.coverage.complete && a.result.files.every((f) => f.freshness === 'current'),
    )
  )
}
