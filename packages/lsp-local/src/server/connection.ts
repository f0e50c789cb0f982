import {
  ApplyWorkspaceEditRequest,
  CodeLensRefreshRequest,
  ConfigurationRequest,
  DiagnosticRefreshRequest,
  InlayHintRefreshRequest,
  LogMessageNotification,
  ErrorCodes,
  NotificationType,
  NotificationType0,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  RequestType,
  ResponseError,
  SemanticTokensRefreshRequest,
  ShowDocumentRequest,
  ShowMessageNotification,
  ShowMessageRequest,
  TelemetryEventNotification,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
  createMessageConnection,
  type ApplyWorkspaceEditParams,
  type ApplyWorkspaceEditResult,
  type ConfigurationItem,
  type MessageConnection,
  type PublishDiagnosticsParams,
  type Registration,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
  type WorkspaceFolder,
} from 'vscode-languageserver-protocol/node'

import { messageWriter } from './message-writer.js'
import type { LanguageServerSpec } from './spec.js'
import type { ServerProcess } from './process.js'
import { droppedAnswerError, guardedStream, GuardedMessageReader } from './guarded-stream.js'

/**
 * typescript-language-server ends an extract refactoring by asking the client to start a rename at the new
 * name (a request of its own, not in the protocol). A host has no editor to do that; refusing it would
 * fail the whole refactoring after its edit was already applied, so it is answered with null.
 */
const typeScriptRenameRequest = new RequestType<unknown, null, void>('_typescript.rename')

/**
 * VS Code's own content request: the JSON and YAML servers ask the client for a schema they do not read
 * themselves (any `http:`/`https:` one). codeseam downloads nothing for a server, so it is refused, and the
 * server reports the schema as not loaded.
 */
const vscodeContentRequest = new RequestType<string, string, void>('vscode/content')

/** Tells yaml-language-server to ask the client ({@link vscodeContentRequest}) for remote schemas instead of fetching them. */
export const yamlRegisterContentRequest = new NotificationType0('yaml/registerContentRequest')

/**
 * clangd's own per-file activity (sent only when initialized with `initializationOptions.clangdFileStatus`):
 * `state` is "idle" when nothing is queued or building for the file, else what it is doing ("parsing
 * includes", "file is queued", …).
 */
export interface FileStatusParams {
  readonly uri: string
  readonly state: string
}
const clangdFileStatusNotification = new NotificationType<FileStatusParams>('textDocument/clangd.fileStatus')

/** rust-analyzer's own status (sent when the client sets `experimental.serverStatusNotification`): `quiescent` once indexing is done. */
export interface ServerStatusParams {
  readonly health: 'ok' | 'warning' | 'error'
  readonly quiescent: boolean
  readonly message?: string
}
const serverStatusNotification = new NotificationType<ServerStatusParams>('experimental/serverStatus')

/** What the host answers and observes when the server talks to it. */
export interface ClientHandlers {
  configuration(items: ReadonlyArray<ConfigurationItem>): unknown[]
  workspaceFolders(): WorkspaceFolder[]
  register(registrations: ReadonlyArray<Registration>): void
  unregister(ids: ReadonlyArray<string>): void
  applyEdit(params: ApplyWorkspaceEditParams): ApplyWorkspaceEditResult
  progress(token: string | number, value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd): void
  serverStatus(params: ServerStatusParams): void
  diagnostics(params: PublishDiagnosticsParams): void
  /** The server ran an analysis pass: it pushed diagnostics, or asked for them to be pulled again. */
  analysisPass(): void
  /** A server's report of what it is doing with one file (clangd's file status). */
  fileStatus(params: FileStatusParams): void
  /** The transport broke: the guard refused the output, or the reader or writer failed. */
  broken(error: Error): void
  /** The server's output ended (it is exiting, or it closed stdout and lives on). */
  closed(): void
}

/**
 * The JSON-RPC connection to one server process: typed descriptors only, with the stdout guard in front
 * of the reader. Every server→client request gets an answer, because some servers (the native
 * TypeScript 7 server) block until theirs are answered.
 */
export function connect(
  process: ServerProcess,
  handlers: ClientHandlers,
  maxMessageBytes: number,
  editor?: (connection: MessageConnection) => void,
): MessageConnection {
  // An answer over maxMessageBytes is dropped unread and its request fails (requests.ts says how); any other
  // oversized or malformed output breaks the connection.
  const reader: GuardedMessageReader = new GuardedMessageReader(
    guardedStream(process.stdout, maxMessageBytes, {
      violation: (violation) => handlers.broken(violation),
      droppedAnswer: (answer) => reader.insert(droppedAnswerError(answer, maxMessageBytes), answer.after),
    }),
  )
  const connection = createMessageConnection(reader, messageWriter(process.stdin))

  connection.onRequest(ConfigurationRequest.type, (params) => handlers.configuration(params.items))
  connection.onRequest(WorkspaceFoldersRequest.type, () => handlers.workspaceFolders())
  connection.onRequest(RegistrationRequest.type, (params) => handlers.register(params.registrations))
  connection.onRequest(UnregistrationRequest.type, (params) => handlers.unregister(params.unregisterations.map((u) => u.id)))
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined)
  connection.onRequest(ApplyWorkspaceEditRequest.type, (params) => handlers.applyEdit(params))
  connection.onRequest(typeScriptRenameRequest, () => null)
  connection.onRequest(
    vscodeContentRequest,
    (uri) => new ResponseError(ErrorCodes.InvalidRequest, `codeseam downloads nothing for a language server (${uri} was not fetched)`),
  )
  connection.onRequest(ShowMessageRequest.type, () => null)
  connection.onRequest(ShowDocumentRequest.type, () => ({ success: false }))
  // Refresh requests ask a UI to re-query; the host re-queries on every request anyway. A diagnostics refresh
  // also says the server ran an analysis pass (see AnalysisPasses).
  connection.onRequest(DiagnosticRefreshRequest.type, () => handlers.analysisPass())
  connection.onRequest(InlayHintRefreshRequest.type, () => undefined)
  connection.onRequest(CodeLensRefreshRequest.type, () => undefined)
  connection.onRequest(SemanticTokensRefreshRequest.type, () => undefined)
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    handlers.diagnostics(params)
    handlers.analysisPass()
  })
  connection.onNotification(clangdFileStatusNotification, (params) => handlers.fileStatus(params))
  connection.onNotification(serverStatusNotification, (params) => handlers.serverStatus(params))
  connection.onNotification(LogMessageNotification.type, () => {})
  connection.onNotification(ShowMessageNotification.type, () => {})
  connection.onNotification(TelemetryEventNotification.type, () => {})
  connection.onUnhandledNotification(() => {})
  connection.onUnhandledProgress((params: { token: string | number; value: unknown }) => {
    const value = params.value as { kind?: unknown } | null
    if (value !== null && typeof value === 'object' && (value.kind === 'begin' || value.kind === 'report' || value.kind === 'end')) {
      handlers.progress(params.token, value as WorkDoneProgressBegin)
    }
  })
  editor?.(connection)
  connection.onError(([error]) => handlers.broken(error))
  connection.onClose(() => handlers.closed())
  connection.listen()
  return connection
}

/** The requests a spec's server makes of its client (its record's `serveClient`), answered; none for most servers. */
export function editorRequests(
  spec: LanguageServerSpec,
  openText: (path: string) => string | undefined,
  busy: { status(params: ServerStatusParams): void },
): ((connection: MessageConnection) => void) | undefined {
  const services = spec.editorServices
  if (services === undefined) return undefined
  const workspaceRoot = spec.workspaceRoot ?? spec.root
  return (connection) =>
    services.serve(connection, {
      workspaceRoot,
      openText,
      listFiles: (root) => services.listFiles(root),
      status: (params) => busy.status(params),
    })
}
