import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyPrepareRequest,
  ConfigurationRequest,
  createProtocolConnection,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  DocumentSymbolRequest,
  ExitNotification,
  HoverRequest,
  ImplementationRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ReferencesRequest,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
  WorkspaceSymbolRequest,
  type Diagnostic,
  type DocumentSymbol,
  type FileChangeType,
  type Location,
  type ProtocolConnection,
  type ServerCapabilities,
  type SymbolInformation,
  type SymbolKind,
  type WorkspaceSymbol,
} from 'vscode-languageserver-protocol/node'

import type { ReadQuery } from './read-mix.js'
import { floorTypeHierarchy } from './type-hierarchy.js'

/** How to start a language server: the command line and what to answer to its configuration requests. */
export interface ServerCommand {
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly languageIdFor: (path: string) => string
  readonly initializationOptions?: unknown
  /** settings by section for workspace/configuration (unknown sections get null). */
  readonly settings?: Readonly<Record<string, unknown>>
  /** The complete environment the server gets (default: this process's), as codeseam's spawn plan sets it. */
  readonly env?: Readonly<Record<string, string>>
}

/** rust-analyzer's own status (`experimental/serverStatus`, sent to clients that advertise `serverStatusNotification`). */
export interface ServerStatus {
  readonly health: 'ok' | 'warning' | 'error'
  readonly quiescent: boolean
  readonly message?: string
}

/**
 * The floor: a bare vscode-jsonrpc client with nothing between the caller and the server but the protocol.
 * No document sync policy, no containment, no translation: it opens each file once and sends requests.
 * It answers the server's own requests (workspace/configuration above all: the native TS 7 server blocks on
 * it), because no client can avoid that.
 */
export class FloorClient {
  private readonly opened = new Set<string>()
  /** The version last sent for each open document (1 at didOpen). */
  private readonly versions = new Map<string, number>()
  /** The server's capabilities from initialize, and the methods it registered later. */
  private capabilities: ServerCapabilities = {}
  private readonly registered = new Set<string>()
  /** The last diagnostics the server published per URI, and who waits for the first. */
  private readonly published = new Map<string, Diagnostic[]>()
  private readonly publishWaiters = new Map<string, Array<() => void>>()
  /** The last `experimental/serverStatus` (only sent when asked for with `serverStatus`), and who waits for quiescent. */
  lastServerStatus: ServerStatus | undefined
  private readonly quiescentWaiters: Array<() => void> = []

  private constructor(
    readonly root: string,
    readonly process: ChildProcess,
    private readonly connection: ProtocolConnection,
    private readonly server: ServerCommand,
  ) {}

  /**
   * Spawns the server in `root` and completes the initialize handshake. `folders` (absolute) are its
   * workspace folders (default: the root alone), as pyright gets a root's nested project folders.
   */
  static async start(
    server: ServerCommand,
    root: string,
    options: {
      readonly folders?: ReadonlyArray<string>
      /** Answers to configuration requests that name no scope (pyright's default workspace); default: `server.settings`. */
      readonly unscopedSettings?: Readonly<Record<string, unknown>>
      /**
       * Advertise diagnostics (published, and pulled with textDocument/diagnostic) and call hierarchy, as the
       * wider mix asks for them; off elsewhere, so the read mix's floor stays as it was.
       */
      readonly wide?: boolean
      /**
       * Advertise `experimental.serverStatusNotification` (rust-analyzer then says when it is quiescent, see
       * {@link FloorClient.untilQuiescent}), as codeseam's client does; off elsewhere.
       */
      readonly serverStatus?: boolean
      /**
       * Advertise `workspace.didChangeWatchedFiles` (dynamic registration), as an editor that watches the disk
       * for its server does and then tells it of changes ({@link FloorClient.notifyWatchedFiles}); off elsewhere.
       */
      readonly watchedFiles?: boolean
    } = {},
  ): Promise<FloorClient> {
    const child = spawn(server.command, [...server.args], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'ignore'],
      ...(server.env === undefined ? {} : { env: { ...server.env } }),
    })
    const exited = new Promise<never>((_, reject) => {
      child.once('error', reject)
      child.once('exit', (code, signal) => reject(new Error(`${server.command} exited (${code ?? signal}) during start`)))
    })
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!))
    connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map((item) => {
        const settings = item.scopeUri === undefined ? (options.unscopedSettings ?? server.settings) : server.settings
        return item.section === undefined ? null : lookupSection(settings ?? {}, item.section)
      }),
    )
    const folders = (options.folders ?? [root]).map((folder) => ({ uri: pathToFileURL(folder).href, name: nodePath.basename(folder) }))
    connection.onRequest(WorkspaceFoldersRequest.type, () => folders)
    connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined)
    // The refresh requests get an empty answer, not "method not found": with the wider mix's capabilities
    // pyright exited (code 1) shortly after start until its requests were answered.
    for (const method of [
      'workspace/diagnostic/refresh',
      'workspace/semanticTokens/refresh',
      'workspace/inlayHint/refresh',
      'workspace/inlineValue/refresh',
      'workspace/codeLens/refresh',
      'workspace/foldingRange/refresh',
    ])
      connection.onRequest(method, () => null)
    const client = new FloorClient(root, child, connection, server)
    connection.onRequest(RegistrationRequest.type, (params) => {
      for (const registration of params.registrations) client.registered.add(registration.method)
    })
    connection.onNotification('experimental/serverStatus', (params: ServerStatus) => {
      client.lastServerStatus = params
      if (params.quiescent) for (const wake of client.quiescentWaiters.splice(0)) wake()
    })
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      client.published.set(params.uri, params.diagnostics)
      for (const wake of client.publishWaiters.get(params.uri) ?? []) wake()
      client.publishWaiters.delete(params.uri)
    })
    connection.listen()
    const rootUri = pathToFileURL(root).href
    const wide = options.wide === true
    const initialized = await Promise.race([
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri,
        workspaceFolders: folders,
        initializationOptions: server.initializationOptions,
        capabilities: {
          workspace: {
            configuration: true,
            workspaceFolders: true,
            // Every symbol kind, so workspace-symbol kinds are not folded into the LSP 3.0 set.
            symbol: { symbolKind: { valueSet: Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind) } },
            ...(options.watchedFiles === true
              ? { didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } }
              : {}),
          },
          textDocument: {
            definition: { linkSupport: true },
            hover: { contentFormat: ['markdown', 'plaintext'] },
            documentSymbol: { hierarchicalDocumentSymbolSupport: true },
            synchronization: { didSave: false },
            ...(wide
              ? {
                  implementation: { linkSupport: true },
                  callHierarchy: {},
                  publishDiagnostics: { versionSupport: true, tagSupport: { valueSet: [1, 2] } },
                  diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
                }
              : {}),
          },
          window: { workDoneProgress: true },
          ...(options.serverStatus === true ? { experimental: { serverStatusNotification: true } } : {}),
        },
      }),
      exited,
    ])
    client.capabilities = initialized.capabilities
    await connection.sendNotification(InitializedNotification.type, {})
    exited.catch(() => undefined)
    return client
  }

  /**
   * Resolves once the server's last `experimental/serverStatus` says quiescent (at once when it already does);
   * rejects after `deadlineMs`. Needs `serverStatus` at start.
   */
  untilQuiescent(deadlineMs = 300_000): Promise<void> {
    if (this.lastServerStatus?.quiescent === true) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const index = this.quiescentWaiters.indexOf(wake)
        if (index >= 0) this.quiescentWaiters.splice(index, 1)
        reject(
          new Error(
            `${this.server.command} did not report quiescent within ${deadlineMs} ms (last status: ${JSON.stringify(this.lastServerStatus)})`,
          ),
        )
      }, deadlineMs)
      const wake = () => {
        clearTimeout(timer)
        resolve()
      }
      this.quiescentWaiters.push(wake)
    })
  }

  /** Opens the file once (the floor's entire document policy); `path` is workspace-relative or absolute. */
  async ensureOpen(path: string): Promise<string> {
    const absolute = nodePath.isAbsolute(path) ? path : nodePath.join(this.root, path)
    const uri = pathToFileURL(absolute).href
    if (!this.opened.has(uri)) {
      this.opened.add(uri)
      this.versions.set(uri, 1)
      const text = await readFile(absolute, 'utf8')
      await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: this.server.languageIdFor(absolute), version: 1, text },
      })
    }
    return uri
  }

  /** Whether the file is open on the server (opened by an earlier query); `path` is workspace-relative or absolute. */
  isOpen(path: string): boolean {
    return this.opened.has(this.uriOf(path))
  }

  /** An open document's new text, as an editor sends it (didChange, the whole text, the next version). */
  async changeDocument(path: string, text: string): Promise<void> {
    const uri = this.uriOf(path)
    if (!this.opened.has(uri)) throw new Error(`${path} is not open on the bare server`)
    const version = (this.versions.get(uri) ?? 1) + 1
    this.versions.set(uri, version)
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    })
  }

  /** Files created, changed or deleted on disk, as an editor's file watcher reports them (didChangeWatchedFiles). */
  async notifyWatchedFiles(changes: ReadonlyArray<{ readonly path: string; readonly type: FileChangeType }>): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: changes.map((change) => ({ uri: this.uriOf(change.path), type: change.type })),
    })
  }

  private uriOf(path: string): string {
    return pathToFileURL(nodePath.isAbsolute(path) ? path : nodePath.join(this.root, path)).href
  }

  /** Sends one read query; resolves to the server's raw answer. */
  async run(query: ReadQuery): Promise<unknown> {
    const uri = await this.ensureOpen(query.path)
    const textDocument = { uri }
    switch (query.operation) {
      case 'definition':
        return this.connection.sendRequest(DefinitionRequest.type, { textDocument, position: query.position })
      case 'references':
        return this.connection.sendRequest(ReferencesRequest.type, {
          textDocument,
          position: query.position,
          context: { includeDeclaration: true },
        })
      case 'hover':
        return this.connection.sendRequest(HoverRequest.type, { textDocument, position: query.position })
      case 'documentSymbols':
        return this.connection.sendRequest(DocumentSymbolRequest.type, { textDocument })
      case 'typeHierarchy':
        // No type hierarchy natively: the requests codeseam derives it from (type-hierarchy.ts).
        return floorTypeHierarchy(this, query)
      case 'implementation':
        return this.connection.sendRequest(ImplementationRequest.type, { textDocument, position: query.position })
      case 'callHierarchy': {
        // Prepare, then the first item's incoming calls: two round trips, as every layer makes them.
        const items = await this.connection.sendRequest(CallHierarchyPrepareRequest.type, { textDocument, position: query.position })
        const first = items?.[0]
        const calls =
          first === undefined ? null : await this.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: first })
        return { items, calls }
      }
      case 'diagnostics':
        return this.diagnostics(uri)
    }
  }

  /** Whether the server answers textDocument/diagnostic (in its capabilities or registered later). */
  get pullsDiagnostics(): boolean {
    return this.capabilities.diagnosticProvider !== undefined || this.registered.has(DocumentDiagnosticRequest.method)
  }

  /**
   * Diagnostics of an open document, the bare way: pulled with textDocument/diagnostic when the server
   * offers it, else the last ones it published (waiting for the first publication, bounded).
   */
  private async diagnostics(uri: string, waitMs = 60_000): Promise<Diagnostic[]> {
    if (this.pullsDiagnostics) {
      const report = await this.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })
      return report.kind === DocumentDiagnosticReportKind.Full ? report.items : (this.published.get(uri) ?? [])
    }
    if (!this.published.has(uri)) {
      let timer: NodeJS.Timeout | undefined
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs)
        this.publishWaiters.set(uri, [...(this.publishWaiters.get(uri) ?? []), resolve])
      })
      clearTimeout(timer)
    }
    return this.published.get(uri) ?? []
  }

  /** References (with the declaration) at a position, the raw answer. */
  async references(path: string, position: { readonly line: number; readonly character: number }): Promise<Location[] | null> {
    const uri = await this.ensureOpen(path)
    return this.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: true } })
  }

  /** The document outline, the raw answer; `path` is workspace-relative or absolute. */
  async documentSymbols(path: string): Promise<DocumentSymbol[] | SymbolInformation[] | null> {
    return this.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: await this.ensureOpen(path) } })
  }

  /** workspace/symbol, the raw answer. */
  workspaceSymbols(query: string): Promise<SymbolInformation[] | WorkspaceSymbol[] | null> {
    return this.connection.sendRequest(WorkspaceSymbolRequest.type, { query })
  }

  private stopping: Promise<void> | undefined

  /** Shuts the server down (bounded) and makes sure the process is gone. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown()
    return this.stopping
  }

  private async shutdown(): Promise<void> {
    const gone = new Promise<void>((resolve) => {
      if (this.process.exitCode !== null || this.process.signalCode !== null) resolve()
      else this.process.once('exit', () => resolve())
    })
    const kill = setTimeout(() => this.process.kill('SIGKILL'), 5_000)
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), gone])
      await this.connection.sendNotification(ExitNotification.type)
    } catch {
      this.process.kill('SIGKILL')
    }
    await gone
    clearTimeout(kill)
    this.connection.dispose()
  }
}

function lookupSection(settings: Readonly<Record<string, unknown>>, section: string): unknown {
  if (section in settings) return settings[section]
  let value: unknown = settings
  for (const part of section.split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) return null
    value = (value as Record<string, unknown>)[part]
  }
  return value
}
