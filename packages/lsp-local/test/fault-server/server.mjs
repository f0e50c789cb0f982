#!/usr/bin/env node
// A small but real language server whose faults are chosen on the command line (see scenario.mjs).
// Run as `node server.mjs --scenario <name> [params] [--log FILE]`; no build step.
//
// Normal path: answers definition, references, hover, document/workspace symbols and diagnostics from the
// text the client synced. Fault path: faults.mjs. Everything received and every answer the client gave to
// the server's own requests is logged (record.mjs) so tests can check what the client really sent.
import { writeSync } from 'node:fs'
import { connect } from 'node:net'

// The package is CommonJS whose re-exports Node cannot name statically: import the namespace.
import protocol from 'vscode-languageserver-protocol/node'

const {
  ApplyWorkspaceEditRequest,
  ConfigurationRequest,
  createProtocolConnection,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DiagnosticRefreshRequest,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  DocumentSymbolRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PositionEncodingKind,
  PublishDiagnosticsNotification,
  ReferencesRequest,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  SymbolKind,
  TextDocumentSyncKind,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
  WorkspaceSymbolRequest,
} = protocol

import { DocumentStore } from './documents.mjs'
import { createFaultLayer, die, garbageText } from './faults.mjs'
import { FlightRecorder, OutputQueue, recordingReader } from './record.mjs'
import { parseScenario } from './scenario.mjs'

/**
 * @typedef {import('vscode-languageserver-protocol/node').Location} Location
 * @typedef {import('vscode-languageserver-protocol/node').InitializeParams} InitializeParams
 */

const spec = parseScenario(process.argv.slice(2))
const recorder = new FlightRecorder(spec.log)
if (spec.firstProcessOnly && recorder.isRestart()) {
  spec.requestFaults = []
  spec.crashOnChange = 0
}
recorder.record('start', { ppid: process.ppid, argv: process.argv.slice(2), spec })
writeSync(2, `fault-server ${process.pid}: scenarios ${spec.scenarios.join(', ') || 'normal'}\n`)

// A leaked fault server must not outlive a test run by long; the test's own leak check fires far earlier.
// A wedged server (ignoreStdinClose) stays alive on this timer alone, as a real wedged server would.
const lifetime = setTimeout(() => die(recorder, 3, 'fault-server: max lifetime reached (was it leaked?)'), spec.maxLifetimeMs)
if (!spec.ignoreStdinClose) lifetime.unref()
process.on('SIGTERM', () => {
  recorder.record('signal', { signal: 'SIGTERM', ignored: spec.ignoreSigterm })
  if (!spec.ignoreSigterm) die(recorder, 143, 'fault-server: terminated by SIGTERM')
})
process.on('uncaughtException', (error) => die(recorder, 99, `fault-server: uncaught ${error.stack ?? error}`))

const output = new OutputQueue(new StreamMessageWriter(process.stdout), process.stdout)

const documents = new DocumentStore(spec.extensions)
let rootUri = ''
/** empty-while-indexing: settles once the indexing progress has begun; `indexing` is true until it ends. */
let indexingBegun = Promise.resolve()
let indexing = false
let shutdownRequested = false

/** @param {Location[]} locations */
const withForeignUris = (locations) => {
  const range = locations[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }
  return [...locations, ...spec.foreignUris.map((uri) => ({ uri: uri.replaceAll('{root}', rootUri), range }))]
}

/** The normal answers, keyed by the descriptors' methods so late (slow) answers use the same code. */
const answers = {
  /** @param {import('vscode-languageserver-protocol/node').DefinitionParams} params */
  [DefinitionRequest.method]: (params) => withForeignUris(documents.definition(params.textDocument.uri, params.position)),
  /** @param {import('vscode-languageserver-protocol/node').ReferenceParams} params */
  [ReferencesRequest.method]: (params) =>
    withForeignUris(documents.references(params.textDocument.uri, params.position, params.context.includeDeclaration)),
  /**
   * @param {import('vscode-languageserver-protocol/node').HoverParams} params
   * @returns {import('vscode-languageserver-protocol/node').Hover | null}
   */
  [HoverRequest.method]: (params) => {
    const target = documents.wordAt(params.textDocument.uri, params.position)
    if (target === undefined) return null
    const declared = documents.declarations().find((d) => d.name === target.word)
    const where = declared === undefined ? 'not declared in an open document' : `declared in ${declared.uri.split('/').at(-1)}`
    return {
      contents: { kind: /** @type {const} */ ('markdown'), value: `\`\`\`fault\n${target.word}\n\`\`\`\n${where}` },
      range: target.range,
    }
  },
  /**
   * @param {import('vscode-languageserver-protocol/node').DocumentSymbolParams} params
   * @returns {import('vscode-languageserver-protocol/node').DocumentSymbol[]}
   */
  [DocumentSymbolRequest.method]: (params) =>
    documents
      .declarations(params.textDocument.uri)
      .map((d) => ({ name: d.name, kind: d.kind, range: d.range, selectionRange: d.selectionRange, children: [] })),
  /**
   * @param {import('vscode-languageserver-protocol/node').WorkspaceSymbolParams} params
   * @returns {import('vscode-languageserver-protocol/node').SymbolInformation[]}
   */
  [WorkspaceSymbolRequest.method]: (params) => {
    const query = params.query.toLowerCase()
    const found = documents
      .declarations()
      .filter((d) => d.name.toLowerCase().includes(query))
      .map((d) => ({ name: d.name, kind: d.kind, location: { uri: d.uri, range: d.selectionRange } }))
    const range = found[0]?.location.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }
    const foreign = spec.foreignUris.map((uri, index) => ({
      name: `${params.query}Foreign${index}`,
      kind: SymbolKind.Function,
      location: { uri: uri.replaceAll('{root}', rootUri), range },
    }))
    return [...found, ...foreign]
  },
  /**
   * @param {import('vscode-languageserver-protocol/node').DocumentDiagnosticParams} params
   * @returns {import('vscode-languageserver-protocol/node').DocumentDiagnosticReport}
   */
  [DocumentDiagnosticRequest.method]: (params) => ({
    kind: /** @type {const} */ ('full'),
    items: documents.diagnostics(params.textDocument.uri),
  }),
  /** @param {import('vscode-languageserver-protocol/node').DocumentFormattingParams} params */
  [DocumentFormattingRequest.method]: (params) => documents.format(params.textDocument.uri),
}

const answer = async (/** @type {string} */ method, /** @type {any} */ params) => {
  const compute = /** @type {Record<string, ((params: any) => unknown) | undefined>} */ (answers)[method]
  if (compute === undefined) throw new Error(`no answer for ${method}`)
  return compute(params)
}

const reader = new StreamMessageReader(process.stdin)
const intercept = createFaultLayer({ spec, recorder, output, answer })
const connection = createProtocolConnection(recordingReader(reader, recorder, intercept), output.asWriter(), {
  error: (message) => writeSync(2, `fault-server: ${message}\n`),
  warn: (message) => writeSync(2, `fault-server: ${message}\n`),
  info: () => {},
  log: () => {},
})

/**
 * Sends one server→client request and logs the client's answer (or refusal).
 * @template T
 * @param {string} name
 * @param {() => Promise<T>} send
 */
const askClient = async (name, send) => {
  try {
    const result = await send()
    recorder.record('client-answer', { request: name, result })
    return result
  } catch (error) {
    const { code, message } = /** @type {{ code?: number, message?: string }} */ (error)
    recorder.record('client-answer', { request: name, error: { code, message } })
    return undefined
  }
}

/**
 * deferred-discovery: an analysis pass runs once no request has come for `discoveryQuietMs` (every request puts a
 * pending one off, as pyright's do); the first after the configuration finds the files on disk. Each pass asks the
 * client to pull diagnostics again, which is the only sign of it.
 */
let passTimer = /** @type {NodeJS.Timeout | undefined} */ (undefined)
const schedulePass = () => {
  clearTimeout(passTimer)
  passTimer = setTimeout(() => {
    passTimer = undefined
    if (!documents.scanDisk) recorder.record('discovered', {})
    documents.scanDisk = true
    void askClient(DiagnosticRefreshRequest.method, () => connection.sendRequest(DiagnosticRefreshRequest.type))
  }, spec.discoveryQuietMs)
  passTimer.unref()
}
/** A request arrived: a pending pass waits for a quiet moment again. */
const putOffPass = () => {
  if (passTimer !== undefined) schedulePass()
}
if (spec.discoveryQuietMs > 0) documents.scanDisk = false

let pullRegistered = false
const publishDiagnostics = (/** @type {string} */ uri) => {
  if (spec.discoveryQuietMs > 0) {
    schedulePass()
    return
  }
  if (spec.latePullRegistration) {
    // Pull only, announced once a document is open: nothing is ever pushed.
    if (!pullRegistered) {
      pullRegistered = true
      void askClient(RegistrationRequest.method, () =>
        connection.sendRequest(RegistrationRequest.type, {
          registrations: [
            {
              id: 'fault-pull-diagnostics',
              method: DocumentDiagnosticRequest.method,
              registerOptions: { documentSelector: [{ scheme: 'file' }], interFileDependencies: false, workspaceDiagnostics: false },
            },
          ],
        }),
      )
    }
    return
  }
  const document = documents.documents.get(uri)
  if (document === undefined) return
  void connection.sendNotification(PublishDiagnosticsNotification.type, {
    uri,
    version: document.version,
    diagnostics: documents.diagnostics(uri),
  })
}

connection.onRequest(
  InitializeRequest.type,
  /** @returns {Promise<import('vscode-languageserver-protocol/node').InitializeResult>} */
  async (/** @type {InitializeParams} */ params) => {
    rootUri = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? ''
    documents.setRoot(rootUri)
    if (spec.initializeDelayMs > 0) {
      recorder.record('initialize-delay', { ms: spec.initializeDelayMs })
      await new Promise((resolve) => setTimeout(resolve, spec.initializeDelayMs))
    }
    return {
      capabilities: {
        positionEncoding: PositionEncodingKind.UTF16,
        textDocumentSync: { openClose: true, change: spec.sync === 'full' ? TextDocumentSyncKind.Full : TextDocumentSyncKind.Incremental },
        definitionProvider: true,
        referencesProvider: true,
        hoverProvider: true,
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        ...(spec.latePullRegistration ? {} : { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } }),
      },
      serverInfo: { name: 'fault-server', version: '1.0.0' },
    }
  },
)

connection.onNotification(InitializedNotification.type, async () => {
  if (spec.exitAfterInitialize) die(recorder, 71, `fault-server: crash loop, exiting right after initialize (pid ${process.pid})`)
  if (spec.indexMs > 0) {
    indexing = true
    indexingBegun = (async () => {
      const token = 'fault-loading'
      await askClient(WorkDoneProgressCreateRequest.method, () => connection.sendRequest(WorkDoneProgressCreateRequest.type, { token }))
      await connection.sendProgress(WorkDoneProgress.type, token, { kind: 'begin', title: 'Loading the project' })
      recorder.record('indexing-begun', { token })
      setTimeout(() => {
        indexing = false
        void connection.sendProgress(WorkDoneProgress.type, token, { kind: 'end' })
        recorder.record('indexing-done', { token })
      }, spec.indexMs)
    })()
  }
  if (spec.discoveryQuietMs > 0) {
    await askClient(ConfigurationRequest.method, () => connection.sendRequest(ConfigurationRequest.type, { items: [{ section: 'fault' }] }))
    // Applying the configuration invalidates what was pulled: a refresh at once, then a pass to find the files.
    void askClient(DiagnosticRefreshRequest.method, () => connection.sendRequest(DiagnosticRefreshRequest.type))
    schedulePass()
  }
  if (spec.registerFormatting) {
    await askClient(RegistrationRequest.method, () =>
      connection.sendRequest(RegistrationRequest.type, {
        registrations: [
          { id: 'fault-formatting', method: DocumentFormattingRequest.method, registerOptions: { documentSelector: [{ scheme: 'file' }] } },
        ],
      }),
    )
  }
  if (spec.endlessProgress) {
    const token = 'fault-indexing'
    await askClient(WorkDoneProgressCreateRequest.method, () => connection.sendRequest(WorkDoneProgressCreateRequest.type, { token }))
    await connection.sendProgress(WorkDoneProgress.type, token, { kind: 'begin', title: 'Indexing (never ends)', percentage: 0 })
    recorder.record('progress-begun', { token })
  }
  if (spec.clientRequests) {
    await askClient(ConfigurationRequest.method, () =>
      connection.sendRequest(ConfigurationRequest.type, { items: [{ section: 'fault' }, { scopeUri: rootUri, section: 'fault.detail' }] }),
    )
    await askClient(WorkspaceFoldersRequest.method, () => connection.sendRequest(WorkspaceFoldersRequest.type))
    const token = 'fault-probe'
    await askClient(WorkDoneProgressCreateRequest.method, () => connection.sendRequest(WorkDoneProgressCreateRequest.type, { token }))
    await connection.sendProgress(WorkDoneProgress.type, token, { kind: 'begin', title: 'Probe' })
    await connection.sendProgress(WorkDoneProgress.type, token, { kind: 'end' })
    // Outside any code action: a careful client refuses (applied: false) and writes nothing.
    const victim = `${rootUri}/victim.fault`
    await askClient(ApplyWorkspaceEditRequest.method, () =>
      connection.sendRequest(ApplyWorkspaceEditRequest.type, {
        label: 'fault-server: unsolicited edit',
        edit: {
          changes: { [victim]: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'INJECTED ' }] },
        },
      }),
    )
    recorder.record('client-requests-done', {})
  }
})

connection.onRequest(ShutdownRequest.type, () => {
  shutdownRequested = true
  return undefined
})
connection.onNotification(ExitNotification.type, () =>
  die(recorder, shutdownRequested ? 0 : 1, `fault-server: exit notification (${shutdownRequested ? 'after' : 'without'} shutdown)`),
)

connection.onNotification(DidOpenTextDocumentNotification.type, ({ textDocument }) => {
  documents.open({ uri: textDocument.uri, languageId: textDocument.languageId, version: textDocument.version, text: textDocument.text })
  publishDiagnostics(textDocument.uri)
})
let changes = 0
connection.onNotification(DidChangeTextDocumentNotification.type, ({ textDocument, contentChanges }) => {
  if (spec.crashOnChange > 0 && ++changes >= spec.crashOnChange)
    return die(recorder, 72, `fault-server: crash on didChange ${changes} of ${textDocument.uri} (pid ${process.pid})`)
  documents.change(textDocument.uri, textDocument.version, contentChanges)
  publishDiagnostics(textDocument.uri)
})
connection.onNotification(DidCloseTextDocumentNotification.type, ({ textDocument }) => documents.close(textDocument.uri))

/**
 * While indexing, queries get empty answers, sent only after the progress begin so the client can tell.
 * @template P, R
 * @param {(params: P) => R} answer
 * @param {R} empty
 * @returns {(params: P) => Promise<R>}
 */
const unlessIndexing = (answer, empty) => async (params) => {
  putOffPass()
  if (!indexing) return answer(params)
  await indexingBegun
  if (!indexing) return answer(params)
  recorder.record('empty-while-indexing', {})
  return empty
}

connection.onRequest(DefinitionRequest.type, unlessIndexing(answers[DefinitionRequest.method], []))
connection.onRequest(ReferencesRequest.type, unlessIndexing(answers[ReferencesRequest.method], []))
connection.onRequest(HoverRequest.type, unlessIndexing(answers[HoverRequest.method], null))
connection.onRequest(DocumentSymbolRequest.type, unlessIndexing(answers[DocumentSymbolRequest.method], []))
connection.onRequest(WorkspaceSymbolRequest.type, unlessIndexing(answers[WorkspaceSymbolRequest.method], []))
connection.onRequest(DocumentDiagnosticRequest.type, (params) => answers[DocumentDiagnosticRequest.method](params))
connection.onRequest(DocumentFormattingRequest.type, (params) => answers[DocumentFormattingRequest.method](params))

connection.onClose(() => {
  if (spec.ignoreStdinClose) recorder.record('stdin-closed', { ignored: true })
  else die(recorder, 0, 'fault-server: client closed the connection')
})
// The lifeline is a socket to the test harness that the kernel closes when this process ends, however it
// ends (SIGKILL included): tests wait on that event instead of polling for the pid. The server starts
// listening only once the harness knows its pid.
// garbage at startup: written once the harness knows the pid, so a client that kills the server for it
// cannot kill it before its lifeline is up (tests wait on the lifeline to see the death).
const startListening = () => {
  if (spec.garbageAtStartup) void output.raw(garbageText)
  connection.listen()
}
if (spec.lifeline === undefined) startListening()
else {
  let listening = false
  const listen = () => {
    if (listening) return
    listening = true
    startListening()
  }
  const lifeline = connect(spec.lifeline, () => {
    lifeline.write(`${process.pid}\n`, () => {
      // From here stdin keeps the process alive; the lifeline must not.
      lifeline.unref()
      listen()
    })
  })
  lifeline.on('error', (error) => {
    writeSync(2, `fault-server: lifeline failed: ${error.message}\n`)
    listen()
  })
}
