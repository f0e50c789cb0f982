// The host against a misbehaving server, part 1: crashes, deadlines, liveness, load, crash loops and
// shutdown. Every query ends in a correct answer or a typed LspError, never an empty result for a failure,
// and no fault-server process outlives its host.
import { describe, expect, it } from 'vitest'

import { createLsp } from '@codeseam/lsp'

import { isProcessAlive, wordPositions } from './fault-server/harness.js'
import { expectGreetDefinition, libText, mainText, useFaultSuite, type FaultRun } from './fault-server/host-fixture.js'

const { suite, start } = useFaultSuite('lsp-local-faults-')

const received = (run: FaultRun, method: string) => run.log.received(method)

/**
 * The per-request deadline where a test needs one to expire. The host also bounds server start-up with it,
 * and a node process can take over a second to start on a loaded 2-core machine, so it is not tiny.
 */
const requestDeadlineMs = 5_000

/**
 * The deadline in tests where nothing should time out: well above a loaded machine's start-up, and below
 * the test's own timeout, so a host that misses a crash fails with "TIMEOUT instead of SERVER_CRASHED".
 */
const generousDeadlineMs = 20_000

describe('crashes', { timeout: 60_000 }, () => {
  it('a crash mid-request fails that request with SERVER_CRASHED quoting stderr; the next query restarts and answers', async () => {
    const run = await start({
      server: ['--scenario', 'crash', '--method', 'textDocument/definition', '--after', '2'],
      config: { requestTimeoutMs: generousDeadlineMs },
    })
    const first = await run.query({ operation: 'definition', ...run.greetCall() })
    expectGreetDefinition(run, first.locations)

    const crashed = await run.failure({ operation: 'definition', ...run.greetCall() })
    expect(crashed.code).toBe('SERVER_CRASHED')
    expect(`${crashed.message}\n${JSON.stringify(crashed.data)}`).toContain('simulated crash while serving textDocument/definition')

    const after = await run.query({ operation: 'definition', ...run.greetCall() })
    expectGreetDefinition(run, after.locations)
    expect(run.pids()).toHaveLength(2)
    const status = run.host.status().find((s) => s.providerId === 'local:fault' && s.root !== undefined)
    expect(status?.restarts).toBeGreaterThanOrEqual(1)
  })

  it('a server that closes its stdout but keeps running is SERVER_CRASHED at once, not at the deadline; then recovery', async () => {
    // A deadline longer than the test's own timeout: waiting for it would fail the test.
    const run = await start({ server: ['--scenario', 'close-output', '--first-process-only'], config: { requestTimeoutMs: 120_000 } })
    const error = await run.failure({ operation: 'definition', ...run.greetCall() })
    expect(error.code).toBe('SERVER_CRASHED')
    expect(error.message).toContain('closed its output')
    expect(error.message).toContain('closed stdout while serving textDocument/definition')
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    expect(run.pids()).toHaveLength(2)
  })

  it('death by SIGKILL mid-request is SERVER_CRASHED too, then recovery', async () => {
    const run = await start({
      server: ['--scenario', 'crash', '--mode', 'kill', '--method', 'textDocument/hover'],
      config: { requestTimeoutMs: generousDeadlineMs },
    })
    expect((await run.failure({ operation: 'hover', ...run.greetCall() })).code).toBe('SERVER_CRASHED')
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
  })

  it('a half-written frame before death is a crash, not a hang', async () => {
    const run = await start({
      server: ['--scenario', 'crash', '--mode', 'partial', '--method', 'textDocument/hover'],
      config: { requestTimeoutMs: generousDeadlineMs },
    })
    const error = await run.failure({ operation: 'hover', ...run.greetCall() })
    expect(['SERVER_CRASHED', 'MALFORMED_RESPONSE']).toContain(error.code)
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
  })

  it('a crash with 50 queries in flight settles all 50 with SERVER_CRASHED, then the host fully recovers', async () => {
    const run = await start({
      server: ['--scenario', 'crash-when-pending', '--pending', '50', '--method', 'textDocument/hover'],
      config: { requestTimeoutMs: generousDeadlineMs },
    })
    // Start the server first, so all 50 hovers meet the same process.
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => run.query({ operation: 'hover', ...run.greetCall() })))
    const codes = outcomes.map((o) => (o.status === 'rejected' ? (o.reason as { code?: string }).code : 'answered'))
    expect(codes).toEqual(Array.from({ length: 50 }, () => 'SERVER_CRASHED'))
    expect(run.log.entries().filter((e) => e.event === 'held')).toHaveLength(50)

    const recovered = await Promise.all(Array.from({ length: 50 }, () => run.query({ operation: 'definition', ...run.greetCall() })))
    for (const result of recovered) expectGreetDefinition(run, result.locations)
    expect(run.pids()).toHaveLength(2)
  })

  it('a crash loop becomes UNAVAILABLE after the restart cap, and stops spawning', async () => {
    const maxRestarts = 2
    const run = await start({
      server: ['--scenario', 'crash-loop'],
      config: { maxRestarts, restartWindowMs: 600_000, requestTimeoutMs: generousDeadlineMs },
    })
    const codes: string[] = []
    for (let attempt = 0; attempt < maxRestarts + 4 && codes.at(-1) !== 'UNAVAILABLE'; attempt++) {
      const error = await run.failure({ operation: 'definition', ...run.greetCall() })
      expect(['SERVER_CRASHED', 'UNAVAILABLE'], `attempt ${attempt + 1}: ${error.code} ${error.message}`).toContain(error.code)
      codes.push(error.code)
    }
    const story = () => `codes ${JSON.stringify(codes)}, pids ${JSON.stringify(run.pids())}, status ${JSON.stringify(run.host.status())}`
    expect(codes.at(-1), story()).toBe('UNAVAILABLE')
    const spawned = run.pids().length
    expect(spawned, story()).toBeGreaterThanOrEqual(1)
    expect(spawned, story()).toBeLessThanOrEqual(maxRestarts + 1)

    const again = await run.failure({ operation: 'hover', ...run.greetCall() })
    expect(again.code, story()).toBe('UNAVAILABLE')
    expect(again.message).toMatch(/crash|restart/i)
    expect(run.pids(), story()).toHaveLength(spawned)
    const status = run.host.status().find((s) => s.providerId === 'local:fault' && s.root !== undefined)
    expect(status?.state, story()).toBe('unavailable')
    expect(status?.reason).toBeTruthy()
  })
})

describe('deadlines and liveness', { timeout: 60_000 }, () => {
  it('a hung request times out with $/cancelRequest sent, and the live server is kept (same pid)', async () => {
    const run = await start({
      server: ['--scenario', 'hang', '--method', 'textDocument/definition'],
      config: { requestTimeoutMs: requestDeadlineMs, livenessGraceMs: 10_000 },
    })
    expect((await run.query({ operation: 'hover', ...run.greetCall() })).hover?.contents).toContain('greet')
    const error = await run.failure({ operation: 'definition', ...run.greetCall() })
    expect(error.code).toBe('TIMEOUT')
    const definitionId = received(run, 'textDocument/definition')[0]?.id
    await run.log.waitFor(
      (entries) =>
        entries.find(
          (e) =>
            e.event === 'received' &&
            e['method'] === '$/cancelRequest' &&
            (e['params'] as { id?: unknown } | undefined)?.id === definitionId,
        ),
      '$/cancelRequest for the hung definition',
    )

    const symbols = await run.query({ operation: 'documentSymbols', path: run.main })
    expect(symbols.symbols.map((s) => s.name)).toEqual(['main'])
    expect(run.pids()).toHaveLength(1)
    expect(run.log.entries().some((e) => e.event === 'exit')).toBe(false)
  })

  it('a slow request is cancelled, not a reason to restart', async () => {
    const run = await start({
      server: ['--scenario', 'slow', '--method', 'textDocument/references', '--delay-ms', '120000'],
      config: { requestTimeoutMs: requestDeadlineMs },
    })
    const error = await run.failure({ operation: 'references', ...run.greetCall() })
    expect(error.code).toBe('TIMEOUT')
    await run.log.waitFor(
      (entries) => entries.find((e) => e.event === 'fault' && e['action'] === 'slow-cancelled'),
      'the server to see the cancel',
    )
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    expect(run.pids()).toHaveLength(1)
  })

  it('a caller abort is CANCELLED and sends $/cancelRequest', async () => {
    const run = await start({ server: ['--scenario', 'hang', '--method', 'textDocument/definition'] })
    expect((await run.query({ operation: 'hover', ...run.greetCall() })).hover?.contents).toContain('greet')
    const controller = new AbortController()
    const pending = run.failure({ operation: 'definition', ...run.greetCall() }, controller.signal)
    await run.log.waitFor(
      (entries) => entries.find((e) => e.event === 'fault' && e['action'] === 'hang'),
      'the definition to reach the server',
    )
    controller.abort()
    expect((await pending).code).toBe('CANCELLED')
    const id = received(run, 'textDocument/definition')[0]?.id
    await run.log.waitFor(
      (entries) => entries.find((e) => e['method'] === '$/cancelRequest' && (e['params'] as { id?: unknown } | undefined)?.id === id),
      '$/cancelRequest after abort',
    )
    expect(run.pids()).toHaveLength(1)
  })

  it('a server that stops answering everything is killed after the liveness grace and replaced', async () => {
    const run = await start({
      server: ['--scenario', 'stop-answering', '--after', '2'],
      config: { requestTimeoutMs: requestDeadlineMs, livenessGraceMs: 2_000 },
    })
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    const wedged = await run.failure({ operation: 'definition', ...run.greetCall() })
    expect(['TIMEOUT', 'SERVER_CRASHED']).toContain(wedged.code)
    const [first] = run.pids()
    // The wedged server ignores stdin closing: only the host's kill ends it.
    await suite().lifelines.exited(first ?? -1, 30_000)
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    expect(run.pids()).toHaveLength(2)
  })

  it('slow initialize within the deadline: the first query waits and answers correctly', async () => {
    const run = await start({
      server: ['--scenario', 'slow-initialize', '--delay-ms', '1500'],
      config: { requestTimeoutMs: generousDeadlineMs },
    })
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    expect(run.log.entries().some((e) => e.event === 'initialize-delay')).toBe(true)
  })

  it('initialize slower than the deadline is TIMEOUT, never an empty answer', async () => {
    const run = await start({ server: ['--scenario', 'slow-initialize', '--delay-ms', '120000'], config: { requestTimeoutMs: 1_000 } })
    const error = await run.failure({ operation: 'definition', ...run.greetCall() })
    expect(error.code).toBe('TIMEOUT')
  })
})

describe('lifecycle', { timeout: 60_000 }, () => {
  it('initialize carries our processId; a server ignoring SIGTERM is still gone after dispose()', async () => {
    const run = await start({ server: ['--scenario', 'normal', '--ignore-sigterm', '--ignore-stdin-close'] })
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    expect(received(run, 'initialize')[0]?.params.processId).toBe(process.pid)
    const [pid] = run.pids()
    expect(isProcessAlive(pid ?? -1)).toBe(true)
    expect(await run.dispose()).toEqual([])
    expect(isProcessAlive(pid ?? -1)).toBe(false)
    // dispose() is idempotent.
    await run.host.dispose()
  })

  it('a normal server is shut down politely: shutdown then exit', async () => {
    const run = await start({ server: ['--scenario', 'normal'] })
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    expect(await run.dispose()).toEqual([])
    expect(received(run, 'shutdown')).toHaveLength(1)
    expect(run.log.entries().find((e) => e.event === 'exit')).toMatchObject({ code: 0 })
  })

  it('a profile from a JSON config file, used through ctx.lsp: crash, typed error, recovery', async () => {
    const run = await start({
      server: ['--scenario', 'crash', '--method', 'textDocument/references', '--first-process-only'],
      config: { requestTimeoutMs: generousDeadlineMs },
      viaConfigFile: true,
    })
    const lsp = createLsp()
    const release = await run.host.attach(lsp, [run.root])
    try {
      const definition = await lsp.query({ operation: 'definition', root: run.root, ...run.greetCall() })
      expectGreetDefinition(run, definition.locations)
      const crashed = await lsp.query({ operation: 'references', root: run.root, ...run.greetCall() }).then(
        (result) => ({ code: `answered ${JSON.stringify(result.locations)}` }),
        (error: { code: string }) => error,
      )
      expect(crashed.code).toBe('SERVER_CRASHED')
      const references = await lsp.query({ operation: 'references', root: run.root, ...run.greetCall() })
      const expected = [...wordPositions(libText, 'greet').map(() => run.lib), ...wordPositions(mainText, 'greet').map(() => run.main)]
      expect(references.locations.map((l) => l.path).sort()).toEqual(expected.sort())
      expect(run.pids()).toHaveLength(2)
    } finally {
      await release()
      await lsp.dispose()
    }
  })

  it('no fault-server process started by this file is alive', async () => {
    for (const run of suite().runs) expect(await run.dispose()).toEqual([])
    expect(suite().pids().length).toBeGreaterThan(10)
    expect(suite().pids().filter(isProcessAlive)).toEqual([])
  })
})
