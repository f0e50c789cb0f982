import {
  displayPath,
  LspError,
  type LspProviderRequest,
  type LspQueryRequest,
  type LspQueryResult,
  type LspSearchCoverage,
} from '@codeseam/lsp'

import { recordFor } from '../languages/index.js'
import { languageIdOf } from '../workspace/files.js'
import type { LanguageServer } from '../server/language-server.js'
import { supportsPullDiagnostics } from '../server/capabilities.js'
import { isContentModified } from '../server/requests.js'
import { breachOf, fileLimitError } from '../documents/file-limits.js'
import type { LocalWorkspace } from '../workspace/workspace.js'
import { CodeActionStore } from './code-actions.js'
import { fileDiagnostics } from './diagnostics-query.js'
import { statKeyOf } from '../documents/stat-key.js'
import { diskMeta, goneFiles, settleQuietMs, statOnce, takeInDisk, withoutGone } from './disk-changes.js'
import { runOperation } from './operations.js'
import { acquire, foldersCoverage, requireOperation, resultMeta, type Serving } from './serving.js'
import { featureOf } from './table.js'
import { Translator } from './translate.js'

function isEmpty(result: LspQueryResult): boolean {
  switch (result.kind) {
    case 'locations':
      return result.locations.length === 0
    case 'hover':
      return result.hover === null
    case 'documentSymbols':
    case 'workspaceSymbols':
      return result.symbols.length === 0
    default:
      return false
  }
}

/** Servers whose workspace-wide answers were confirmed stable once (see fileQuery). */
const confirmedServers = new WeakSet<LanguageServer>()

const stores = new WeakMap<LanguageServer, CodeActionStore>()
function actionsOf(server: LanguageServer): CodeActionStore {
  let store = stores.get(server)
  if (store === undefined) stores.set(server, (store = new CodeActionStore()))
  return store
}

/**
 * One file- or item-scoped query against the server for `path`: loads what the operation's record asks for,
 * syncs the document, runs the record, and asks again while an empty answer may only mean "not analysed yet".
 */
export async function fileQuery(
  serving: Serving,
  workspace: LocalWorkspace,
  request: LspProviderRequest<LspQueryRequest>,
  path: string,
  deadline: number,
  signal: AbortSignal,
): Promise<LspQueryResult> {
  const slot = serving.host.slotFor(workspace, serving.profile, path)
  const acquired = await acquire(slot, deadline, signal)
  const { server, release, warm } = acquired
  deadline = acquired.deadline
  try {
    requireOperation(serving, server, request.operation)
    const feature = featureOf(request.operation)
    const everyProject = feature.scope === 'everyProject'
    let coverage: LspSearchCoverage | undefined
    // The disk as it is at the question, whatever wrote to it since the last one (docs/lsp-local.md).
    const caught = [await takeInDisk(serving, server, deadline, signal)]
    if (everyProject)
      coverage = (await serving.host.loadProjects(server, workspace, serving.profile, deadline, signal)) ?? foldersCoverage(serving, server)
    const languageId = languageIdOf(serving.profile, path) || request.languageId
    const document = await server.documents.sync(path, languageId, { snapshot: request.snapshot }).catch((error: unknown) => {
      // A file over a per-file limit (RFC 0013), named as the caller knows it: workspace-relative.
      const breach = breachOf(error)
      throw breach === undefined ? error : fileLimitError(displayPath(workspace.root, path), breach)
    })
    const versionAtStart = document.version
    const hashAtStart = document.hash
    // A position or range was computed on the snapshot the caller read; a newer text synced since (another
    // caller's edit) would put it somewhere else, or past a line's end.
    if (request.snapshot !== undefined && request.snapshot.hash !== document.hash && ('position' in request || 'range' in request)) {
      throw new LspError(
        'STALE_VERSION',
        `${displayPath(workspace.root, path)} changed while the query ran: its position was computed on an older text; ask again`,
        { data: { path } },
      )
    }
    if (request.operation === 'diagnostics') {
      const waitMs = request.waitMs ?? serving.host.config.diagnosticsWaitMs
      // One translator for the diagnostics and the meta, so related locations it dropped are counted.
      const translator = new Translator(workspace.containment)
      const file = await fileDiagnostics(server, document, translator, {
        deadline: Math.min(deadline, Date.now() + waitMs),
        quietMs: serving.host.config.diagnosticsQuietMs,
        timeoutMs: deadline - Date.now(),
        signal,
      })
      return {
        kind: 'diagnostics',
        files: [file],
        coverage: { analysed: [path], eligible: 1, complete: file.freshness === 'current' },
        meta: resultMeta(serving, server, warm, translator, {
          documentVersion: versionAtStart,
          contentHash: hashAtStart,
          ...diskMeta(caught, 0),
        }),
      }
    }
    // Where the language keeps its libraries outside the root (GOROOT, the module cache, the toolchain): named, never read.
    const record = recordFor(serving.profile)
    const libraries = (await record?.libraries?.()) ?? []
    let waitedForAnalysis = false
    let previousAnswer: string | undefined
    let confirmations = 0
    // One bound for every wait on the server's analysis pass (see below).
    let settleWaitUntil: number | undefined
    // One bound for every wait on the server's file status, however often the document turns busy again.
    let fileStatusWaitUntil: number | undefined
    // An answer pointing into a file gone from the disk is asked again once, after taking the disk in again.
    let reaskedForGone = false
    let contentModifiedRetries = 0
    for (;;) {
      const settledWhenAsked = server.analysis.settled
      const translator = new Translator(workspace.containment, libraries, record?.symbolName)
      const asked = runOperation(request, {
        server,
        translator,
        document,
        actions: actionsOf(server),
        timeoutMs: Math.max(1, deadline - Date.now()),
        signal,
        meta: (extra) =>
          resultMeta(serving, server, warm, translator, {
            documentVersion: versionAtStart,
            contentHash: hashAtStart,
            ...(coverage === undefined ? {} : { coverage }),
            ...extra,
          }),
      })
      let answered: LspQueryResult
      try {
        answered = await asked
      } catch (error) {
        // "Content modified" (LSP -32801): the server dropped the answer because its view changed while it
        // computed it (rust-analyzer, taking in a change it was just told of): ask again, as the protocol says.
        if (isContentModified(error) && contentModifiedRetries < 3 && Date.now() < deadline) {
          contentModifiedRetries++
          continue
        }
        throw error
      }
      // A location in a file that is not on the disk now: the server has not taken a deletion in yet (its
      // watch event came after the question was taken in), or never will (a document it keeps). Asked once more
      // after taking the disk in again; what still points there is left out and counted, never returned.
      const stat = statOnce()
      const gone = goneFiles(answered, stat)
      if (gone.size > 0 && !reaskedForGone && Date.now() < deadline) {
        reaskedForGone = true
        caught.push(await takeInDisk(serving, server, deadline, signal))
        continue
      }
      const { result: kept, dropped } = withoutGone(answered, gone)
      const result = { ...kept, meta: { ...kept.meta, ...diskMeta(caught, dropped) } } as LspQueryResult
      // An empty answer while the server is still indexing is not an answer yet: retry once it is quiet.
      if (feature.retryWhenEmpty && isEmpty(result) && Date.now() < deadline) {
        if (server.activeProgress.size > 0) {
          await server.waitForQuiet(deadline, signal)
          continue
        }
        if (server.reportsFileStatus) {
          // A server that reports file status (clangd) has caught up with the document only once it reports
          // it idle after the last sync: diagnostics for the current version prove nothing, since clangd 19
          // publishes them first from the stale preamble of a changed header, answers from that AST, and
          // publishes again after rebuilding the preamble. An empty answer while the document is busy (or
          // not reported since the sync) is asked again once it is idle. An empty answer while it has been
          // idle only for a moment is asked again once it has stayed idle for the quiet window: clangd also
          // reports idle when the change's preamble rebuild is queued but its worker has not started yet.
          fileStatusWaitUntil ??= Math.min(deadline, Date.now() + 10_000)
          const settleMs = server.fileIdle(document.uri) ? serving.host.config.diagnosticsQuietMs : 0
          if (!server.fileIdle(document.uri, settleMs) && Date.now() < fileStatusWaitUntil) {
            await server.waitForFileIdle(document.uri, fileStatusWaitUntil, signal, settleMs)
            continue
          }
        } else {
          // A push server that has not yet published diagnostics for this version has not analysed it
          // (clangd without file status answers from the previous AST right after a change): wait for that,
          // then ask once more.
          const entry = server.diagnostics.get(document.uri)
          const analysed =
            entry !== undefined && entry.seq > document.syncSeq && (entry.version === undefined || entry.version === document.version)
          if (!waitedForAnalysis && !analysed && !supportsPullDiagnostics(server.capabilities, server.registrations)) {
            waitedForAnalysis = true
            await server.waitForPushOrPull(
              document.uri,
              document.syncSeq,
              document.version,
              0,
              Math.min(deadline, Date.now() + 10_000),
              signal,
            )
            continue
          }
        }
      }
      // A server's first workspace-wide answer can come while it is still taking in the workspace it was just
      // given (pyright answered references over part of its program right after start, 146 of 198 on the
      // Python corpus): it is asked again until two answers agree (at most twice more) before it is trusted.
      // Agreement alone proves nothing while the server has not yet been through the analysis pass after its
      // configuration (see AnalysisPasses): pyright puts off finding its files while requests keep coming, and
      // answers alike over the open files meanwhile. An answer asked before that pass is asked again once the
      // server signals it (settled when asked and when answered: the first sign can come after the question),
      // and trusted if the server, left alone for a quiet window, shows it had no pass pending.
      // Only for a server that discovers its files late (the profile says so): the wait costs a second of quiet
      // on the first workspace-wide query of every other server (the native TypeScript server: 1.2 s → 2.3 s).
      const settled = serving.profile.deferredDiscovery !== true || (settledWhenAsked && server.analysis.settled)
      let unsettled = false
      if (everyProject && !confirmedServers.has(server) && Date.now() < deadline) {
        const { meta: _meta, ...answer } = result
        const fingerprint = JSON.stringify(answer)
        const agrees = fingerprint === previousAnswer
        previousAnswer = fingerprint
        if (!agrees && confirmations < 2) {
          confirmations++
          continue
        }
        if (!settled) {
          settleWaitUntil ??= Math.min(deadline, Date.now() + 10_000)
          const outcome = await server.analysis.waitSettled(settleWaitUntil, settleQuietMs, signal)
          if (outcome === 'settled') continue
          unsettled = outcome === 'timeout'
        }
      } else if (everyProject && !confirmedServers.has(server)) {
        unsettled = !settled
      }
      // An answer given before that pass by the end of the wait (or the deadline) is returned as it is, marked as
      // from a server still indexing; the server is trusted from then on, so that one that never signals the
      // pass costs one wait, not one per query.
      if (everyProject) confirmedServers.add(server)
      server.warm = true
      // The file changed on disk while the server worked: one stat, shared with the check of the answer's files.
      const now = stat(document.path)
      const stale = !(now?.isFile() === true && statKeyOf(now) === document.statKey) || document.hash !== hashAtStart
      const marked = unsettled ? { ...result, meta: { ...result.meta, status: 'indexing' as const } } : result
      return stale ? { ...marked, meta: { ...marked.meta, stale: true } } : marked
    }
  } finally {
    release()
  }
}
