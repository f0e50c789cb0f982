import type { LspQueryResult } from '@codeseam/lsp'

import type { OpenDocument } from '../documents/documents.js'
import { supportsPullDiagnostics } from '../server/capabilities.js'
import type { LanguageServer } from '../server/language-server.js'
import { settleQuietMs } from './disk-changes.js'
import type { Serving } from './serving.js'

// When an answer is not an answer yet: an empty one from a server that has not analysed the document, and a
// server's first workspace-wide answer before it has taken in the workspace (the waits of fileQuery).

/** Servers whose workspace-wide answers were confirmed stable once (see {@link confirmFirstAnswer}). */
export const confirmedServers = new WeakSet<LanguageServer>()

/** What the waits of one question have spent, across its rounds. */
export interface AnalysisWaits {
  waitedForAnalysis: boolean
  /** One bound for every wait on the server's file status, however often the document turns busy again. */
  fileStatusWaitUntil?: number
}

/**
 * An empty answer may only mean "not analysed yet": waits for what says the server has analysed the document and
 * returns true to ask again, false when the empty answer stands.
 */
export async function notAnalysedYet(
  server: LanguageServer,
  document: OpenDocument,
  quietMs: number,
  waits: AnalysisWaits,
  deadline: number,
  signal: AbortSignal,
): Promise<boolean> {
  if (server.activeProgress.size > 0) {
    await server.waitForQuiet(deadline, signal)
    return true
  }
  if (server.reportsFileStatus) {
    // A server that reports file status (clangd) has caught up with the document only once it reports
    // it idle after the last sync: diagnostics for the current version prove nothing, since clangd 19
    // publishes them first from the stale preamble of a changed header, answers from that AST, and
    // publishes again after rebuilding the preamble. An empty answer while the document is busy (or
    // not reported since the sync) is asked again once it is idle. An empty answer while it has been
    // idle only for a moment is asked again once it has stayed idle for the quiet window: clangd also
    // reports idle when the change's preamble rebuild is queued but its worker has not started yet.
    const until = (waits.fileStatusWaitUntil ??= Math.min(deadline, Date.now() + 10_000))
    const settleMs = server.fileIdle(document.uri) ? quietMs : 0
    if (!server.fileIdle(document.uri, settleMs) && Date.now() < until) {
      await server.waitForFileIdle(document.uri, until, signal, settleMs)
      return true
    }
    return false
  }
  // A push server that has not yet published diagnostics for this version has not analysed it
  // (clangd without file status answers from the previous AST right after a change): wait for that,
  // then ask once more.
  const entry = server.diagnostics.get(document.uri)
  const analysed =
    entry !== undefined && entry.seq > document.syncSeq && (entry.version === undefined || entry.version === document.version)
  if (waits.waitedForAnalysis || analysed || supportsPullDiagnostics(server.capabilities, server.registrations)) return false
  waits.waitedForAnalysis = true
  await server.waitForPushOrPull(document.uri, document.syncSeq, document.version, 0, Math.min(deadline, Date.now() + 10_000), signal)
  return true
}

/** The rounds of a server's first workspace-wide answer (see {@link confirmFirstAnswer}). */
export interface Confirmation {
  confirmations: number
  previousAnswer?: string
  /** One bound for every wait on the server's analysis pass. */
  settleWaitUntil?: number
}

/**
 * A server's first workspace-wide answer can come while it is still taking in the workspace it was just
 * given (pyright answered references over part of its program right after start, 146 of 198 on the
 * Python corpus): it is asked again until two answers agree (at most twice more) before it is trusted.
 * Agreement alone proves nothing while the server has not yet been through the analysis pass after its
 * configuration (see AnalysisPasses): pyright puts off finding its files while requests keep coming, and
 * answers alike over the open files meanwhile. An answer asked before that pass is asked again once the
 * server signals it (settled when asked and when answered: the first sign can come after the question),
 * and trusted if the server, left alone for a quiet window, shows it had no pass pending.
 * Only for a server that discovers its files late (the profile says so): the wait costs a second of quiet
 * on the first workspace-wide query of every other server (the native TypeScript server: 1.2 s → 2.3 s).
 * Returns 'again' to ask once more, or whether the answer stands unsettled (the wait ran out).
 */
export async function confirmFirstAnswer(
  serving: Serving,
  server: LanguageServer,
  result: LspQueryResult,
  settledWhenAsked: boolean,
  confirmation: Confirmation,
  deadline: number,
  signal: AbortSignal,
): Promise<'again' | { readonly unsettled: boolean }> {
  const settled = serving.profile.deferredDiscovery !== true || (settledWhenAsked && server.analysis.settled)
  if (Date.now() >= deadline) return { unsettled: !settled }
  const { meta: _meta, ...answer } = result
  const fingerprint = JSON.stringify(answer)
  const agrees = fingerprint === confirmation.previousAnswer
  confirmation.previousAnswer = fingerprint
  if (!agrees && confirmation.confirmations < 2) {
    confirmation.confirmations++
    return 'again'
  }
  if (settled) return { unsettled: false }
  confirmation.settleWaitUntil ??= Math.min(deadline, Date.now() + 10_000)
  const outcome = await server.analysis.waitSettled(confirmation.settleWaitUntil, settleQuietMs, signal)
  return outcome === 'settled' ? 'again' : { unsettled: outcome === 'timeout' }
}
