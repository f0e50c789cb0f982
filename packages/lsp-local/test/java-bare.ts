import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import {
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  NotificationType,
  ReferencesRequest,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  createProtocolConnection,
} from 'vscode-languageserver-protocol/node'

import { clientCapabilitiesFor } from '../src/features/client-capabilities.js'
import { section } from '../src/server/handshake.js'
import { toolchainLaunch, withOwnDataFolder } from './oracle/oracle.js'

/*
 * The bare JDT LS's own time to a first answer, for comparing codeseam's cold start with (java-corpus.test.ts, on
 * request): started from the same spawn plan codeseam uses for an untrusted root (a data folder of its own), one
 * file opened, the first references asked once JDT LS says `ServiceReady` — what a client that knows the server's
 * readiness report does.
 */

const languageStatus = new NotificationType<{ type: string; message?: string }>('language/status')

export interface BareFirstAnswer {
  /** Spawn → `language/status` ServiceReady, ms. */
  readonly readyMs: number
  /** Spawn → the first references answer, ms. */
  readonly answerMs: number
  readonly references: number
}

export async function measureBareFirstAnswer(
  root: string,
  file: string,
  position: { line: number; character: number },
  timeoutMs = 180_000,
): Promise<BareFirstAnswer> {
  const data = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-bare-jdtls-data-')))
  const launch = withOwnDataFolder(await toolchainLaunch(root, 'java', 'untrusted'), data)
  const started = performance.now()
  const child = spawn(launch.command, [...launch.args], { cwd: root, env: launch.env, stdio: ['pipe', 'pipe', 'ignore'] })
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`JDT LS exited (${String(code)})`))))
  exited.catch(() => {})
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the bare JDT LS gave no first answer within ${timeoutMs} ms (language/status: ${statuses.join(', ')})`)),
      timeoutMs,
    )
  })
  const bounded = <T>(promise: Promise<T>) => Promise.race([promise, exited, deadline])
  const statuses: string[] = []
  const ready = new Promise<number>((resolve) =>
    connection.onNotification(languageStatus, ({ type }) => {
      statuses.push(`${type} at ${Math.round(performance.now() - started)} ms`)
      if (type === 'ServiceReady') resolve(performance.now() - started)
    }),
  )
  connection.onRequest(ConfigurationRequest.type, (params) =>
    params.items.map((item) => section(launch.layout.settings, item.section) ?? null),
  )
  connection.onRequest(RegistrationRequest.type, () => undefined)
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined)
  connection.onUnhandledNotification(() => {})
  connection.listen()
  try {
    const uri = pathToFileURL(nodePath.join(root, file)).href
    await bounded(
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: pathToFileURL(root).href,
        workspaceFolders: [{ uri: pathToFileURL(root).href, name: nodePath.basename(root) }],
        capabilities: clientCapabilitiesFor({ id: 'jdtls', command: '', args: [] }),
        initializationOptions: launch.initializationOptions ?? null,
      }),
    )
    await connection.sendNotification(InitializedNotification.type, {})
    await connection.sendNotification(DidChangeConfigurationNotification.type, { settings: launch.layout.settings })
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'java', version: 1, text: readFileSync(nodePath.join(root, file), 'utf8') },
    })
    const readyMs = await bounded(ready)
    const references = await bounded(
      connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: true } }),
    )
    return { readyMs, answerMs: performance.now() - started, references: references?.length ?? 0 }
  } finally {
    clearTimeout(timer)
    await Promise.race([
      (async () => {
        await connection.sendRequest(ShutdownRequest.type)
        await connection.sendNotification(ExitNotification.type)
      })(),
      new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
    ]).catch(() => {})
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await gone
    }
    connection.dispose()
    rmSync(data, { recursive: true, force: true })
  }
}
