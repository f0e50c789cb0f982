// Self-test of the fault-injecting fixture server: a bare vscode-jsonrpc client drives every scenario and
// checks that the server really does what it claims, so the host tests built on it mean something.
import { writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  CancellationTokenSource,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ReferencesRequest,
  ShutdownRequest,
  ExitNotification,
  WorkspaceSymbolRequest,
  type Location,
} from 'vscode-languageserver-protocol/node'

import { BareClient, bareAnswers } from './fault-server/bare-client.js'
import {
  FaultLog,
  isProcessAlive,
  killLeftovers,
  Lifelines,
  positionOf,
  scratchDir,
  withDeadline,
  wordPositions,
} from './fault-server/harness.js'

const mainText = ['import { greet } from "./lib"', '', 'function main() {', '  greet("world") // FIXME', '  return greet', '}', ''].join(
  '\n',
)
const libText = ['export function greet(name) {', '  return name   ', '}', ''].join('\n')

let scratch: { path: string; dispose: () => Promise<void> }
let lifelines: Lifelines
let rootUri: string
let mainUri: string
let libUri: string
const logs: FaultLog[] = []
const clients: BareClient[] = []

beforeAll(async () => {
  scratch = await scratchDir('fault-server-')
  lifelines = await Lifelines.open(scratch.path)
  rootUri = pathToFileURL(scratch.path).href
  mainUri = `${rootUri}/main.fault`
  libUri = `${rootUri}/lib.fault`
})

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()))
})

afterAll(async () => {
  const pids = logs.flatMap((l) => l.pids())
  const leaked = killLeftovers(pids)
  await lifelines?.close()
  await scratch?.dispose()
  expect(leaked, 'fault servers still alive after the suite').toEqual([])
})

/** Starts the server with a fresh log and the suite's lifeline; `args` select the scenario. */
function start(...args: string[]): { client: BareClient; log: FaultLog } {
  const log = new FaultLog(nodePath.join(scratch.path, `log-${logs.length}.jsonl`))
  logs.push(log)
  const client = BareClient.start(['--log', log.path, '--lifeline', lifelines.path, ...args], rootUri)
  clients.push(client)
  return { client, log }
}

async function openFixture(client: BareClient): Promise<void> {
  await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: libUri, languageId: 'fault', version: 1, text: libText },
  })
  await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: mainUri, languageId: 'fault', version: 1, text: mainText },
  })
}

const atGreetCall = () => ({ textDocument: { uri: mainUri }, position: positionOf(mainText, 'greet("world")', 1, 2) })

/** Resolves with how `promise` settled, so a rejection can be inspected without try/catch. */
function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: any }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  )
}

describe('normal scenario', { timeout: 60_000 }, () => {
  it('answers from the synced text, records what it received and exits cleanly', async () => {
    const { client, log } = start('--scenario', 'normal')
    const init = await client.initialize()
    expect(init.capabilities).toMatchObject({
      definitionProvider: true,
      referencesProvider: true,
      hoverProvider: true,
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
    })
    expect(init.capabilities.diagnosticProvider).toBeDefined()
    await openFixture(client)

    const definition = (await client.connection.sendRequest(DefinitionRequest.type, atGreetCall())) as Location[]
    expect(definition).toEqual([
      { uri: libUri, range: { start: positionOf(libText, 'greet'), end: positionOf(libText, 'greet', 1, 'greet'.length) } },
    ])

    const references = await client.connection.sendRequest(ReferencesRequest.type, {
      ...atGreetCall(),
      context: { includeDeclaration: true },
    })
    const expected = [
      ...wordPositions(libText, 'greet').map((start) => ({ uri: libUri, start })),
      ...wordPositions(mainText, 'greet').map((start) => ({ uri: mainUri, start })),
    ]
    expect(references?.map((r) => ({ uri: r.uri, start: r.range.start }))).toEqual(expected)
    const withoutDeclaration = await client.connection.sendRequest(ReferencesRequest.type, {
      ...atGreetCall(),
      context: { includeDeclaration: false },
    })
    expect(withoutDeclaration).toHaveLength(expected.length - 1)

    const hover = await client.connection.sendRequest(HoverRequest.type, atGreetCall())
    expect(JSON.stringify(hover?.contents)).toContain('greet')
    const symbols = await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: mainUri } })
    expect(symbols?.map((s) => s.name)).toEqual(['main'])
    const workspaceSymbols = await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'gre' })
    expect(workspaceSymbols?.map((s) => s.name)).toEqual(['greet'])
    const pulled = await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: mainUri } })
    expect(pulled).toMatchObject({ kind: 'full', items: [{ range: { start: positionOf(mainText, 'FIXME') }, severity: 2 }] })
    await client.waitForOutput(
      () => client.diagnostics.some((d) => d.uri === mainUri && d.diagnostics.length === 1),
      'pushed FIXME diagnostics',
    )
    const formatted = await client.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri: libUri },
      options: { tabSize: 2, insertSpaces: true },
    })
    expect(formatted).toEqual([{ range: { start: positionOf(libText, '   '), end: positionOf(libText, '   ', 1, 3) }, newText: '' }])

    // An incremental change renames the call site: the next definition answers from the new text.
    const callStart = positionOf(mainText, 'greet("world")')
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: mainUri, version: 2 },
      contentChanges: [
        { range: { start: callStart, end: { line: callStart.line, character: callStart.character + 'greet'.length } }, text: 'farewell' },
      ],
    })
    const moved = await client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: mainUri }, position: callStart })
    expect(moved).toEqual([
      { uri: mainUri, range: { start: callStart, end: { line: callStart.line, character: callStart.character + 'farewell'.length } } },
    ])

    await client.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: mainUri } })
    await client.connection.sendRequest(ShutdownRequest.type)
    await client.connection.sendNotification(ExitNotification.type)
    expect(await client.exit).toEqual({ code: 0, signal: null })

    const initialize = log.received('initialize')[0]
    expect(initialize?.params.processId).toBe(process.pid)
    expect(log.received('textDocument/didClose').map((e) => e.params.textDocument.uri)).toEqual([mainUri])
    expect(log.received('textDocument/didChange')[0]?.params.textDocument.version).toBe(2)
    expect(log.entries().at(-1)).toMatchObject({ event: 'exit', code: 0 })
  })

  it('exits when the client closes its stdin, and the lifeline reports the death', async () => {
    const { client, log } = start()
    await client.initialize()
    const [pid] = log.pids()
    expect(lifelines.alive()).toContain(pid)
    client.child.stdin.end()
    expect(await client.exit).toEqual({ code: 0, signal: null })
    await lifelines.exited(pid ?? -1)
    expect(isProcessAlive(pid ?? -1)).toBe(false)
  })
})

describe('crashes', { timeout: 60_000 }, () => {
  it('exits with a stderr message on the Nth matching request', async () => {
    const { client, log } = start('--scenario', 'crash', '--method', DefinitionRequest.method, '--after', '2')
    await client.initialize()
    await openFixture(client)
    expect(await client.connection.sendRequest(DefinitionRequest.type, atGreetCall())).toHaveLength(1)
    // The second definition never gets an answer: the process dies while the request is in flight.
    const second = settle(client.connection.sendRequest(DefinitionRequest.type, atGreetCall()))
    const exit = await client.exit
    expect(exit).toEqual({ code: 70, signal: null })
    expect(client.stderr()).toContain('simulated crash while serving textDocument/definition (request #2')
    client.connection.dispose()
    expect((await second).ok).toBe(false)
    expect(log.entries().filter((e) => e.event === 'fault')).toMatchObject([
      { action: 'crash', method: DefinitionRequest.method, count: 2 },
    ])
  })

  it('can die half-way through writing a frame', async () => {
    const { client } = start('--scenario', 'crash', '--mode', 'partial', '--method', HoverRequest.method)
    await client.initialize()
    const before = client.stdout().length
    void settle(client.connection.sendRequest(HoverRequest.type, atGreetCall()))
    expect(await client.exit).toEqual({ code: 70, signal: null })
    const tail = client.stdout().subarray(before).toString('utf8')
    const declared = Number(/Content-Length: (\d+)\r\n\r\n/.exec(tail)?.[1])
    const body = tail.slice(tail.indexOf('\r\n\r\n') + 4)
    expect(declared).toBeGreaterThan(0)
    expect(Buffer.byteLength(body)).toBeLessThan(declared)
  })

  it('can be killed by a signal', async () => {
    const { client } = start('--scenario', 'crash', '--mode', 'kill')
    await client.initialize()
    void settle(client.connection.sendRequest(HoverRequest.type, atGreetCall()))
    expect(await client.exit).toEqual({ code: null, signal: 'SIGKILL' })
  })

  it('holds requests and crashes with all of them in flight', async () => {
    const { client, log } = start('--scenario', 'crash-when-pending', '--pending', '5', '--method', HoverRequest.method)
    await client.initialize()
    await openFixture(client)
    const pending = Array.from({ length: 5 }, () => settle(client.connection.sendRequest(HoverRequest.type, atGreetCall())))
    expect(await client.exit).toEqual({ code: 70, signal: null })
    client.connection.dispose()
    expect((await Promise.all(pending)).every((s) => !s.ok)).toBe(true)
    expect(log.entries().filter((e) => e.event === 'held')).toHaveLength(5)
    expect(client.stderr()).toContain('with 5 requests in flight')
  })

  it('--first-process-only: a restarted server (same log) behaves', async () => {
    const args = ['--scenario', 'crash', '--method', DefinitionRequest.method, '--first-process-only']
    const { client: first, log } = start(...args)
    await first.initialize()
    await openFixture(first)
    void settle(first.connection.sendRequest(DefinitionRequest.type, atGreetCall()))
    expect((await first.exit).code).toBe(70)
    const second = BareClient.start(['--log', log.path, '--lifeline', lifelines.path, ...args], rootUri)
    clients.push(second)
    await second.initialize()
    await openFixture(second)
    expect(await second.connection.sendRequest(DefinitionRequest.type, atGreetCall())).toHaveLength(1)
    expect(log.pids()).toHaveLength(2)
  })

  it('crash loop: dies right after every initialize', async () => {
    const { client } = start('--scenario', 'crash-loop')
    const init = await client.initialize()
    expect(init.serverInfo?.name).toBe('fault-server')
    expect(await client.exit).toEqual({ code: 71, signal: null })
    expect(client.stderr()).toContain('crash loop')
  })
})

describe('silence', { timeout: 60_000 }, () => {
  it('hang: never answers the method, even when cancelled, and still answers everything else', async () => {
    const { client, log } = start('--scenario', 'hang', '--method', DefinitionRequest.method)
    await client.initialize()
    await openFixture(client)
    const source = new CancellationTokenSource()
    const hung = settle(client.connection.sendRequest(DefinitionRequest.type, atGreetCall(), source.token))
    await log.waitFor((entries) => entries.find((e) => e.event === 'fault' && e['action'] === 'hang'), 'the hang fault')
    expect(await client.connection.sendRequest(HoverRequest.type, atGreetCall())).not.toBeNull()
    source.cancel()
    const cancel = await log.waitFor(
      (entries) => entries.find((e) => e.event === 'received' && e['method'] === '$/cancelRequest'),
      '$/cancelRequest',
    )
    const request = log.received(DefinitionRequest.method)[0]
    expect((cancel as { params?: { id?: unknown } }).params?.id).toBe(request?.id)
    // The server handles messages in order: once shutdown is answered, the cancelled definition was not.
    await client.connection.sendRequest(ShutdownRequest.type)
    expect(log.entries().some((e) => e.event === 'fault' && e['action'] === 'slow-cancelled')).toBe(false)
    client.connection.dispose()
    const outcome = await hung
    expect(outcome.ok).toBe(false)
    expect(outcome.ok ? undefined : outcome.error.code).not.toBe(-32800)
  })

  it('slow: answers late unless cancelled, and answers a cancel with RequestCancelled', async () => {
    const { client, log } = start('--scenario', 'slow', '--method', DefinitionRequest.method, '--delay-ms', '60000')
    await client.initialize()
    await openFixture(client)
    const source = new CancellationTokenSource()
    const slow = settle(client.connection.sendRequest(DefinitionRequest.type, atGreetCall(), source.token))
    await log.waitFor((entries) => entries.find((e) => e.event === 'fault' && e['action'] === 'slow'), 'the slow fault')
    source.cancel()
    const outcome = await slow
    expect(outcome.ok).toBe(false)
    await log.waitFor(
      (entries) => entries.find((e) => e.event === 'fault' && e['action'] === 'slow-cancelled'),
      'the cancel to be honoured',
    )
  })

  it('slow: a short delay still produces the correct answer', async () => {
    const { client } = start('--scenario', 'slow', '--method', DefinitionRequest.method, '--delay-ms', '20')
    await client.initialize()
    await openFixture(client)
    const definition = (await client.connection.sendRequest(DefinitionRequest.type, atGreetCall())) as Location[]
    expect(definition.map((l) => l.uri)).toEqual([libUri])
  })

  it('stop-answering: after N requests nothing is answered, and closing stdin does not end it', async () => {
    const { client, log } = start('--scenario', 'stop-answering', '--after', '2')
    await client.initialize()
    await openFixture(client)
    expect(await client.connection.sendRequest(HoverRequest.type, atGreetCall())).not.toBeNull()
    const silenced = [
      settle(client.connection.sendRequest(HoverRequest.type, atGreetCall())),
      settle(client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: mainUri } })),
    ]
    await log.waitFor(
      (entries) => (entries.filter((e) => e.event === 'received' && e['kind'] === 'request').length >= 4 ? true : undefined),
      'the silenced requests',
    )
    // Shutdown is not answered either: the server is wedged.
    const shutdown = settle(client.connection.sendRequest(ShutdownRequest.type))
    await log.waitFor((entries) => entries.find((e) => e.event === 'received' && e['method'] === 'shutdown'), 'shutdown to arrive')
    client.child.stdin.end()
    await log.waitFor((entries) => entries.find((e) => e.event === 'stdin-closed'), 'the ignored stdin close')
    expect(isProcessAlive(client.child.pid ?? -1)).toBe(true)
    client.child.kill('SIGKILL')
    expect(await client.exit).toEqual({ code: null, signal: 'SIGKILL' })
    client.connection.dispose()
    for (const outcome of await Promise.all([...silenced, shutdown])) expect(outcome.ok).toBe(false)
  })

  it('close-output: stdout ends on the matching request and the process lives on', async () => {
    const { client, log } = start('--scenario', 'close-output')
    await client.initialize()
    await openFixture(client)
    const ended = new Promise<void>((resolve) => client.child.stdout.once('end', () => resolve()))
    const pending = settle(client.connection.sendRequest(DefinitionRequest.type, atGreetCall()))
    await ended
    await log.waitFor((entries) => entries.find((e) => e.event === 'fault' && e['action'] === 'close-output'), 'the close-output fault')
    expect(isProcessAlive(client.child.pid ?? -1)).toBe(true)
    client.child.kill('SIGKILL')
    expect(await client.exit).toEqual({ code: null, signal: 'SIGKILL' })
    client.connection.dispose()
    expect((await pending).ok).toBe(false)
  })

  it('slow-initialize: the server itself delays its initialize answer', async () => {
    const { client, log } = start('--scenario', 'slow-initialize', '--delay-ms', '200')
    const init = await client.initialize()
    expect(init.capabilities.definitionProvider).toBe(true)
    const delay = log.entries().find((e) => e.event === 'initialize-delay')
    expect(delay).toMatchObject({ ms: 200 })
  })
})

describe('bad frames and bad answers', { timeout: 60_000 }, () => {
  it('garbage at startup: non-protocol text before any frame', async () => {
    const { client } = start('--scenario', 'garbage')
    await client.waitForOutput(() => client.stdout().length > 0, 'startup output')
    expect(client.stdout().toString('utf8')).toMatch(/^fault-server: console\.log noise/)
  })

  it('garbage on a request: text instead of the answer', async () => {
    const { client, log } = start('--scenario', 'garbage', '--method', HoverRequest.method)
    await client.initialize()
    const before = client.stdout().length
    void settle(client.connection.sendRequest(HoverRequest.type, atGreetCall()))
    await client.waitForOutput(() => client.stdout().subarray(before).toString('utf8').includes('not a protocol header'), 'the garbage')
    expect(client.stdout().subarray(before).toString('utf8')).not.toMatch(/^Content-Length/)
    expect(log.entries().some((e) => e.event === 'fault' && e['action'] === 'garbage')).toBe(true)
  })

  it('oversized: a well-formed frame whose body really is that large', async () => {
    const bytes = 3 * 1024 * 1024
    const { client } = start('--scenario', 'oversized', '--method', HoverRequest.method, '--bytes', String(bytes))
    await client.initialize()
    const before = client.stdout().length
    const answer = await client.connection.sendRequest(HoverRequest.type, atGreetCall())
    expect(answer).toBeNull() // a bare client has no size limit: the padded frame parses as result null
    const frame = client.stdout().subarray(before)
    expect(frame.subarray(0, 40).toString('ascii')).toContain(`Content-Length: ${bytes}\r\n\r\n`)
    expect(frame.length).toBeGreaterThanOrEqual(bytes)
  })

  it('oversized --header-only: the header promises the size, almost nothing follows', async () => {
    const bytes = 3 * 1024 * 1024
    const { client, log } = start('--scenario', 'oversized', '--method', HoverRequest.method, '--bytes', String(bytes), '--header-only')
    await client.initialize()
    const before = client.stdout().length
    void settle(client.connection.sendRequest(HoverRequest.type, atGreetCall()))
    await client.waitForOutput(() => client.stdout().subarray(before).includes('\r\n\r\n'), 'the oversized header')
    // The server stays alive after the lie: shutdown still reaches it (its answer, stuck behind the promised
    // body, can never be parsed by the client).
    void settle(client.connection.sendRequest(ShutdownRequest.type))
    await log.waitFor((entries) => entries.find((e) => e.event === 'received' && e['method'] === 'shutdown'), 'shutdown to arrive')
    const frame = client.stdout().subarray(before).toString('ascii')
    expect(frame.startsWith(`Content-Length: ${bytes}\r\n\r\n`)).toBe(true)
    expect(frame.length).toBeLessThan(1024)
  })

  it('bad-frame: a body that is not JSON, and a Content-Length that is not a number', async () => {
    for (const [kind, expected] of [
      ['json', /^Content-Length: \d+\r\n\r\n\{"jsonrpc":"2\.0","id":\d+,"result":\{not json/],
      ['header', /^Content-Length: twelve\r\n\r\n/],
    ] as const) {
      const { client } = start('--scenario', 'bad-frame', '--kind', kind, '--method', HoverRequest.method)
      await client.initialize()
      const before = client.stdout().length
      void settle(client.connection.sendRequest(HoverRequest.type, atGreetCall()))
      await client.waitForOutput(() => expected.test(client.stdout().subarray(before).toString('utf8')), `the bad ${kind} frame`)
    }
  })

  it('foreign-uris: out-of-root and non-file URIs next to the real location', async () => {
    const { client } = start('--scenario', 'foreign-uris')
    await client.initialize()
    await openFixture(client)
    const definition = (await client.connection.sendRequest(DefinitionRequest.type, atGreetCall())) as Location[]
    expect(definition.map((l) => l.uri)).toEqual([
      libUri,
      'file:///etc/passwd',
      `${rootUri}/../outside-the-root.fault`,
      `${rootUri}/..%2F..%2Fetc%2Fpasswd`,
      'http://example.com/remote.fault',
      'untitled:Untitled-1',
    ])
    const symbols = await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'greet' })
    expect(symbols).toHaveLength(6)
  })

  it('error: answers with a ResponseError', async () => {
    const { client } = start(
      '--scenario',
      'error',
      '--method',
      DefinitionRequest.method,
      '--code',
      '-32603',
      '--message',
      'index corrupted',
    )
    await client.initialize()
    const outcome = await settle(client.connection.sendRequest(DefinitionRequest.type, atGreetCall()))
    expect(outcome.ok ? undefined : { code: outcome.error.code, message: outcome.error.message }).toEqual({
      code: -32603,
      message: 'index corrupted',
    })
    expect(await client.connection.sendRequest(HoverRequest.type, atGreetCall())).toBeNull() // nothing open: no word, but an answer
  })
})

describe('server → client traffic', { timeout: 60_000 }, () => {
  it('endless-progress: begins work-done progress and never ends it', async () => {
    const { client, log } = start('--scenario', 'endless-progress')
    await client.initialize()
    await log.waitFor((entries) => entries.find((e) => e.event === 'progress-begun'), 'progress to begin')
    await client.waitForOutput(() => client.progress.length > 0, 'the begin notification')
    expect(client.progress).toEqual([{ token: 'fault-indexing', value: expect.objectContaining({ kind: 'begin' }) }])
    expect(log.entries().find((e) => e.event === 'client-answer')).toMatchObject({
      request: 'window/workDoneProgress/create',
      result: null,
    })
  })

  it('empty-while-indexing: empty answers after the progress begins, real ones once it ends', async () => {
    const { client, log } = start('--scenario', 'empty-while-indexing', '--index-ms', '1000')
    await client.initialize()
    await openFixture(client)
    expect(await client.connection.sendRequest(DefinitionRequest.type, atGreetCall())).toEqual([])
    const entries = log.entries().map((e) => e.event)
    expect(entries.indexOf('indexing-begun')).toBeLessThan(entries.indexOf('empty-while-indexing'))
    await log.waitFor((all) => all.find((e) => e.event === 'indexing-done'), 'indexing to finish')
    expect(await client.connection.sendRequest(DefinitionRequest.type, atGreetCall())).toHaveLength(1)
  })

  it('dynamic-registration: registers formatting after initialize and then formats', async () => {
    const { client, log } = start('--scenario', 'dynamic-registration')
    const init = await client.initialize()
    expect(init.capabilities.documentFormattingProvider).toBeUndefined()
    await log.waitFor(
      (entries) => entries.find((e) => e.event === 'client-answer' && e['request'] === 'client/registerCapability'),
      'the registration answer',
    )
    expect(client.registrations).toMatchObject([{ id: 'fault-formatting', method: DocumentFormattingRequest.method }])
    await openFixture(client)
    const edits = await client.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri: libUri },
      options: { tabSize: 2, insertSpaces: true },
    })
    expect(edits).toHaveLength(1)
  })

  it('client-requests: asks for configuration, folders, progress and an unsolicited edit, and logs the answers', async () => {
    const victim = nodePath.join(scratch.path, 'victim.fault')
    writeFileSync(victim, 'untouched\n')
    const { client, log } = start('--scenario', 'client-requests')
    await client.initialize()
    await log.waitFor((entries) => entries.find((e) => e.event === 'client-requests-done'), 'the client requests')
    const answers = Object.fromEntries(
      log
        .entries()
        .filter((e) => e.event === 'client-answer')
        .map((e) => [e['request'], e['result']]),
    )
    expect(answers).toEqual({
      'workspace/configuration': bareAnswers.configuration,
      'workspace/workspaceFolders': bareAnswers.workspaceFolders(rootUri),
      'window/workDoneProgress/create': null,
      'workspace/applyEdit': bareAnswers.applyEdit,
    })
  })
})

describe('exit', { timeout: 60_000 }, () => {
  it('every fault server of this suite has ended once its client is gone', async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()))
    const pids = logs.flatMap((l) => l.pids())
    expect(pids.length).toBeGreaterThan(10)
    await withDeadline(Promise.all(pids.map((pid) => lifelines.exited(pid))), 30_000, 'every fault server to exit')
    expect(pids.filter(isProcessAlive)).toEqual([])
  })
})
