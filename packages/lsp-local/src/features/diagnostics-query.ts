import type { LspFileDiagnostics } from '@codeseam/lsp'
import { DocumentDiagnosticReportKind, DocumentDiagnosticRequest, DocumentSymbolRequest } from 'vscode-languageserver-protocol/node'

import { supportsPullDiagnostics } from '../server/capabilities.js'
import { isContentModified } from '../server/requests.js'
import type { DiagnosticsEntry } from '../server/diagnostics.js'
import type { OpenDocument } from '../documents/documents.js'
import type { LanguageServer } from '../server/language-server.js'
import type { Translator } from './translate.js'

/**
 * Diagnostics of one synced document, for its current version: pulled when the server offers
 * textDocument/diagnostic, else the pushed ones after a bounded quiescence window. Freshness says
 * whether they match the document as it is now.
 */
export async function fileDiagnostics(
  server: LanguageServer,
  document: OpenDocument,
  translator: Translator,
  options: {
    deadline: number
    quietMs: number
    timeoutMs: number
    signal: AbortSignal
    /** The profile's `answersWhenAnalysed`: the server pushes diagnostics only when they change (terraform-ls). */
    answersWhenAnalysed?: boolean
  },
): Promise<LspFileDiagnostics> {
  let entry: DiagnosticsEntry | undefined
  let pull = supportsPullDiagnostics(server.capabilities, server.registrations)
  let analysed = false
  if (!pull) {
    let deadline = options.deadline
    if (options.answersWhenAnalysed === true) {
      // The server holds a request until it has analysed the document's module and pushes diagnostics only when
      // they change (a clean file may never get one): once an outline request came back, a push that is not there
      // a quiet window later is not coming, and what it pushed last (or nothing) is current.
      analysed = await server
        .request(
          DocumentSymbolRequest.type,
          { textDocument: { uri: document.uri } },
          { timeoutMs: Math.max(1, options.timeoutMs), signal: options.signal },
        )
        .then(
          () => true,
          () => false,
        )
      if (analysed) deadline = Math.min(deadline, Date.now() + 2 * Math.max(options.quietMs, 100))
    }
    // A server may register pull diagnostics only after initialized: stop waiting for a push once it does.
    const waited = await server.waitForPushOrPull(
      document.uri,
      document.syncSeq,
      document.version,
      options.quietMs,
      deadline,
      options.signal,
    )
    entry = waited.entry
    pull = waited.pullReady && !options.signal.aborted
  }
  if (pull) {
    const report = await pullDiagnostics(server, document, options)
    entry =
      report.kind === DocumentDiagnosticReportKind.Full
        ? server.diagnostics.pulled(document.uri, document.version, report.items)
        : server.diagnostics.unchanged(document.uri, document.version)
  }
  const freshness: LspFileDiagnostics['freshness'] =
    analysed && !pull && !options.signal.aborted
      ? 'current'
      : entry === undefined
        ? 'unknown'
        : entry.version !== undefined
          ? entry.version === document.version
            ? 'current'
            : 'stale'
          : entry.seq > document.syncSeq
            ? 'current'
            : 'stale'
  return {
    uri: document.uri,
    path: document.path,
    version: document.version,
    freshness,
    diagnostics: (entry?.diagnostics ?? []).map((d) => translator.diagnostic(d)),
  }
}

/**
 * One diagnostics pull, asked again (up to three times) while the server answers "content modified": it computed
 * them over a view that changed meanwhile (another document synced), which a busy machine makes likelier.
 */
async function pullDiagnostics(server: LanguageServer, document: OpenDocument, options: { timeoutMs: number; signal: AbortSignal }) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await server.request(
        DocumentDiagnosticRequest.type,
        { textDocument: { uri: document.uri } },
        { timeoutMs: Math.max(1, options.timeoutMs), signal: options.signal },
      )
    } catch (error) {
      if (attempt >= 2 || !isContentModified(error) || options.signal.aborted) throw error
    }
  }
}
