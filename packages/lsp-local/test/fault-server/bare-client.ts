// A bare vscode-jsonrpc client for the fault server's self-test: spawns it, keeps its raw stdout and
// stderr, answers its server→client requests the way a careful client does, and records what it saw.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'

import {
  ApplyWorkspaceEditRequest,
  ConfigurationRequest,
  createProtocolConnection,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Registration,
} from 'vscode-languageserver-protocol/node'

import { faultServerPath, withDeadline } from './harness.js'

/** How a fault-server process ended. */
export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** What the bare client sent back to the server's own requests, in the form the server will log. */
export const bareAnswers = {
  configuration: [{ mode: 'bare' }, null],
  workspaceFolders: (rootUri: string) => [{ uri: rootUri, name: 'root' }],
  applyEdit: { applied: false, failureReason: 'bare client: edits are only applied inside code actions' },
}

export class BareClient {
  readonly connection: ProtocolConnection
  readonly exit: Promise<Exit>
  readonly registrations: Registration[] = []
  readonly progress: { token: string | number; value: unknown }[] = []
  readonly diagnostics: PublishDiagnosticsParams[] = []
  private stdoutChunks: Buffer[] = []
  private stderrText = ''
  private readonly outputListeners = new Set<() => void>()
  private exited: Exit | undefined

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly rootUri: string,
  ) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.stdoutChunks.push(chunk)
      this.notifyOutput()
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      this.stderrText += chunk
    })
    this.exit = new Promise<Exit>((resolve) =>
      child.on('exit', (code, signal) => {
        this.exited = { code, signal }
        resolve(this.exited)
      }),
    )
    this.connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
    this.connection.onError(() => {})
    this.connection.onRequest(ConfigurationRequest.type, () => bareAnswers.configuration)
    this.connection.onRequest(WorkspaceFoldersRequest.type, () => bareAnswers.workspaceFolders(rootUri))
    this.connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined)
    this.connection.onRequest(RegistrationRequest.type, (params) => {
      this.registrations.push(...params.registrations)
      this.notifyOutput()
    })
    this.connection.onRequest(ApplyWorkspaceEditRequest.type, () => bareAnswers.applyEdit)
    this.connection.onProgress(WorkDoneProgress.type, 'fault-indexing', (value) => {
      this.progress.push({ token: 'fault-indexing', value })
      this.notifyOutput()
    })
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.diagnostics.push(params)
      this.notifyOutput()
    })
    this.connection.listen()
  }

  /** Spawns `node server.mjs …args` with the log and lifeline given. */
  static start(args: ReadonlyArray<string>, rootUri: string): BareClient {
    const child = spawn(process.execPath, [faultServerPath, ...args], { stdio: 'pipe' })
    return new BareClient(child, rootUri)
  }

  /** Everything the server wrote to stdout so far, as raw bytes. */
  stdout(): Buffer {
    return Buffer.concat(this.stdoutChunks)
  }

  stderr(): string {
    return this.stderrText
  }

  /** Resolves when `predicate` holds, re-checked on raw stdout, diagnostics, progress and registrations. */
  waitForOutput(predicate: () => boolean, what: string, deadlineMs = 30_000): Promise<void> {
    if (predicate()) return Promise.resolve()
    let listener: (() => void) | undefined
    const reached = new Promise<void>((resolve) => {
      listener = () => {
        if (predicate()) resolve()
      }
      this.outputListeners.add(listener)
    })
    return withDeadline(reached, deadlineMs, what).finally(() => {
      if (listener) this.outputListeners.delete(listener)
    })
  }

  private notifyOutput(): void {
    for (const listener of [...this.outputListeners]) listener()
  }

  async initialize(): Promise<InitializeResult> {
    const result = await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: this.rootUri,
      workspaceFolders: [{ uri: this.rootUri, name: 'root' }],
      capabilities: { window: { workDoneProgress: true }, workspace: { configuration: true, workspaceFolders: true, applyEdit: true } },
    })
    await this.connection.sendNotification(InitializedNotification.type, {})
    return result
  }

  /** Kills the process if it is still running and waits for its exit. */
  async dispose(): Promise<Exit> {
    this.connection.dispose()
    if (this.exited === undefined) this.child.kill('SIGKILL')
    return withDeadline(this.exit, 30_000, `fault server ${this.child.pid} to exit`)
  }
}
