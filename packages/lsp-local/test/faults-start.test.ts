// The host against a slow cold start shared by several callers: one caller giving up never fails the start
// for the others, and a start nobody waits for any more is stopped, not counted as a crash.
import { pathToFileURL } from 'node:url'

import { describe, expect, it } from 'vitest'

import { expectGreetDefinition, useFaultSuite, type FaultRun } from './fault-server/host-fixture.js'

const { start } = useFaultSuite('lsp-local-faults-start-')

const generousDeadlineMs = 30_000

/** Resolves once the (first) fault server has received initialize: the start is then in flight. */
const initializeReceived = (run: FaultRun) =>
  run.log.waitFor((entries) => entries.find((e) => e.event === 'received' && e['method'] === 'initialize'), 'initialize at the server')

describe('a shared cold start', { timeout: 90_000 }, () => {
  it("one caller's abort cancels only that caller; the other waiter gets the real answer from the same server", async () => {
    const run = await start({
      server: ['--scenario', 'slow-initialize', '--delay-ms', '2000'],
      config: { requestTimeoutMs: generousDeadlineMs },
    })
    const impatient = new AbortController()
    const first = run.failure({ operation: 'definition', ...run.greetCall() }, impatient.signal)
    const second = run.query({ operation: 'definition', ...run.greetCall() })
    await initializeReceived(run)
    impatient.abort()
    expect((await first).code).toBe('CANCELLED')
    expectGreetDefinition(run, (await second).locations)
    expect(run.pids()).toHaveLength(1)
  })

  it('a start every caller abandoned is stopped, not charged as a crash: with no restarts allowed the next query still answers', async () => {
    const run = await start({
      // Every process of this run is slow to initialize, but well within the generous deadline.
      server: ['--scenario', 'slow-initialize', '--delay-ms', '4000'],
      config: { requestTimeoutMs: generousDeadlineMs, maxRestarts: 0, restartWindowMs: 600_000 },
    })
    const controller = new AbortController()
    const abandoned = run.failure({ operation: 'definition', ...run.greetCall() }, controller.signal)
    await initializeReceived(run)
    controller.abort()
    expect((await abandoned).code).toBe('CANCELLED')
    expectGreetDefinition(run, (await run.query({ operation: 'definition', ...run.greetCall() })).locations)
    const status = run.host.status().find((s) => s.providerId === 'local:fault' && s.root !== undefined)
    expect(status?.state).not.toBe('unavailable')
    expect(status?.restarts).toBe(0)
    expect(run.pids()).toHaveLength(2)
  })

  it("a caller's own deadline passing is TIMEOUT for that caller only, and does not count as a crash", async () => {
    const run = await start({
      server: ['--scenario', 'slow-initialize', '--delay-ms', '120000'],
      // The request deadline must expire here, yet leave a node process time to start on a loaded machine.
      config: { requestTimeoutMs: 5_000, maxRestarts: 0, restartWindowMs: 600_000 },
    })
    const timedOut = await run.failure({ operation: 'definition', ...run.greetCall() })
    expect(timedOut.code).toBe('TIMEOUT')
    // No restarts are allowed: had the timed-out start counted as a crash, this would be UNAVAILABLE.
    expect((await run.failure({ operation: 'definition', ...run.greetCall() })).code).toBe('TIMEOUT')
    const status = run.host.status().find((s) => s.providerId === 'local:fault' && s.root !== undefined)
    expect(status?.state).not.toBe('unavailable')
    expect(status?.restarts).toBe(0)
  })
})

describe('document sync', { timeout: 90_000 }, () => {
  it('concurrent queries on one not-yet-open file open it once', async () => {
    const run = await start({ server: ['--scenario', 'normal'], config: { requestTimeoutMs: generousDeadlineMs } })
    const results = await Promise.all(Array.from({ length: 4 }, () => run.query({ operation: 'definition', ...run.greetCall() })))
    for (const result of results) expectGreetDefinition(run, result.locations)
    const opened = run.log.received('textDocument/didOpen').filter((e) => e.params?.textDocument?.uri === pathToFileURL(run.main).href)
    expect(opened).toHaveLength(1)
  })
})
