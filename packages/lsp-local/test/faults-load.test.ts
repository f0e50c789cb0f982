// The host against a misbehaving server under load (the reliability scenarios of the benchmarks issue):
// many concurrent queries meet a hang or a garbage frame. Each settles with a correct answer or a typed
// error — never an empty result — and the host recovers fully afterwards.
import { describe, expect, it } from 'vitest'

import { isLspError } from '@codeseam/lsp'

import { byPlace, expectGreetDefinition, greetReferences, useFaultSuite, type FaultRun } from './fault-server/host-fixture.js'

const { start } = useFaultSuite('lsp-local-faults-load-')

type Operation = 'definition' | 'hover' | 'references'
const mix: ReadonlyArray<Operation> = ['definition', 'hover', 'references']

/** One query of the mix; resolves with 'correct' or the typed error's code, and fails the test on anything else. */
async function checked(run: FaultRun, operation: Operation): Promise<string> {
  try {
    if (operation === 'definition') {
      expectGreetDefinition(run, (await run.query({ operation, ...run.greetCall() })).locations)
    } else if (operation === 'hover') {
      expect((await run.query({ operation, ...run.greetCall() })).hover?.contents).toContain('greet')
    } else {
      const result = await run.query({ operation, ...run.greetCall() })
      expect(result.locations.map((l) => ({ path: l.path, start: l.range.start })).sort(byPlace)).toEqual(greetReferences(run))
    }
    return 'correct'
  } catch (error) {
    if (isLspError(error)) return error.code
    throw error // a wrong answer (assertion) or an untyped error
  }
}

/** `count` queries of the mix, all in flight at once. */
function burst(run: FaultRun, count: number): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => checked(run, mix[index % mix.length] ?? 'definition')))
}

const tally = (outcomes: ReadonlyArray<string>) =>
  outcomes.reduce<Record<string, number>>((counts, outcome) => ({ ...counts, [outcome]: (counts[outcome] ?? 0) + 1 }), {})

describe('faults under load', { timeout: 120_000 }, () => {
  it('a hang under 60 concurrent queries: the hung method times out, the rest is answered, same server', async () => {
    const run = await start({
      server: ['--scenario', 'hang', '--method', 'textDocument/hover'],
      config: { requestTimeoutMs: 8_000, livenessGraceMs: 20_000 },
    })
    expect(await checked(run, 'definition')).toBe('correct')
    const outcomes = await burst(run, 60)
    expect(tally(outcomes)).toEqual({ correct: 40, TIMEOUT: 20 })
    // Every timed-out hover is cancelled at the server (the cancel may land just after the TIMEOUT).
    await run.log.waitFor(() => {
      const cancelled = new Set(run.log.received('$/cancelRequest').map((e) => e.params.id))
      const hovers = run.log.received('textDocument/hover').map((e) => e.id)
      return hovers.length === 20 && hovers.every((id) => cancelled.has(id)) ? true : undefined
    }, '$/cancelRequest for all 20 hung hovers')
    expect(run.pids()).toHaveLength(1)
  })

  it('a garbage frame amid 60 concurrent queries: typed errors or correct answers, then full recovery', async () => {
    const run = await start({
      server: ['--scenario', 'garbage', '--method', 'textDocument/hover', '--after', '5', '--first-process-only'],
      config: { requestTimeoutMs: 30_000 },
    })
    expect(await checked(run, 'definition')).toBe('correct')
    const outcomes = await burst(run, 60)
    const counts = tally(outcomes)
    expect(
      Object.keys(counts).every((code) => ['correct', 'SERVER_CRASHED', 'MALFORMED_RESPONSE'].includes(code)),
      JSON.stringify(counts),
    ).toBe(true)
    expect((counts['SERVER_CRASHED'] ?? 0) + (counts['MALFORMED_RESPONSE'] ?? 0)).toBeGreaterThan(0)

    const recovered = await burst(run, 60)
    expect(tally(recovered)).toEqual({ correct: 60 })
    expect(run.pids()).toHaveLength(2)
  })
})
