import { LspError, TextLines, contentHash, resultMeta, toLspError, type LspPosition, type LspResultMeta } from '@codeseam/lsp'
import type * as vscode from 'vscode'

import type { OperationContext } from './operation-context.js'
import { warmUp } from './readiness.js'

// Re-exported so the operation modules' and the provider's imports keep working.

/** A read's answer and how much to trust it. */
export interface ReadOutcome<T> {
  readonly value: T
  readonly warm: boolean
  readonly status: LspResultMeta['status']
}

/**
 * Runs one VS Code read with the warm-up rules. The first read of a language waits for its extension to
 * analyse the document (see readiness.ts). A language extension that has not answered anything yet may
 * still answer empty while it loads, so an empty answer from a cold language gets exactly one retry, after
 * diagnostics for the document arrive or a bounded wait. A non-empty answer is never retried, and
 * everything shares the operation's one deadline.
 */
export async function warmRead<T>(
  context: OperationContext,
  document: vscode.TextDocument | undefined,
  step: string,
  run: () => Thenable<T>,
  isEmpty: (value: T) => boolean,
): Promise<ReadOutcome<T>> {
  const cold = !context.warmLanguages.has(context.languageId)
  if (cold && document !== undefined) await warmUp(context, document)
  let value = await callCommand(context, step, run)
  if (isEmpty(value) && cold) {
    if (document !== undefined && !context.documents.hasDiagnostics(document)) {
      await context.deadline.waitFor((fire) => context.documents.onDiagnosticsOf(document.uri, fire), context.warmupWaitMs)
    }
    // Within the same budget: if the wait used it up, this fails with TIMEOUT rather than passing off a
    // warm-up answer as the truth.
    value = await callCommand(context, `${step} (warm-up retry)`, run)
  }
  const empty = isEmpty(value)
  if (!empty) context.warmLanguages.add(context.languageId)
  return { value, warm: !cold, status: empty && cold ? 'indexing' : 'ready' }
}

/** Runs one command within the deadline; anything the command throws becomes SERVER_ERROR naming the step. */
export async function callCommand<T>(context: OperationContext, step: string, run: () => Thenable<T>): Promise<T> {
  try {
    return await context.deadline.run(step, run)
  } catch (error) {
    throw toLspError(error, 'SERVER_ERROR', `VS Code failed on ${step}`)
  }
}

/** Validates a seam position against the buffer as VS Code holds it (dirty edits included). */
export function checkPosition(document: vscode.TextDocument, position: LspPosition): void {
  new TextLines(document.getText()).validate(position)
}

/** A document with the version and content hash it had when a query started. */
export interface PinnedDocument {
  readonly document: vscode.TextDocument
  readonly version: number
  readonly hash: string
}

/** Records what a query is about to be computed against. */
export function pin(document: vscode.TextDocument): PinnedDocument {
  return { document, version: document.version, hash: contentHash(document.getText()) }
}

/**
 * Result metadata for an answer computed against `pinned` (when there is one). A buffer that changed while
 * the query ran makes the answer stale: its positions may be off.
 */
export function metaFor(
  context: OperationContext,
  outcome: { readonly warm: boolean; readonly status: LspResultMeta['status'] },
  pinned?: PinnedDocument,
  extra: Partial<LspResultMeta> = {},
): LspResultMeta {
  return resultMeta(context.providerId, {
    status: outcome.status,
    warm: outcome.warm,
    ...(pinned ? { documentVersion: pinned.version, contentHash: pinned.hash } : {}),
    ...(pinned && pinned.document.version !== pinned.version ? { stale: true } : {}),
    ...context.containment.meta(),
    ...extra,
  })
}

/** An error for a request whose follow-up item or id this session cannot continue from. */
export function cannotContinue(what: string, why: string): LspError {
  return new LspError('NOT_FOUND', `${what}: ${why}; run the preparing operation again and pass its fresh result`)
}
