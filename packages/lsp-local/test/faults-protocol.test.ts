// The host against a misbehaving server, part 2: what the server says. Bad frames, oversized messages,
// foreign URIs, error answers, endless progress, dynamic registration and the server's own requests.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { describe, expect, it } from 'vitest'

import { isWithin, type LspLocation } from '@codeseam/lsp'

import { positionOf, withDeadline } from './fault-server/harness.js'
import { byPlace, expectGreetDefinition, greetReferences, libText, mainText, useFaultSuite } from './fault-server/host-fixture.js'

const { suite, start } = useFaultSuite('lsp-local-faults-protocol-')

describe('normal path', { timeout: 60_000 }, () => {
  it('answers every advertised operation from the real server, marked ready', async () => {
    const run = await start({ server: ['--scenario', 'normal'] })
    const definition = await run.query({ operation: 'definition', ...run.greetCall() })
    expectGreetDefinition(run, definition.locations)
    expect(definition.meta.status).toBe('ready')

    const references = await run.query({ operation: 'references', ...run.greetCall() })
    expect(references.locations.map((l) => ({ path: l.path, start: l.range.start })).sort(byPlace)).toEqual(greetReferences(run))

    const hover = await run.query({ operation: 'hover', ...run.greetCall() })
    expect(hover.hover?.contents).toContain('greet')
    const symbols = await run.query({ operation: 'documentSymbols', path: run.lib })
    expect(symbols.symbols.map((s) => [s.name, s.kind])).toEqual([['greet', 'function']])
    const workspaceSymbols = await run.query({ operation: 'workspaceSymbols', query: 'gre' })
    expect(workspaceSymbols.symbols.map((s) => s.location.path)).toContain(run.lib)

    const diagnostics = await run.query({ operation: 'diagnostics', path: run.main })
    const forMain = diagnostics.files.find((f) => f.path === run.main)
    expect(forMain?.diagnostics.map((d) => [d.severity, d.range.start])).toEqual([['warning', positionOf(mainText, 'FIXME')]])
    expect(run.pids()).toHaveLength(1)
  })

  for (const sync of ['full', 'incremental'] as const) {
    it(`a file changed on disk reaches a server with ${sync} sync before the next query`, async () => {
      const run = await start({ server: ['--scenario', 'normal', '--sync', sync] })
      expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
      const changed = `// moved down\n\n${mainText}`
      writeFileSync(run.main, changed)
      const moved = positionOf(changed, 'greet("world")', 1, 2)
      expectGreetDefinition(run, (await run.query({ operation: 'definition', path: run.main, position: moved })).locations)
      const symbols = await run.query({ operation: 'documentSymbols', path: run.main })
      expect(symbols.symbols.map((s) => [s.name, s.selectionRange.start])).toEqual([['main', positionOf(changed, 'main')]])

      const changes = run.log
        .received('textDocument/didChange')
        .flatMap((e) => e.params.contentChanges as { range?: unknown; text: string }[])
      expect(changes.length).toBeGreaterThan(0)
      // A full-sync server must never get ranges; an incremental one may get either (the protocol allows a
      // whole-text change there), and the answers above prove its text is the new one.
      if (sync === 'full') {
        expect(changes.every((c) => c.range === undefined)).toBe(true)
        expect(changes.at(-1)?.text).toBe(changed)
      }
    })
  }
})

describe('bad frames', { timeout: 60_000 }, () => {
  it('non-protocol text on stdout at startup is a typed error and the server is killed', async () => {
    const run = await start({ server: ['--scenario', 'garbage'], config: { maxRestarts: 1 } })
    const error = await run.failure({ operation: 'definition', ...run.greetCall() })
    expect(['SERVER_CRASHED', 'MALFORMED_RESPONSE']).toContain(error.code)
    const [first] = run.pids()
    await suite().lifelines.exited(first ?? -1, 30_000)
  })

  it('non-protocol text instead of an answer: typed error, server replaced, next query correct', async () => {
    const run = await start({ server: ['--scenario', 'garbage', '--method', 'textDocument/hover'] })
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    const error = await run.failure({ operation: 'hover', ...run.greetCall() })
    expect(['SERVER_CRASHED', 'MALFORMED_RESPONSE']).toContain(error.code)
    const [first] = run.pids()
    await suite().lifelines.exited(first ?? -1, 30_000)
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    expect(run.pids()).toHaveLength(2)
  })

  it('an answer over maxMessageBytes is dropped unread: typed UNAVAILABLE naming the limit, the same server answers on', async () => {
    const run = await start({
      server: ['--scenario', 'oversized', '--method', 'textDocument/hover', '--bytes', String(3 * 1024 * 1024)],
      config: { maxMessageBytes: 1024 * 1024 },
    })
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    const error = await run.failure({ operation: 'hover', ...run.greetCall() })
    expect(error.code).toBe('UNAVAILABLE')
    expect(error.data).toMatchObject({ limit: 'maxMessageBytes', value: 3 * 1024 * 1024, ceiling: 1024 * 1024 })
    expect(error.message).toMatch(/textDocument\/hover was 3 MB, over the 1 MB limit .*keeps running/)
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    expect(run.pids(), 'no restart: the server was never at fault').toHaveLength(1)
  })

  it('a header that promises far more than maxMessageBytes is refused at once, not waited on', async () => {
    const run = await start({
      server: ['--scenario', 'oversized', '--method', 'textDocument/hover', '--bytes', String(64 * 1024 * 1024), '--header-only'],
      // Generous: a host that waits for the promised body fails with TIMEOUT instead of a frame error. 64 MiB
      // is more than 16 times the limit: garbage, not an answer to stream past.
      config: { maxMessageBytes: 1024 * 1024, requestTimeoutMs: 20_000 },
    })
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    const error = await run.failure({ operation: 'hover', ...run.greetCall() })
    expect(['MALFORMED_RESPONSE', 'SERVER_CRASHED']).toContain(error.code)
    const [first] = run.pids()
    await suite().lifelines.exited(first ?? -1, 30_000)
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
  })

  for (const kind of ['json', 'header'] as const) {
    it(`a frame with a bad ${kind === 'json' ? 'JSON body' : 'Content-Length'}: typed error, server replaced, next query correct`, async () => {
      const run = await start({
        server: ['--scenario', 'bad-frame', '--kind', kind, '--method', 'textDocument/hover'],
        config: { requestTimeoutMs: 20_000 },
      })
      expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
      const error = await run.failure({ operation: 'hover', ...run.greetCall() })
      expect(['MALFORMED_RESPONSE', 'SERVER_CRASHED']).toContain(error.code)
      const [first] = run.pids()
      await suite().lifelines.exited(first ?? -1, 30_000)
      expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
      expect(run.pids()).toHaveLength(2)
    })
  }
})

describe('bad answers', { timeout: 60_000 }, () => {
  it('out-of-root, symlink-escaping and non-file URIs are dropped and counted, never returned', async () => {
    const outside = nodePath.join(suite().dir, 'outside')
    mkdirSync(outside, { recursive: true })
    writeFileSync(nodePath.join(outside, 'secret.fault'), 'function greet() {}\n')
    const foreign = [
      'file:///etc/passwd',
      '{root}/../outside-the-root.fault',
      '{root}/..%2F..%2Fetc%2Fpasswd',
      'http://example.com/remote.fault',
      'untitled:Untitled-1',
      '{root}/escape/secret.fault',
    ]
    const run = await start({ server: ['--scenario', 'foreign-uris', ...foreign.flatMap((uri) => ['--uri', uri])] })
    symlinkSync(outside, nodePath.join(run.root, 'escape'), 'dir')

    const definition = await run.query({ operation: 'definition', ...run.greetCall() })
    expectGreetDefinition(run, definition.locations)
    expect(definition.meta.droppedOutsideWorkspace).toBe(foreign.length)

    const references = await run.query({ operation: 'references', ...run.greetCall() })
    expect(references.locations).toHaveLength(greetReferences(run).length)
    expect(references.locations.every((l) => l.uri.startsWith('file:') && isWithin(run.root, l.path))).toBe(true)
    expect(references.meta.droppedOutsideWorkspace).toBe(foreign.length)

    const symbols = await run.query({ operation: 'workspaceSymbols', query: 'greet' })
    expect(symbols.symbols.map((s) => s.location.path)).toEqual([run.lib])
    expect(symbols.meta.droppedOutsideWorkspace).toBe(foreign.length)
  })

  it("an error answer is SERVER_ERROR with the server's words; the server is kept", async () => {
    const run = await start({
      server: ['--scenario', 'error', '--method', 'textDocument/definition', '--code', '-32603', '--message', 'index corrupted'],
    })
    const error = await run.failure({ operation: 'definition', ...run.greetCall() })
    expect(error.code).toBe('SERVER_ERROR')
    expect(error.message).toContain('index corrupted')
    expect((await run.query({ operation: 'hover', ...run.greetCall() })).hover?.contents).toContain('greet')
    expect(run.pids()).toHaveLength(1)
  })
})

describe('"content modified" (-32801): the server dropped its answer because its view changed; asked again', { timeout: 60_000 }, () => {
  it('a references answer dropped once is asked again and answered', async () => {
    const run = await start({
      server: [
        '--scenario',
        'error',
        '--method',
        'textDocument/references',
        '--code',
        '-32801',
        '--message',
        'content modified',
        '--after',
        '1',
        '--once',
      ],
    })
    const references = await run.query({ operation: 'references', ...run.greetCall() })
    expect(references.locations).toHaveLength(greetReferences(run).length)
  })

  it('a diagnostics pull dropped once is pulled again and answered for the current text', async () => {
    const run = await start({
      server: [
        '--scenario',
        'error',
        '--method',
        'textDocument/diagnostic',
        '--code',
        '-32801',
        '--message',
        'content modified',
        '--after',
        '1',
        '--once',
      ],
    })
    const diagnostics = await run.query({ operation: 'diagnostics', path: run.main })
    expect(diagnostics.files.find((f) => f.path === run.main)?.freshness).toBe('current')
  })
})

describe('server-initiated traffic', { timeout: 60_000 }, () => {
  it('progress that never ends: once the server reports work, no answer is reported ready', async () => {
    const run = await start({
      server: ['--scenario', 'endless-progress'],
      profile: { readiness: 'progressQuiet', readinessTimeoutMs: 1_500 },
    })
    const statusOf = () => run.host.status().find((s) => s.providerId === 'local:fault' && s.root !== undefined)
    // The server begins its progress only after `initialized`, so the first query may legitimately beat it.
    const indexing = new Promise<void>((resolve) => {
      const unsubscribe = run.provider.onStatusChange?.((status) => {
        if (status.state === 'indexing') {
          unsubscribe?.()
          resolve()
        }
      })
      if (statusOf()?.state === 'indexing') resolve()
    })
    const first = await run.query({ operation: 'hover', ...run.greetCall() }).catch((error: { code: string }) => error)
    if ('code' in first) expect(['TIMEOUT', 'UNAVAILABLE']).toContain(first.code)
    else expect(first.hover?.contents).toContain('greet')
    await withDeadline(indexing, 30_000, 'the host to report the server as indexing')

    let outcome: { code: string } | { status: string; locations: ReadonlyArray<LspLocation> }
    try {
      const result = await run.query({ operation: 'definition', ...run.greetCall() })
      outcome = { status: result.meta.status, locations: result.locations }
    } catch (error) {
      outcome = { code: (error as { code: string }).code }
    }
    if ('code' in outcome) expect(['TIMEOUT', 'UNAVAILABLE']).toContain(outcome.code)
    else {
      expect(outcome.status).not.toBe('ready')
      expectGreetDefinition(run, outcome.locations)
    }
    expect(statusOf()?.state).toBe('indexing')
    expect(run.log.entries().find((e) => e.event === 'client-answer')).toMatchObject({ request: 'window/workDoneProgress/create' })
  })

  it('a server that answers empty while it loads: with progressQuiet readiness the first answer is the real one', async () => {
    const run = await start({
      server: ['--scenario', 'empty-while-indexing', '--index-ms', '1500'],
      profile: { readiness: 'progressQuiet', readinessTimeoutMs: 30_000 },
      config: { requestTimeoutMs: 30_000 },
    })
    const definition = await run.query({ operation: 'definition', ...run.greetCall() })
    expectGreetDefinition(run, definition.locations)
    expect(run.log.entries().some((e) => e.event === 'indexing-done')).toBe(true)
  })

  it('a server that answers empty while it loads: with the default readiness an empty answer is never passed off as ready', async () => {
    const run = await start({ server: ['--scenario', 'empty-while-indexing', '--index-ms', '1500'], config: { requestTimeoutMs: 30_000 } })
    const definition = await run.query({ operation: 'definition', ...run.greetCall() })
    if (definition.locations.length === 0) expect(definition.meta.status).not.toBe('ready')
    else expectGreetDefinition(run, definition.locations)
  })

  it('a server that finds its files only in a quiet moment: answers alike over the open files are not taken as complete', async () => {
    // Like pyright 1.1.414: the files on disk are found in an analysis pass that every request puts off, so
    // references asked back to back cover the open file alone, the same each time, until the host stops asking.
    const run = await start({
      server: ['--scenario', 'deferred-discovery', '--quiet-ms', '250'],
      profile: { deferredDiscovery: true },
      config: { requestTimeoutMs: 30_000 },
    })
    const references = await run.query({ operation: 'references', ...run.greetCall() })
    expect(references.locations.map((l) => ({ path: l.path, start: l.range.start })).sort(byPlace)).toEqual(greetReferences(run))
    expect(references.meta.status).toBe('ready')
    expect(run.log.entries().some((e) => e.event === 'discovered')).toBe(true)
  })

  it('formatting registered dynamically is tracked and served', async () => {
    const run = await start({
      server: ['--scenario', 'dynamic-registration'],
      profile: { operations: ['definition', 'references', 'hover', 'documentSymbols', 'workspaceSymbols', 'diagnostics', 'format'] },
    })
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    const registration = await run.log.waitFor(
      (entries) => entries.find((e) => e.event === 'client-answer' && e['request'] === 'client/registerCapability'),
      'the host to answer client/registerCapability',
    )
    expect(registration).not.toHaveProperty('error')
    const formatted = await run.query({ operation: 'format', path: run.lib })
    const edits = formatted.edit.operations.flatMap((op) => (op.type === 'edit' && op.path === run.lib ? op.edits : []))
    expect(edits).toEqual([{ range: { start: positionOf(libText, '   '), end: positionOf(libText, '   ', 1, 3) }, newText: '' }])
    const status = run.host.status().find((s) => s.providerId === 'local:fault' && s.root !== undefined)
    expect(status?.operations).toContain('format')
  })

  it('pull diagnostics registered only after the first document opens are pulled, not waited for as a push', async () => {
    // The diagnostics wait is far beyond the test's own timeout: waiting for a push that never comes fails it.
    const run = await start({
      server: ['--scenario', 'late-pull-registration'],
      config: { diagnosticsWaitMs: 600_000, requestTimeoutMs: 600_000 },
    })
    const diagnostics = await run.query({ operation: 'diagnostics', path: run.main })
    const forMain = diagnostics.files.find((f) => f.path === run.main)
    expect(forMain?.freshness).toBe('current')
    expect(forMain?.diagnostics.map((d) => [d.severity, d.range.start])).toEqual([['warning', positionOf(mainText, 'FIXME')]])
  })

  it('answers configuration and folders from the profile, and refuses an unsolicited applyEdit', async () => {
    const run = await start({
      server: ['--scenario', 'client-requests'],
      profile: { settings: { fault: { mode: 'host' }, 'fault.detail': 42 } },
    })
    const victim = nodePath.join(run.root, 'victim.fault')
    writeFileSync(victim, 'untouched\n')
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    await run.log.waitFor((entries) => entries.find((e) => e.event === 'client-requests-done'), 'the server requests to be answered')
    const answers = new Map(
      run.log
        .entries()
        .filter((e) => e.event === 'client-answer')
        .map((e) => [e['request'], e]),
    )
    expect(answers.get('workspace/configuration')).toMatchObject({ result: [{ mode: 'host' }, 42] })
    expect(answers.get('workspace/workspaceFolders')).toMatchObject({ result: [{ uri: run.rootUri }] })
    expect(answers.get('window/workDoneProgress/create')).toMatchObject({ result: null })
    const applyEdit = answers.get('workspace/applyEdit')
    const refused = (applyEdit?.['result'] as { applied?: boolean } | undefined)?.applied === false || applyEdit?.['error'] !== undefined
    expect(refused, `applyEdit answer: ${JSON.stringify(applyEdit)}`).toBe(true)
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n')
  })
})
