import * as nodePath from 'node:path'

import {
  LspError,
  extensionOf,
  operationInfo,
  type LspDiagnosticsCoverage,
  type LspFileDiagnostics,
  type LspOperation,
  type LspProvider,
  type LspProviderRequest,
  type LspProviderStatus,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultFor,
  type LspResultMeta,
  type LspSearchCoverage,
} from '@codeseam/lsp'
import { WorkspaceSymbolRequest } from 'vscode-languageserver-protocol/node'

import { supportsOperation } from './features/capabilities.js'
import { supportsPullDiagnostics } from './server/capabilities.js'
import { CodeActionStore } from './features/code-actions.js'
import { fileDiagnostics } from './features/diagnostics-query.js'
import type { HostCore } from './pool/host-core.js'
import type { LanguageServer } from './server/language-server.js'
import { runOperation } from './features/operations.js'
import { featureOf } from './features/table.js'
import type { ServerProfile } from './policy/profiles.js'
import type { ServerSlot } from './pool/slot.js'
import { Translator } from './features/translate.js'
import type { LocalWorkspace } from './workspace/workspace.js'

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

/** The seam provider for one profile: routes each request to the (project root, profile) server. */
export class ProfileProvider implements LspProvider {
  readonly id: string
  readonly extensions: Readonly<Record<string, string>>
  readonly operations: ReadonlyArray<LspOperation>

  constructor(
    readonly profile: ServerProfile,
    private readonly host: HostCore,
    operations: ReadonlyArray<LspOperation>,
  ) {
    this.id = `local:${profile.id}`
    this.extensions = profile.extensions
    this.operations = operations
  }

  status(): ReadonlyArray<LspProviderStatus> {
    return this.host.statusOf(this.profile)
  }

  onStatusChange(listener: (status: LspProviderStatus) => void): () => void {
    return this.host.onStatus(this.profile.id, listener)
  }

  async query<R extends LspQueryRequest>(request: LspProviderRequest<R>, signal: AbortSignal): Promise<LspResultFor<R['operation']>> {
    if (this.profile.unavailable !== undefined) {
      // A whole-workspace question to a server that is not installed: only a root holding files of its
      // languages is missing something; elsewhere the empty answer is the whole truth.
      const hasPath = 'path' in request && typeof request.path === 'string'
      const scope = operationInfo[request.operation].scope
      if (
        (scope === 'workspace' || (scope === 'fileOrWorkspace' && !hasPath)) &&
        !(await this.host.hasEligibleFiles(this.host.workspaceFor(request.root), this.profile))
      ) {
        return this.emptyWorkspaceAnswer(request.operation) as LspResultFor<R['operation']>
      }
      throw new LspError('UNAVAILABLE', `the ${this.profile.id} language server is unavailable: ${this.profile.unavailable}`, {
        data: { profile: this.profile.id },
      })
    }
    const started = performance.now()
    const deadline = Date.now() + this.host.config.requestTimeoutMs
    const workspace = this.host.workspaceFor(request.root)
    const scope = operationInfo[request.operation].scope
    const hasPath = 'path' in request && typeof request.path === 'string'
    let result: LspQueryResult
    if (scope === 'workspace' || (scope === 'fileOrWorkspace' && !hasPath)) {
      result =
        request.operation === 'workspaceSymbols'
          ? await this.workspaceSymbols(workspace, request.query, deadline, signal)
          : await this.workspaceDiagnostics(
              workspace,
              request as LspProviderRequest<Extract<LspQueryRequest, { operation: 'diagnostics' }>>,
              deadline,
              signal,
            )
    } else {
      // The seam resolved and contained the file for this root already (request.file); only a request made
      // without an open workspace at its root is contained here.
      const target = scope === 'item' ? (request as { item: { path: string } }).item.path : (request as { path: string }).path
      const path = request.file?.root === workspace.root ? request.file.path : workspace.containment.input(target)
      result = await this.fileQuery(workspace, request, path, deadline, signal)
    }
    // A memory restart since the last result: say so once, in this result's meta.
    const degraded = this.host.takeNotices(workspace.root, this.profile.id).length > 0
    return {
      ...result,
      meta: { ...result.meta, ...(degraded ? { status: 'degraded' as const } : {}), elapsedMs: performance.now() - started },
    } as LspResultFor<R['operation']>
  }

  /** The answer of a profile with nothing to serve under the root. */
  private emptyWorkspaceAnswer(operation: LspOperation): LspQueryResult {
    const meta: LspResultMeta = { providerId: this.id, status: 'ready', warm: true, truncated: false, elapsedMs: 0 }
    return operation === 'workspaceSymbols'
      ? { kind: 'workspaceSymbols', symbols: [], meta }
      : { kind: 'diagnostics', files: [], coverage: { analysed: [], eligible: 0, complete: true }, meta }
  }

  private async acquire(
    slot: ServerSlot,
    deadline: number,
    signal: AbortSignal,
  ): Promise<{ server: LanguageServer; release: () => void; warm: boolean }> {
    const release = slot.use()
    try {
      const server = await slot.acquire(deadline, signal)
      return { server, release, warm: server.warm }
    } catch (error) {
      release()
      throw error
    }
  }

  private requireOperation(server: LanguageServer, operation: LspOperation): void {
    if (!supportsOperation(operation, server.capabilities, server.registrations)) {
      throw new LspError(
        'UNSUPPORTED_OPERATION',
        `the ${this.profile.id} server does not offer ${operation} (it did not advertise the capability)`,
        {
          data: { profile: this.profile.id, operation },
        },
      )
    }
  }

  private meta(server: LanguageServer, warm: boolean, translator: Translator, extra: Partial<LspResultMeta> = {}): LspResultMeta {
    return {
      providerId: this.id,
      status: server.activeProgress.size > 0 ? 'indexing' : 'ready',
      warm,
      truncated: false,
      elapsedMs: 0,
      ...(translator.dropped > 0 ? { droppedOutsideWorkspace: translator.dropped } : {}),
      ...extra,
    }
  }

  private async fileQuery(
    workspace: LocalWorkspace,
    request: LspProviderRequest<LspQueryRequest>,
    path: string,
    deadline: number,
    signal: AbortSignal,
  ): Promise<LspQueryResult> {
    const slot = this.host.slotFor(workspace, this.profile, path)
    const { server, release, warm } = await this.acquire(slot, deadline, signal)
    try {
      this.requireOperation(server, request.operation)
      const feature = featureOf(request.operation)
      const everyProject = feature.scope === 'everyProject'
      let coverage: LspSearchCoverage | undefined
      if (everyProject) {
        await this.host.announceDiskChanges(server, this.profile)
        coverage = (await this.host.loadProjects(server, workspace, this.profile, deadline, signal)) ?? this.foldersCoverage(server)
      } else {
        await this.host.baseline(server, this.profile)
      }
      const languageId = this.profile.extensions[extensionOf(path) ?? ''] ?? request.languageId
      const document = await server.documents.sync(path, languageId, { snapshot: request.snapshot })
      const versionAtStart = document.version
      const hashAtStart = document.hash
      if (request.operation === 'diagnostics') {
        const waitMs = request.waitMs ?? this.host.config.diagnosticsWaitMs
        // One translator for the diagnostics and the meta, so related locations it dropped are counted.
        const translator = new Translator(workspace.containment)
        const file = await fileDiagnostics(server, document, translator, {
          deadline: Math.min(deadline, Date.now() + waitMs),
          quietMs: this.host.config.diagnosticsQuietMs,
          timeoutMs: deadline - Date.now(),
          signal,
        })
        return {
          kind: 'diagnostics',
          files: [file],
          coverage: { analysed: [path], eligible: 1, complete: file.freshness === 'current' },
          meta: this.meta(server, warm, translator, { documentVersion: versionAtStart, contentHash: hashAtStart }),
        }
      }
      let waitedForAnalysis = false
      let previousAnswer: string | undefined
      let confirmations = 0
      // One bound for every wait on the server's file status, however often the document turns busy again.
      let fileStatusWaitUntil: number | undefined
      for (;;) {
        const translator = new Translator(workspace.containment)
        const result = await runOperation(request, {
          server,
          translator,
          document,
          actions: actionsOf(server),
          timeoutMs: Math.max(1, deadline - Date.now()),
          signal,
          meta: (extra) =>
            this.meta(server, warm, translator, {
              documentVersion: versionAtStart,
              contentHash: hashAtStart,
              ...(coverage === undefined ? {} : { coverage }),
              ...extra,
            }),
        })
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
            const settleMs = server.fileIdle(document.uri) ? this.host.config.diagnosticsQuietMs : 0
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
        if (everyProject && !confirmedServers.has(server) && confirmations < 2 && Date.now() < deadline) {
          const { meta: _meta, ...answer } = result
          const fingerprint = JSON.stringify(answer)
          if (fingerprint !== previousAnswer) {
            previousAnswer = fingerprint
            confirmations++
            continue
          }
        }
        if (everyProject) confirmedServers.add(server)
        server.warm = true
        const stale = !(await server.documents.unchangedOnDisk(document)) || document.hash !== hashAtStart
        return stale ? { ...result, meta: { ...result.meta, stale: true } } : result
      }
    } finally {
      release()
    }
  }

  /** One server searching the root and its nested project folders (workspaceFolders profiles) covers them all. */
  private foldersCoverage(server: LanguageServer): LspSearchCoverage | undefined {
    if (this.profile.projectRoot !== 'workspaceFolders') return undefined
    const folders = server.projectCount
    return { projectsSearched: folders, projectsFound: folders, complete: true }
  }

  /**
   * Workspace symbols from every server the root needs. Each server, once acquired, stays in use until the
   * whole answer is assembled (so the query's own later servers can never reclaim it); a server that cannot
   * start because every slot under limits.maxServers is busy is named in the coverage, not waited for.
   */
  private async workspaceSymbols(workspace: LocalWorkspace, query: string, deadline: number, signal: AbortSignal): Promise<LspQueryResult> {
    const translator = new Translator(workspace.containment)
    // A profile with no files of its languages under the root has nothing to say: start no server for it.
    const slots = (await this.host.hasEligibleFiles(workspace, this.profile)) ? await this.host.slotsFor(workspace, this.profile) : []
    const symbols: Extract<LspQueryResult, { kind: 'workspaceSymbols' }>['symbols'][number][] = []
    const seen = new Set<string>()
    const releases: Array<() => void> = []
    const rootsNotSearched: string[] = []
    let projectsSearched = 0
    let projectsFound = 0
    let filesNotSearched = 0
    let complete = true
    let warmAll = true
    let indexing = false
    try {
      for (const slot of slots) {
        let acquired: { server: LanguageServer; release: () => void; warm: boolean }
        try {
          acquired = await this.acquire(slot, deadline, signal)
        } catch (error) {
          if (
            error instanceof LspError &&
            error.code === 'UNAVAILABLE' &&
            (error.data as { maxServers?: number } | undefined)?.maxServers !== undefined
          ) {
            rootsNotSearched.push(nodePath.relative(workspace.root, slot.root) || '.')
            projectsFound++
            complete = false
            continue
          }
          throw error
        }
        const { server, release, warm } = acquired
        releases.push(release)
        this.requireOperation(server, 'workspaceSymbols')
        await this.host.announceDiskChanges(server, this.profile)
        const coverage = (await this.host.loadProjects(server, workspace, this.profile, deadline, signal)) ??
          this.foldersCoverage(server) ?? { projectsSearched: 1, projectsFound: 1, complete: true }
        projectsSearched += coverage.projectsSearched
        projectsFound += coverage.projectsFound
        filesNotSearched += coverage.filesNotSearched ?? 0
        complete &&= coverage.complete
        // Some servers answer workspace symbols only once a document is open.
        if (server.documents.openDocuments.length === 0) await this.host.openAnyFile(server, workspace, this.profile)
        let found = translator.workspaceSymbols(
          await server.request(WorkspaceSymbolRequest.type, { query }, { timeoutMs: Math.max(1, deadline - Date.now()), signal }),
        )
        if (found.length === 0) {
          // Still indexing, or open documents not analysed yet: wait for that, ask once more. A push server
          // publishes diagnostics once it has analysed a document; a pull server answers a diagnostics pull only
          // then (pyright skips a workspace in workspace symbols until it is initialized, ~1.5 s after start).
          if (server.activeProgress.size > 0) await server.waitForQuiet(deadline, signal)
          else {
            const until = Math.min(deadline, Date.now() + 10_000)
            const open = server.documents.openDocuments
            const probe = supportsPullDiagnostics(server.capabilities, server.registrations) ? open.slice(0, 1) : open
            await Promise.all(
              probe.map((d) =>
                fileDiagnostics(server, d, new Translator(workspace.containment), {
                  deadline: until,
                  quietMs: 0,
                  timeoutMs: Math.max(1, until - Date.now()),
                  signal,
                }).catch((error: unknown) => {
                  if (error instanceof LspError && (error.code === 'CANCELLED' || error.code === 'SERVER_CRASHED')) throw error
                }),
              ),
            )
          }
          found = translator.workspaceSymbols(
            await server.request(WorkspaceSymbolRequest.type, { query }, { timeoutMs: Math.max(1, deadline - Date.now()), signal }),
          )
        }
        // A symbol seen through two workspace folders of one server (or two servers) is one symbol.
        for (const symbol of found) {
          const key = `${symbol.location.path}\0${symbol.location.range.start.line}:${symbol.location.range.start.character}-${symbol.location.range.end.line}:${symbol.location.range.end.character}\0${symbol.name}\0${symbol.kind}`
          if (seen.has(key)) continue
          seen.add(key)
          symbols.push(symbol)
        }
        warmAll &&= warm
        indexing ||= server.activeProgress.size > 0
        server.warm = true
      }
    } finally {
      for (const release of releases) release()
    }
    const coverage: LspSearchCoverage | undefined =
      slots.length === 0
        ? undefined
        : {
            projectsSearched,
            projectsFound,
            ...(filesNotSearched > 0 ? { filesNotSearched } : {}),
            ...(rootsNotSearched.length > 0 ? { rootsNotSearched } : {}),
            complete: complete && filesNotSearched === 0,
          }
    return {
      kind: 'workspaceSymbols',
      symbols,
      meta: {
        providerId: this.id,
        status: indexing ? 'indexing' : 'ready',
        warm: warmAll,
        truncated: false,
        elapsedMs: 0,
        ...(coverage === undefined ? {} : { coverage }),
        ...(translator.dropped > 0 ? { droppedOutsideWorkspace: translator.dropped } : {}),
      },
    }
  }

  /** Bounded activation: opens up to `maxFiles` eligible files, fairly across languages, and reports coverage. */
  private async workspaceDiagnostics(
    workspace: LocalWorkspace,
    request: LspProviderRequest<Extract<LspQueryRequest, { operation: 'diagnostics' }>>,
    deadline: number,
    signal: AbortSignal,
  ): Promise<LspQueryResult> {
    const maxFiles = request.maxFiles ?? this.host.config.workspaceDiagnosticsMaxFiles
    const eligible = await this.host.eligibleFiles(workspace, this.profile)
    const chosen = fairSelection(eligible.files, (path) => this.profile.extensions[extensionOf(path) ?? ''] ?? '', maxFiles)
    const waitDeadline = Math.min(deadline, Date.now() + (request.waitMs ?? this.host.config.diagnosticsWaitMs))
    const translator = new Translator(workspace.containment)
    const files: LspFileDiagnostics[] = []
    const analysed: string[] = []
    let warmAll = true
    const bySlot = new Map<ServerSlot, string[]>()
    for (const path of chosen) {
      const slot = this.host.slotFor(workspace, this.profile, path)
      bySlot.set(slot, [...(bySlot.get(slot) ?? []), path])
    }
    for (const [slot, paths] of bySlot) {
      const { server, release, warm } = await this.acquire(slot, deadline, signal)
      try {
        warmAll &&= warm
        const documents = []
        for (const path of paths) documents.push(await server.documents.sync(path, this.profile.extensions[extensionOf(path) ?? ''] ?? ''))
        const results = await Promise.all(
          documents.map((document) =>
            fileDiagnostics(server, document, translator, {
              deadline: waitDeadline,
              quietMs: this.host.config.diagnosticsQuietMs,
              timeoutMs: Math.max(1, deadline - Date.now()),
              signal,
            }),
          ),
        )
        for (const result of results) {
          files.push(result)
          if (result.freshness === 'current') analysed.push(result.path)
        }
      } finally {
        release()
      }
    }
    const coverage: LspDiagnosticsCoverage = {
      analysed,
      eligible: eligible.files.length,
      complete: eligible.complete && analysed.length === eligible.files.length,
    }
    return {
      kind: 'diagnostics',
      files: files.filter((f) => f.diagnostics.length > 0 || f.freshness !== 'current'),
      coverage,
      meta: {
        providerId: this.id,
        status: 'ready',
        warm: warmAll,
        truncated: !coverage.complete,
        elapsedMs: 0,
        ...(translator.dropped > 0 ? { droppedOutsideWorkspace: translator.dropped } : {}),
      },
    }
  }
}

/** Round-robin across language ids so one language cannot use up the whole budget. */
export function fairSelection(files: ReadonlyArray<string>, languageOf: (path: string) => string, max: number): string[] {
  const groups = new Map<string, string[]>()
  for (const file of files) {
    const language = languageOf(file)
    groups.set(language, [...(groups.get(language) ?? []), file])
  }
  const queues = [...groups.values()]
  const chosen: string[] = []
  while (chosen.length < max && queues.some((q) => q.length > 0)) {
    for (const queue of queues) {
      const next = queue.shift()
      if (next !== undefined && chosen.length < max) chosen.push(next)
    }
  }
  return chosen
}
