import { EventEmitter } from 'node:events'
import { LspError, TelemetryAttr, assertReadable, telemetryId, telemetryInstruments } from '@codeseam/lsp'
import {
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  InitializeRequest,
  InitializedNotification,
  TextDocumentSyncKind,
  type FileEvent,
  type InitializeResult,
  type MessageConnection,
  type ProtocolRequestType,
  type Registration,
  type ServerCapabilities,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node'

import { DocumentSync } from '../documents/documents.js'
import { AnalysisPasses } from './analysis-passes.js'
import { Busy } from './busy.js'
import { connect, editorRequests, yamlRegisterContentRequest } from './connection.js'
import { CrashSignal } from './crash.js'
import { Deadlines } from './deadlines.js'
import { DiagnosticsStore, type DiagnosticsEntry } from './diagnostics.js'
import { EditCapture } from './edit-capture.js'
import { FileStatus } from './file-status.js'
import { configurationAnswers, initializeParams, syncKindOf, workspaceFolders } from './handshake.js'
import { Liveness } from './liveness.js'
import { notify, sendRequest, type RequestChannel } from './requests.js'
import { ServerProcess } from './process.js'
import { shutdown } from './shutdown.js'
import { readyWait } from './telemetry.js'
import { waitForNoProgress, waitForPushOrPull } from './waits.js'
import { rootOfFile, type LanguageServerSpec } from './spec.js'

export type ServerState = 'starting' | 'indexing' | 'ready' | 'crashed' | 'stopped'

/** How long a server whose stdout closed has to exit before it counts as crashed. */
const outputCloseGraceMs = 1_000

/**
 * One running language server: process, connection, handshake, documents, diagnostics, progress, dynamic
 * registrations. Requests run with a deadline and $/cancelRequest; a crash fails every pending request
 * with SERVER_CRASHED quoting the server's stderr.
 */
export class LanguageServer extends EventEmitter<{ state: [ServerState]; progress: []; registrations: [] }> {
  readonly startedAt = Date.now()
  readonly diagnostics = new DiagnosticsStore()
  readonly documents: DocumentSync
  capabilities: ServerCapabilities = {}
  readonly registrations = new Map<string, Registration>()
  readonly activeProgress = new Set<string | number>()
  /** Work-done progress and the server's own readiness reports (rust-analyzer's `experimental/serverStatus`). */
  readonly busy = new Busy(this.activeProgress, () => this.emit('progress'))
  readonly analysis = new AnalysisPasses()
  state: ServerState = 'starting'
  crashReason: string | undefined
  /** Whether the server has answered a query (cold answers can be partial). */
  warm = false
  /** Per-file status reports (clangd), and waits for a document to go idle. */
  private readonly fileStatus = new FileStatus()
  private readonly process: ServerProcess
  private readonly connection: MessageConnection
  private readonly crashed = new CrashSignal()
  private readonly channel: RequestChannel
  private readonly edits = new EditCapture()
  private readonly liveness: Liveness
  private syncKind: TextDocumentSyncKind = TextDocumentSyncKind.Full
  private stopping: Promise<void> | undefined

  constructor(readonly spec: LanguageServerSpec) {
    super()
    this.process = new ServerProcess({
      command: spec.command,
      args: spec.args,
      cwd: spec.root,
      env: spec.env,
      stderrLines: spec.stderrLines,
    })
    this.connection = connect(
      this.process,
      {
        configuration: (items) => this.analysis.configured(configurationAnswers(spec, items)),
        workspaceFolders: () => workspaceFolders(spec),
        register: (registrations) => {
          for (const registration of registrations) this.registrations.set(registration.id, registration)
          this.emit('registrations')
        },
        unregister: (ids) => {
          for (const id of ids) this.registrations.delete(id)
        },
        applyEdit: (params) => this.edits.applyEdit(params),
        progress: (token, value) => this.busy.progress(token, value),
        serverStatus: (params) => this.busy.status(params),
        diagnostics: (params) => this.diagnostics.push(params),
        analysisPass: () => this.analysis.passed(),
        fileStatus: (params) => this.fileStatus.report(params),
        broken: (error) => this.crash(`its output broke the protocol: ${error.message}`),
        closed: () => {
          if (this.stopping !== undefined || this.crashed.error !== undefined || this.process.hasDied) return
          // Usually the process is on its way out and its exit says why. One that lives on without an
          // output can never answer again: a crash, reported now rather than at every request's deadline.
          const grace = setTimeout(() => this.crash('it closed its output (stdout) but kept running'), outputCloseGraceMs)
          grace.unref()
          void this.process.died.then(() => clearTimeout(grace))
        },
      },
      spec.maxMessageBytes,
      editorRequests(spec, (path) => this.documents.get(path)?.text, this.busy),
    )
    this.documents = new DocumentSync(
      {
        syncKind: () => this.syncKind,
        open: (textDocument) => {
          this.fileStatus.synced(textDocument.uri)
          notify(this.connection, DidOpenTextDocumentNotification.type, { textDocument })
        },
        change: (uri, version, contentChanges) => {
          this.fileStatus.synced(uri)
          notify(this.connection, DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges })
        },
        close: (uri) => {
          this.diagnostics.forget(uri)
          this.fileStatus.closed(uri)
          notify(this.connection, DidCloseTextDocumentNotification.type, { textDocument: { uri } })
        },
        diagnosticsSeq: () => this.diagnostics.currentSeq,
      },
      spec.maxOpenDocuments,
      (path) => {
        try {
          assertReadable(rootOfFile(spec, path), path)
        } catch (error) {
          spec.onEscape?.()
          throw error
        }
      },
      spec.fileLimits,
    )
    this.channel = {
      connection: this.connection,
      deadlines: new Deadlines(),
      profileId: spec.profileId,
      crash: this.crashed,
      timedOut: () => this.probeLiveness(),
    }
    this.liveness = new Liveness(this.connection, spec.livenessGraceMs, (reason) => this.crash(reason))
    // The crash is reported when the server process dies, not once its process group is gone (that can take a
    // moment): queries in between must not find a closed connection on a server still marked ready.
    void this.process.died.then(({ code, signal }) => {
      if (this.stopping === undefined) this.crash(`it exited unexpectedly (${signal ?? `code ${String(code)}`})`)
    })
    void this.process.exited.then(() => {
      if (this.stopping !== undefined) this.setState('stopped')
    })
  }

  /** The SERVER_CRASHED error, once the server has crashed. */
  get crashError(): LspError | undefined {
    return this.crashed.error
  }

  get processPid(): number | undefined {
    return this.process.pid
  }

  /** Whether the server reports per-file status (clangd initialized with `clangdFileStatus`): set by its first report. */
  get reportsFileStatus(): boolean {
    return this.fileStatus.reported
  }

  stderrTail(lines = 20): string {
    return this.process.stderr.tail(lines)
  }

  rssBytes(): Promise<number | undefined> {
    return this.process.rssBytes()
  }

  private setState(state: ServerState): void {
    if (this.state === state) return
    this.state = state
    this.emit('state', state)
  }

  /** Marks the server crashed, fails everything pending, and kills what is left of it. */
  crash(reason: string): void {
    if (this.crashed.error !== undefined || this.stopping !== undefined) return
    const tail = this.stderrTail()
    this.crashReason = reason
    const error = new LspError(
      'SERVER_CRASHED',
      `the ${this.spec.profileId} language server for ${this.spec.root} crashed: ${reason}${tail ? `\nlast stderr lines:\n${tail}` : ''}`,
      { data: { profile: this.spec.profileId, root: this.spec.root, stderr: tail } },
    )
    telemetryInstruments().serverCrashes.add(1, { [TelemetryAttr.profile]: telemetryId(this.spec.profileId) })
    this.crashed.raise(error, () => this.setState('crashed'))
    this.connection.dispose()
    this.process.signal('KILL')
  }

  /** Project folders this server covers (see {@link LanguageServerSpec.projectCount}). */
  get projectCount(): number {
    return this.spec.projectCount ?? 1 + (this.spec.folders?.length ?? 0)
  }

  /** Spawns nothing more: runs the handshake on the already started process. */
  async initialize(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const result: InitializeResult = await this.request(InitializeRequest.type, initializeParams(this.spec), {
      timeoutMs,
      ...(signal === undefined ? {} : { signal }),
      what: 'initialize',
    })
    this.capabilities = result.capabilities ?? {}
    this.syncKind = syncKindOf(this.capabilities)
    if (this.spec.serverStatus === true) this.busy.expectStatus()
    await this.connection.sendNotification(InitializedNotification.type, {})
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: this.spec.settings })
    if (this.spec.clientContent === true) await this.connection.sendNotification(yamlRegisterContentRequest)
    this.setState(this.activeProgress.size > 0 ? 'indexing' : 'ready')
    this.on('progress', () => {
      if (this.state === 'ready' || this.state === 'indexing') this.setState(this.activeProgress.size > 0 ? 'indexing' : 'ready')
    })
  }

  /**
   * Whether the server has reported the document idle since its last sync (clangd: no preamble or AST
   * work queued or running for it), for at least `forMs` without a change. True for a document the host
   * does not have open.
   */
  fileIdle(uri: string, forMs = 0): boolean {
    return this.fileStatus.idle(uri, forMs)
  }

  /**
   * Resolves once the server has reported the document idle after its last sync for `forMs` without a
   * change (see {@link fileIdle}), or at the deadline or on abort (then false); rejects if the server crashes.
   */
  waitForFileIdle(uri: string, deadline: number, signal?: AbortSignal, forMs = 0): Promise<boolean> {
    if (this.fileIdle(uri, forMs)) return Promise.resolve(true)
    return this.crashed.race(this.fileStatus.waitIdle(uri, deadline, signal, forMs))
  }

  /** Diagnostics pushed for a document, or pull diagnostics registered meanwhile (see {@link waitForPushOrPull}). */
  waitForPushOrPull(
    uri: string,
    afterSeq: number,
    version: number,
    quietMs: number,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<{ entry: DiagnosticsEntry | undefined; pullReady: boolean }> {
    return waitForPushOrPull(this, uri, afterSeq, version, quietMs, deadline, signal)
  }

  /** Resolves once no work-done progress is active, or at the deadline or on abort (then false); rejects if the server crashes. */
  waitForQuiet(deadline: number, signal?: AbortSignal): Promise<boolean> {
    if (this.activeProgress.size === 0) return Promise.resolve(true)
    return readyWait(this.spec.profileId, () => this.crashed.race(waitForNoProgress(this, deadline, signal)))
  }

  /** One request with a deadline ({@link sendRequest}; a timeout starts a liveness probe); crashed/stopping fail at once. */
  request<P, R, PR, E, RO>(
    type: ProtocolRequestType<P, R, PR, E, RO>,
    params: P,
    options: { timeoutMs: number; signal?: AbortSignal; what?: string },
  ): Promise<R> {
    if (this.crashed.error !== undefined) return Promise.reject(this.crashed.error)
    if (this.stopping !== undefined)
      return Promise.reject(new LspError('DISPOSED', `the ${this.spec.profileId} server for ${this.spec.root} is stopping`))
    return this.analysis.tracked(sendRequest(this.channel, type, params, options))
  }

  /** A timed-out request starts a liveness probe (see {@link Liveness}); not while crashed or stopping. */
  private probeLiveness(): void {
    if (this.crashed.error === undefined && this.stopping === undefined) this.liveness.probe()
  }

  /** Runs `body` while capturing workspace/applyEdit requests instead of refusing them; one capture at a time. */
  capturingEdits<T>(body: () => Promise<T>): Promise<{ value: T; edits: WorkspaceEdit[] }> {
    return this.edits.run(body)
  }

  notifyFiles(changes: FileEvent[]): void {
    if (changes.length === 0 || this.crashed.error !== undefined || this.stopping !== undefined) return
    notify(this.connection, DidChangeWatchedFilesNotification.type, { changes })
  }

  /** shutdown → exit → SIGTERM → SIGKILL, each step bounded. Idempotent. */
  stop(graceMs = 2_000): Promise<void> {
    this.stopping ??= (async () => {
      await shutdown(this.process, this.connection, graceMs, !this.process.hasExited && this.crashed.error === undefined)
      this.setState('stopped')
    })()
    return this.stopping
  }
}
