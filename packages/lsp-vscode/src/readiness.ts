import * as vscode from 'vscode'

import type { OperationContext } from './operation-context.js'

/**
 * How the adapter tells that a language extension has analysed a document. VS Code has no readiness API;
 * the one signal every extension gives is its diagnostics report, and VS Code's TypeScript support only
 * validates documents shown in an editor and reports in rounds (syntax first, semantics once the project
 * is loaded). Until then it answers from a partial "syntax server" that only knows open files.
 */

/** Whether a document is shown in any editor tab. */
export function isShownInTab(uri: vscode.Uri): boolean {
  const key = uri.toString()
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => (tab.input as { uri?: vscode.Uri } | undefined)?.uri?.toString() === key),
  )
}

/** Shows a document in a preview tab without taking focus, when allowed and not shown yet. */
export async function reveal(context: OperationContext, document: vscode.TextDocument): Promise<void> {
  if (!context.revealForDiagnostics || isShownInTab(document.uri)) return
  await context.deadline.run(`showing ${document.uri.fsPath} so its extension analyses it`, () =>
    vscode.window.showTextDocument(document, { preview: true, preserveFocus: true }),
  )
}

/**
 * Waits (until `until`, within the operation's budget) for the document's diagnostics: a first report when
 * none belongs to its current version, then quiet for `diagnosticsSettleMs` (later rounds may follow).
 */
export async function awaitDiagnostics(context: OperationContext, document: vscode.TextDocument, until: number): Promise<void> {
  const { documents, deadline } = context
  if (documents.freshness(document).freshness !== 'current') {
    await deadline.waitFor((fire) => documents.onDiagnosticsOf(document.uri, fire), until - Date.now())
  }
  for (;;) {
    const quietFor = documents.sinceLastReport(document.uri)
    const left = until - Date.now()
    if (quietFor >= context.diagnosticsSettleMs || left <= 0) return
    const changed = await deadline.waitFor(
      (fire) => documents.onDiagnosticsOf(document.uri, fire),
      Math.min(context.diagnosticsSettleMs - quietFor, left),
    )
    if (!changed && documents.sinceLastReport(document.uri) >= context.diagnosticsSettleMs) return
  }
}

/**
 * The first query of a language in a session waits for that language's extension to finish analysing the
 * document (shown, diagnostics reported and settled; at most `warmupWaitMs`), so it is not answered from a
 * half-loaded project. Tried once per language: a language whose extension reports no diagnostics pays
 * the wait once.
 */
export async function warmUp(context: OperationContext, document: vscode.TextDocument): Promise<void> {
  if (context.warmLanguages.has(context.languageId) || context.warmUpTried.has(context.languageId)) return
  context.warmUpTried.add(context.languageId)
  if (context.warmupWaitMs <= 0) return
  await reveal(context, document)
  await awaitDiagnostics(context, document, Date.now() + context.warmupWaitMs)
  if (context.documents.hasDiagnostics(document)) context.warmLanguages.add(context.languageId)
}
