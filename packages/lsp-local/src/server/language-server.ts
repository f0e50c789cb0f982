import { EventEmitter } from 'node:events'

import { LspError, pathToUri, uriToPath } from '@codeseam/lsp'
import {
  CancellationTokenSource,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializeRequest,
  InitializedNotification,
  LSPErrorCodes,
  RequestType0,
  ResponseError,
  ShutdownRequest,
  TextDocumentSyncKind,
  type ApplyWorkspaceEditParams,
  type ConfigurationItem,
  type FileEvent,
  type InitializeResult,
  type MessageConnection,
  type ProtocolRequestType,
  type Registration,
  type ProtocolConnection,
  type ServerCapabilities,
  type WorkspaceEdit,
  type WorkspaceFolder,
} from 'vscode-languageserver-protocol/node'

import { supportsPullDiagnostics } from '../features/capabilities.js'
import { clientCapabilities } from '../features/client-capabilities.js'
import { connect, type FileStatusParams } from './connection.js'
import { assertReadable } from '../workspace/containment.js'
import { Deadlines } from './deadlines.js'
import { DiagnosticsStore, type DiagnosticsEntry } from './diagnostics.js'
import { DocumentSync } from '../workspace/documents.js'
import { ServerProcess } from './process.js'

/** Everything needed to run one server for one project root. */
export interface LanguageServerSpec {
  readonly profileId: string
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly root: string
  /** Further workspace folders of the same server (nested project folders inside `root`). */
  readonly folders?: ReadonlyArray<string>
  /** Project folders the server covers (its root and every nested project, folder or not); default its workspace folders. */
  readonly projectCount?: number
  /** Answers to workspace/configuration requests that name no scope (a server's default workspace); default `settings`. */
  readonly unscopedSettings?: Readonly<Record<string, unknown>>
  readonly env: Readonly<Record<string, string>>
  readonly initializationOptions?: unknown
  readonly settings: Readonly<Record<string, unknown>>
  readonly maxMessageBytes: number
  readonly stderrLines: number
  readonly maxOpenDocuments: number
  readonly livenessGraceMs: number
  /** The workspace root the server's files must stay in (its own root when not given). */
  readonly workspaceRoot?: string
  /** Called when a read was refused because the file now resolves outside the workspace root. */
  readonly onEscape?: () => void
}

export type ServerState = 'starting' | 'indexing' | 'ready' | 'crashed' | 'stopped'

/** How long a server whose stdout closed has to exit before it counts as crashed. */
const outputCloseGraceMs = 1_000

/** A probe every server answers at once: an unknown `$/` request gets MethodNotFound or null. */
const livenessProbe = new RequestType0<unknown, unknown>('$/codeseam/ping')

/** Looks a configuration section up: `a.b` is a key or a path (how workspace/configuration is answered). */
export function section(settings: Readonly<Record<string, unknown>>, name: string | undefined): unknown {
  if (name === undefined || name === '') return settings
  if (name in settings) return settings[name]
  let current: unknown = settings
  for (const part of name.split('.')) {
    if (current === null || typeof current !== 'object' || !(part in current)) return null
    current = (current as Record<string, unknown>)[part]
  }
  return current
}

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
  state: ServerState = 'starting'
  crashReason: string | undefined
  /** Whether the server has answered a query (cold answers can be partial). */
  warm = false
  /** Whether the server reports per-file status (clangd initialized with `clangdFileStatus`): set by its first report. */
  reportsFileStatus = false
  /**
   * The file status of each open document (by path) reported since the document's last sync (undefined
   * while the server has reported nothing since), and when it last changed (performance.now()).
   */
  private readonly fileStates = new Map<string, { state: string | undefined; since: number }>()
  /** Called with a document's path when its file status changes (a Set: one waiter per open document may wait at once). */
  private readonly fileStatusListeners = new Set<(path: string) => void>()
  private readonly process: ServerProcess
  private readonly connection: MessageConnection
  private readonly crashListeners = new Set<(error: LspError) => void>()
  /** Every request's deadline, on one timer. */
  private readonly deadlines = new Deadlines()
  private crashErrorValue: LspError | undefined
  private captured: WorkspaceEdit[] | undefined
  /**
   * Captures run one at a time: a server's workspace/applyEdit does not say which executeCommand it belongs
   * to, so overlapping captures would mix (or lose) each other's edits.
   */
  private captureQueue: Promise<unknown> = Promise.resolve()
  private probing = false
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
        configuration: (items) =>
          items.map(
            (item: ConfigurationItem) =>
              section(item.scopeUri === undefined ? (spec.unscopedSettings ?? spec.settings) : spec.settings, item.section) ?? null,
          ),
        workspaceFolders: () => workspaceFolders(spec),
        register: (registrations) => {
          for (const registration of registrations) this.registrations.set(registration.id, registration)
          this.emit('registrations')
        },
        unregister: (ids) => {
          for (const id of ids) this.registrations.delete(id)
        },
        applyEdit: (params: ApplyWorkspaceEditParams) => {
          if (this.captured === undefined) {
            return { applied: false, failureReason: 'codeseam applies edits only through its own edit applier; this edit was refused' }
          }
          this.captured.push(params.edit)
          return { applied: true }
        },
        progress: (token, value) => {
          if (value.kind === 'begin') this.activeProgress.add(token)
          else if (value.kind === 'end') this.activeProgress.delete(token)
          this.emit('progress')
        },
        diagnostics: (params) => this.diagnostics.push(params),
        fileStatus: (params) => this.onFileStatus(params),
        broken: (error) => this.crash(`its output broke the protocol: ${error.message}`),
        closed: () => {
          if (this.stopping !== undefined || this.crashErrorValue !== undefined || this.process.hasExited) return
          // Usually the process is on its way out and its exit says why. One that lives on without an
          // output can never answer again: a crash, reported now rather than at every request's deadline.
          const grace = setTimeout(() => this.crash('it closed its output (stdout) but kept running'), outputCloseGraceMs)
          grace.unref()
          void this.process.exited.then(() => clearTimeout(grace))
        },
      },
      spec.maxMessageBytes,
    )
    this.documents = new DocumentSync(
      {
        syncKind: () => this.syncKind,
        open: (textDocument) => {
          this.synced(textDocument.uri)
          void this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument }).catch(() => {})
        },
        change: (uri, version, contentChanges) => {
          this.synced(uri)
          void this.connection
            .sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges })
            .catch(() => {})
        },
        close: (uri) => {
          this.diagnostics.forget(uri)
          const key = uriToPath(uri) ?? uri
          this.fileStates.delete(key)
          // Nothing left to wait for about a closed document.
          for (const listener of this.fileStatusListeners) listener(key)
          void this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } }).catch(() => {})
        },
        diagnosticsSeq: () => this.diagnostics.currentSeq,
      },
      spec.maxOpenDocuments,
      (path) => {
        try {
          assertReadable(spec.workspaceRoot ?? spec.root, path)
        } catch (error) {
          spec.onEscape?.()
          throw error
        }
      },
    )
    void this.process.exited.then(({ code, signal }) => {
      if (this.stopping === undefined) this.crash(`it exited unexpectedly (${signal ?? `code ${String(code)}`})`)
      else this.setState('stopped')
    })
  }

  /** The SERVER_CRASHED error, once the server has crashed. */
  get crashError(): LspError | undefined {
    return this.crashErrorValue
  }

  get processPid(): number | undefined {
    return this.process.pid
  }

  get serverPid(): number | undefined {
    return this.process.pid
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
    if (this.crashErrorValue !== undefined || this.stopping !== undefined) return
    const tail = this.stderrTail()
    this.crashReason = reason
    this.crashErrorValue = new LspError(
      'SERVER_CRASHED',
      `the ${this.spec.profileId} language server for ${this.spec.root} crashed: ${reason}${tail ? `\nlast stderr lines:\n${tail}` : ''}`,
      { data: { profile: this.spec.profileId, root: this.spec.root, stderr: tail } },
    )
    this.setState('crashed')
    for (const listener of this.crashListeners) listener(this.crashErrorValue)
    this.crashListeners.clear()
    this.connection.dispose()
    this.process.signal('KILL')
  }

  /** Rejects when the server crashes; lets a waiter race a crash. */
  private crashPromise(): { promise: Promise<never>; release: () => void } {
    let listener: ((error: LspError) => void) | undefined
    const promise = new Promise<never>((_, reject) => {
      if (this.crashErrorValue !== undefined) reject(this.crashErrorValue)
      listener = reject
      this.crashListeners.add(reject)
    })
    promise.catch(() => {})
    return { promise, release: () => listener && this.crashListeners.delete(listener) }
  }

  /** Project folders this server covers (see {@link LanguageServerSpec.projectCount}). */
  get projectCount(): number {
    return this.spec.projectCount ?? 1 + (this.spec.folders?.length ?? 0)
  }

  /** Spawns nothing more: runs the handshake on the already started process. */
  async initialize(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const result: InitializeResult = await this.request(
      InitializeRequest.type,
      {
        processId: process.pid,
        clientInfo: { name: 'codeseam-lsp-local', version: '0' },
        rootUri: pathToUri(this.spec.root),
        rootPath: this.spec.root,
        workspaceFolders: workspaceFolders(this.spec),
        capabilities: clientCapabilities,
        initializationOptions: this.spec.initializationOptions ?? null,
        locale: 'en',
      },
      { timeoutMs, ...(signal === undefined ? {} : { signal }), what: 'initialize' },
    )
    this.capabilities = result.capabilities ?? {}
    const sync = this.capabilities.textDocumentSync
    const kind = typeof sync === 'number' ? sync : (sync?.change ?? TextDocumentSyncKind.Full)
    this.syncKind = kind === TextDocumentSyncKind.Incremental ? kind : TextDocumentSyncKind.Full
    await this.connection.sendNotification(InitializedNotification.type, {})
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: this.spec.settings })
    this.setState(this.activeProgress.size > 0 ? 'indexing' : 'ready')
    this.on('progress', () => {
      if (this.state === 'ready' || this.state === 'indexing') this.setState(this.activeProgress.size > 0 ? 'indexing' : 'ready')
    })
  }

  /** A document was opened or changed: what the server reported about it before no longer counts. */
  private synced(uri: string): void {
    this.fileStates.set(uriToPath(uri) ?? uri, { state: undefined, since: performance.now() })
  }

  /** A file status report; kept only for documents the host has open. */
  private onFileStatus(params: FileStatusParams): void {
    if (params === null || typeof params !== 'object' || typeof params.uri !== 'string' || typeof params.state !== 'string') return
    this.reportsFileStatus = true
    // By path: the server may spell the URI differently from the host.
    const key = uriToPath(params.uri) ?? params.uri
    const previous = this.fileStates.get(key)
    // clangd repeats "idle" after every request it ran: only a change counts.
    if (previous === undefined || previous.state === params.state) return
    this.fileStates.set(key, { state: params.state, since: performance.now() })
    for (const listener of this.fileStatusListeners) listener(key)
  }

  /**
   * Whether the server has reported the document idle since its last sync (clangd: no preamble or AST
   * work queued or running for it), for at least `forMs` without a change. True for a document the host
   * does not have open.
   */
  fileIdle(uri: string, forMs = 0): boolean {
    const status = this.fileStates.get(uriToPath(uri) ?? uri)
    return status === undefined || (status.state === 'idle' && performance.now() - status.since >= forMs)
  }

  /**
   * Resolves once the server has reported the document idle after its last sync for `forMs` without a
   * change (see {@link fileIdle}), or at the deadline or on abort (then false).
   */
  waitForFileIdle(uri: string, deadline: number, signal?: AbortSignal, forMs = 0): Promise<boolean> {
    if (this.fileIdle(uri, forMs)) return Promise.resolve(true)
    const key = uriToPath(uri) ?? uri
    const crash = this.crashPromise()
    return Promise.race([
      new Promise<boolean>((resolve) => {
        let settle: NodeJS.Timeout | undefined
        const done = (value: boolean) => {
          clearTimeout(timer)
          clearTimeout(settle)
          this.fileStatusListeners.delete(onStatus)
          signal?.removeEventListener('abort', onAbort)
          resolve(value)
        }
        // Idle now: done once it has been idle for `forMs` (a change before then starts over).
        const check = () => {
          clearTimeout(settle)
          const status = this.fileStates.get(key)
          // A document closed meanwhile has nothing left to wait for.
          if (status === undefined) return done(true)
          if (status.state !== 'idle') return
          const left = status.since + forMs - performance.now()
          if (left <= 0) done(true)
          else settle = setTimeout(check, Math.ceil(left))
        }
        const onStatus = (changed: string) => changed === key && check()
        const onAbort = () => done(false)
        const timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()))
        this.fileStatusListeners.add(onStatus)
        // An already-aborted signal never fires 'abort' again: give up now, not at the deadline.
        if (signal?.aborted === true) {
          done(false)
          return
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        check()
      }),
      crash.promise,
    ]).finally(crash.release)
  }

  /** Resolves once no work-done progress is active, or at the deadline (then false). */
  /**
   * Waits for diagnostics pushed for a document after `afterSeq` (of `version` when the server reports
   * versions), quiet for `quietMs` — or until the server registers pull diagnostics, after which it pushes
   * nothing (pyright registers them only after initialized, so an early query could otherwise wait in vain).
   * Resolves with the entry then current, if any; `pullReady` says whether pull took over.
   */
  async waitForPushOrPull(
    uri: string,
    afterSeq: number,
    version: number,
    quietMs: number,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<{ entry: DiagnosticsEntry | undefined; pullReady: boolean }> {
    const pullReady = () => supportsPullDiagnostics(this.capabilities, this.registrations)
    if (pullReady()) return { entry: this.diagnostics.get(uri), pullReady: true }
    const registered = new AbortController()
    const onRegistrations = () => {
      if (pullReady()) registered.abort()
    }
    this.on('registrations', onRegistrations)
    try {
      const entry = await this.diagnostics.waitForPush(
        uri,
        afterSeq,
        version,
        quietMs,
        deadline,
        signal === undefined ? registered.signal : AbortSignal.any([signal, registered.signal]),
      )
      return { entry, pullReady: pullReady() }
    } finally {
      this.off('registrations', onRegistrations)
    }
  }

  waitForQuiet(deadline: number, signal?: AbortSignal): Promise<boolean> {
    if (this.activeProgress.size === 0) return Promise.resolve(true)
    const crash = this.crashPromise()
    return Promise.race([
      new Promise<boolean>((resolve) => {
        const done = (value: boolean) => {
          clearTimeout(timer)
          this.off('progress', onProgress)
          signal?.removeEventListener('abort', onAbort)
          resolve(value)
        }
        const onProgress = () => this.activeProgress.size === 0 && done(true)
        const onAbort = () => done(false)
        const timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()))
        this.on('progress', onProgress)
        // An already-aborted signal never fires 'abort' again: give up now, not at the deadline.
        if (signal?.aborted === true) {
          done(false)
          return
        }
        signal?.addEventListener('abort', onAbort, { once: true })
      }),
      crash.promise,
    ]).finally(crash.release)
  }

  /**
   * Sends one request with a deadline. On timeout or abort the request is cancelled ($/cancelRequest) and
   * fails with TIMEOUT / CANCELLED; a timeout also starts a liveness probe. Server errors → SERVER_ERROR.
   */
  request<P, R, PR, E, RO>(
    type: ProtocolRequestType<P, R, PR, E, RO>,
    params: P,
    options: { timeoutMs: number; signal?: AbortSignal; what?: string },
  ): Promise<R> {
    if (this.crashErrorValue !== undefined) return Promise.reject(this.crashErrorValue)
    if (this.stopping !== undefined)
      return Promise.reject(new LspError('DISPOSED', `the ${this.spec.profileId} server for ${this.spec.root} is stopping`))
    const what = options.what ?? type.method
    const { signal } = options
    if (signal?.aborted === true) return Promise.reject(new LspError('CANCELLED', `${what} was cancelled`))
    // One promise settled by whichever comes first: the answer, the deadline, an abort or a crash.
    return new Promise<R>((resolve, reject) => {
      const source = new CancellationTokenSource()
      let settled = false
      // `cancel`: tell the server ($/cancelRequest) after settling; the token's emitter catches a send that
      // fails on a connection closed by now.
      const settle = (error: unknown, value?: R, cancel = false) => {
        if (settled) return
        settled = true
        deadline.cancel()
        signal?.removeEventListener('abort', onAbort)
        this.crashListeners.delete(onCrash)
        if (error === undefined) resolve(value as R)
        else reject(error)
        if (cancel) source.cancel()
        source.dispose()
      }
      const onCrash = (error: LspError) => settle(error)
      const onAbort = () => settle(new LspError('CANCELLED', `${what} was cancelled`), undefined, true)
      const deadline = this.deadlines.add(options.timeoutMs, () => {
        settle(
          new LspError(
            'TIMEOUT',
            `the ${this.spec.profileId} server did not answer ${what} within ${options.timeoutMs} ms; the request was cancelled (raise requestTimeoutMs for slow projects)`,
            { data: { profile: this.spec.profileId } },
          ),
          undefined,
          true,
        )
        this.probeLiveness()
      })
      signal?.addEventListener('abort', onAbort, { once: true })
      this.crashListeners.add(onCrash)
      // The message connection is the protocol connection at run time; the cast picks its typed overloads.
      try {
        ;(this.connection as unknown as ProtocolConnection).sendRequest(type, params as never, source.token).then(
          (value) => settle(undefined, value),
          (error: unknown) => settle(this.requestError(error, what)),
        )
      } catch (error) {
        // A connection that closed a moment ago refuses to send at once.
        settle(this.requestError(error, what))
      }
    })
  }

  /** A failed request as an LspError: the crash when there was one, the server's own error otherwise. */
  private requestError(error: unknown, what: string): LspError {
    if (error instanceof LspError) return error
    if (this.crashErrorValue !== undefined) return this.crashErrorValue
    if (error instanceof ResponseError) {
      const code = error.code === LSPErrorCodes.ContentModified ? 'STALE_VERSION' : 'SERVER_ERROR'
      return new LspError(code, `the ${this.spec.profileId} server answered ${what} with error ${error.code}: ${error.message}`, {
        cause: error,
        data: { profile: this.spec.profileId, serverCode: error.code },
      })
    }
    return new LspError('SERVER_ERROR', `${what} to the ${this.spec.profileId} server failed: ${(error as Error).message}`, {
      cause: error,
    })
  }

  /** A slow request is not a reason to restart; a server that answers nothing within the grace period is. */
  private probeLiveness(): void {
    if (this.probing || this.crashErrorValue !== undefined || this.stopping !== undefined) return
    this.probing = true
    const source = new CancellationTokenSource()
    const timer = setTimeout(() => {
      source.cancel()
      this.crash(`it stopped answering: even a liveness probe got no answer within ${this.spec.livenessGraceMs} ms`)
    }, this.spec.livenessGraceMs)
    let probe: Promise<unknown>
    try {
      probe = this.connection.sendRequest(livenessProbe, source.token)
    } catch (error) {
      // The connection is already closed: nothing can reach this server any more.
      clearTimeout(timer)
      this.probing = false
      source.dispose()
      this.crash(`its connection closed: ${(error as Error).message}`)
      return
    }
    probe
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        clearTimeout(timer)
        this.probing = false
        source.dispose()
      })
  }

  /** Runs `body` while capturing workspace/applyEdit requests instead of refusing them; one capture at a time. */
  capturingEdits<T>(body: () => Promise<T>): Promise<{ value: T; edits: WorkspaceEdit[] }> {
    const run = this.captureQueue.then(async () => {
      const edits: WorkspaceEdit[] = []
      this.captured = edits
      try {
        return { value: await body(), edits }
      } finally {
        this.captured = undefined
      }
    })
    this.captureQueue = run.catch(() => undefined)
    return run
  }

  notifyFiles(changes: FileEvent[]): void {
    if (changes.length === 0 || this.crashErrorValue !== undefined || this.stopping !== undefined) return
    void this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes }).catch(() => {})
  }

  /** shutdown → exit → SIGTERM → SIGKILL, each step bounded. Idempotent. */
  stop(graceMs = 2_000): Promise<void> {
    this.stopping ??= (async () => {
      const exited = this.process.exited.then(() => true)
      const within = (ms: number) => Promise.race([exited, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())])
      if (!this.process.hasExited && this.crashErrorValue === undefined) {
        try {
          await Promise.race([this.connection.sendRequest(ShutdownRequest.type), within(graceMs)])
          await this.connection.sendNotification(ExitNotification.type)
          // Some servers (the native TypeScript 7 server) leave only when their input ends.
          this.process.stdin.end()
        } catch {
          // a server that cannot shut down politely is terminated below
        }
      }
      if (!(await within(graceMs))) {
        this.process.signal('TERM')
        if (!(await within(graceMs))) {
          this.process.signal('KILL')
          await within(graceMs)
        }
      }
      this.connection.dispose()
      this.setState('stopped')
    })()
    return this.stopping
  }
}

/** The server's LSP workspace folders: its root, then any nested project folders. */
function workspaceFolders(spec: LanguageServerSpec): WorkspaceFolder[] {
  return [spec.root, ...(spec.folders ?? [])].map((folder) => ({ uri: pathToUri(folder), name: folder.split('/').pop() ?? folder }))
}
