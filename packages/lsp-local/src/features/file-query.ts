import {
  displayPath,
  LspError,
  type LspProviderRequest,
  type LspQueryRequest,
  type LspQueryResult,
  type LspSearchCoverage,
} from '@codeseam/lsp'
import { context } from '@opentelemetry/api'

import { declaringFiles } from './declared-in.js'
import { recordFor } from '../languages/index.js'
import { languageIdOf } from '../profile/files.js'
import type { ServerProfile } from '../profile/profiles.js'
import type { LanguageServer } from '../server/language-server.js'
import { isContentModified } from '../server/requests.js'
import { breachOf, fileLimitError } from '../documents/file-limits.js'
import type { LocalWorkspace } from '../workspace/workspace.js'
import { CodeActionStore } from './code-actions.js'
import { fileDiagnostics } from './diagnostics-query.js'
import { statKeyOf } from '../documents/stat-key.js'
import type { OpenDocument } from '../documents/documents.js'
import type { CatchUp } from '../workspace/disk-sync.js'
import { answersOnceLoaded } from '../workspace/project-load-parts.js'
import { confirmFirstAnswer, confirmedServers, notAnalysedYet, type AnalysisWaits, type Confirmation } from './answer-waits.js'
import { diskMeta, goneFiles, statOnce, takeInDisk, withoutGone } from './disk-changes.js'
import { runOperation } from './operations.js'
import { acquire, foldersCoverage, requireOperation, resultMeta, type Serving } from './serving.js'
import { featureOf } from './table.js'
import { scopeOf, type LocationScope } from './location-scope.js'
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

const stores = new WeakMap<LanguageServer, CodeActionStore>()
function actionsOf(server: LanguageServer): CodeActionStore {
  let store = stores.get(server)
  if (store === undefined) stores.set(server, (store = new CodeActionStore()))
  return store
}

/**
 * The caller's question refused by the profile's record (`refusedFor`): what the server answers wrongly for a
 * file's language. Asked at the provider's entry only, so the native questions a derivation or a companion
 * composition asks on the caller's behalf (a base in a class header) are not refused.
 */
export function refuseForLanguage(profile: ServerProfile, request: LspProviderRequest<LspQueryRequest>): void {
  const refusedFor = recordFor(profile)?.refusedFor
  if (refusedFor === undefined) return
  const target = 'item' in request ? request.item.path : 'path' in request ? request.path : undefined
  if (typeof target !== 'string') return
  const languageId = languageIdOf(profile, target) || request.languageId
  const refused = refusedFor[languageId]?.[request.operation]
  if (refused !== undefined)
    throw new LspError(
      'UNSUPPORTED_OPERATION',
      `the ${profile.id} server does not answer ${request.operation} for ${languageId} files: ${refused}`,
      {
        data: { profile: profile.id, operation: request.operation, languageId },
      },
    )
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
  // The other open roots of the request's workspace: a server that shares them answers across them (RFC 0025).
  const group = await serving.host.sharingGroup(workspace, request.workspaceRoots, serving.profile)
  const slot = serving.host.slotFor(workspace, serving.profile, path, group)
  const acquired = await acquire(slot, deadline, signal)
  const scope = scopeOf([workspace, ...group.filter((other) => slot.servesRoot(other.root))].map((w) => w.containment))
  const { server, release, warm } = acquired
  deadline = acquired.deadline
  let resume: (() => void) | undefined
  try {
    requireOperation(serving, server, request.operation)
    const languageId = languageIdOf(serving.profile, path) || request.languageId
    const feature = featureOf(request.operation)
    const everyProject = feature.scope === 'everyProject'
    let coverage: LspSearchCoverage | undefined
    // The disk as it is at the question, whatever wrote to it since the last one (docs/lsp-local.md).
    const caught = [await takeInDisk(serving, workspace, server, deadline, signal)]
    if (everyProject) {
      // What can reach the file first (RFC 0035); the rest loads in the background, paused while this question runs.
      // At a position, what can reach the file that declares what it names (asked of the server once the file is open).
      // The question asks it, not the load (which may end first): its request span is the question's child.
      const declaredIn =
        'position' in request
          ? context.bind(context.active(), () => declaringFiles(server, path, languageId, request.position, deadline, signal))
          : undefined
      coverage =
        (await serving.host.loadProjects(server, workspace, serving.profile, deadline, signal, group, path, declaredIn)) ??
        foldersCoverage(serving, server)
      resume = serving.host.pauseLoading(server)
    } else if (serving.host.loadsBefore(serving.profile, request.operation)) {
      // Its answer about this file depends on what the server analysed of other files (terraform-ls's module calls).
      await serving.host.loadProjects(server, workspace, serving.profile, deadline, signal, group)
    }
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
    if (request.operation === 'diagnostics')
      return diagnosticsAnswer(serving, server, warm, scope, request, document, caught, deadline, signal)
    // Where the language keeps its libraries outside the root (GOROOT, the module cache, the toolchain): named, never read.
    const record = recordFor(serving.profile)
    const libraries = (await record?.libraries?.()) ?? []
    const waits: AnalysisWaits = { waitedForAnalysis: false }
    const confirmation: Confirmation = { confirmations: 0 }
    // An answer pointing into a file gone from the disk is asked again once, after taking the disk in again.
    let reaskedForGone = false
    let contentModifiedRetries = 0
    for (;;) {
      const settledWhenAsked = server.analysis.settled
      const translator = new Translator(scope, libraries, record?.symbolName)
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
        caught.push(await takeInDisk(serving, workspace, server, deadline, signal))
        continue
      }
      const { result: kept, dropped } = withoutGone(answered, gone)
      const result = { ...kept, meta: { ...kept.meta, ...diskMeta(caught, dropped) } } as LspQueryResult
      // An empty answer while the server is still indexing is not an answer yet: retry once it is quiet.
      if (feature.retryWhenEmpty && serving.profile.answersWhenAnalysed !== true && isEmpty(result) && Date.now() < deadline) {
        if (await notAnalysedYet(server, document, serving.host.config.diagnosticsQuietMs, waits, deadline, signal)) continue
      }
      let unsettled = false
      // A server that loads a project as its file opens answers over what the load opened at once (the TypeScript
      // servers): asking it again to confirm its first answer would only repeat the search.
      if (everyProject && !confirmedServers.has(server) && !answersOnceLoaded(server)) {
        const confirmed = await confirmFirstAnswer(serving, server, result, settledWhenAsked, confirmation, deadline, signal)
        if (confirmed === 'again') continue
        unsettled = confirmed.unsettled
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
    resume?.()
    release()
  }
}

/** One file's diagnostics, for the document as synced at the question (see fileDiagnostics). */
async function diagnosticsAnswer(
  serving: Serving,
  server: LanguageServer,
  warm: boolean,
  scope: LocationScope,
  request: Extract<LspQueryRequest, { operation: 'diagnostics' }>,
  document: OpenDocument,
  caught: ReadonlyArray<CatchUp>,
  deadline: number,
  signal: AbortSignal,
): Promise<LspQueryResult> {
  const [versionAtStart, hashAtStart] = [document.version, document.hash]
  const waitMs = request.waitMs ?? serving.host.config.diagnosticsWaitMs
  // One translator for the diagnostics and the meta, so related locations it dropped are counted.
  const translator = new Translator(scope)
  const file = await fileDiagnostics(server, document, translator, {
    deadline: Math.min(deadline, Date.now() + waitMs),
    quietMs: serving.host.config.diagnosticsQuietMs,
    timeoutMs: deadline - Date.now(),
    signal,
    answersWhenAnalysed: serving.profile.answersWhenAnalysed === true,
  })
  return {
    kind: 'diagnostics',
    files: [file],
    coverage: { analysed: [document.path], eligible: 1, complete: file.freshness === 'current' },
    meta: resultMeta(serving, server, warm, translator, {
      documentVersion: versionAtStart,
      contentHash: hashAtStart,
      ...diskMeta(caught, 0),
    }),
  }
}
