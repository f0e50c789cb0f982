// When a server counts as having been through an analysis pass over what it was given (AnalysisPasses), driven
// by the order of events pyright 1.1.414 produces with a client that pulls diagnostics.
import { describe, expect, it } from 'vitest'

import { AnalysisPasses } from '../src/server/analysis-passes.js'

describe('AnalysisPasses', () => {
  it('a server that never signalled a pass, or never asked for its configuration, is settled: there is nothing to wait for', () => {
    const silent = new AnalysisPasses()
    silent.configured(undefined)
    silent.asking()()
    expect(silent.settled).toBe(true)
    const unconfigured = new AnalysisPasses()
    unconfigured.passed()
    expect(unconfigured.settled).toBe(true)
  })

  it("pyright's refresh while it applies its configuration is not the pass that finds its files", () => {
    const passes = new AnalysisPasses()
    passes.configured(undefined)
    passes.passed() // the refresh asked while applying the configuration
    expect(passes.settled).toBe(false)
    // Answers over the open files while requests keep putting the pass off: alike, and still not settled.
    passes.asking()()
    passes.asking()()
    expect(passes.settled).toBe(false)
    passes.passed() // the pass that found the files
    expect(passes.settled).toBe(true)
  })

  it('an answer to a question sent before the configuration does not count towards it', () => {
    const passes = new AnalysisPasses()
    const answered = passes.asking()
    passes.configured(undefined)
    answered()
    passes.passed()
    expect(passes.settled).toBe(false)
  })

  it('a new configuration unsettles the server until the pass after it', () => {
    const passes = new AnalysisPasses()
    passes.configured(undefined)
    passes.asking()()
    passes.passed()
    expect(passes.settled).toBe(true)
    passes.configured(undefined)
    passes.passed()
    expect(passes.settled).toBe(false)
    passes.asking()()
    passes.passed()
    expect(passes.settled).toBe(true)
  })

  it('waitSettled resolves on the settling pass, and as timed out on abort', async () => {
    const passes = new AnalysisPasses()
    passes.passed()
    passes.configured(undefined)
    passes.asking()()
    const waiting = passes.waitSettled(Date.now() + 60_000, 60_000)
    passes.passed()
    await expect(waiting).resolves.toBe('settled')

    passes.configured(undefined)
    const controller = new AbortController()
    const aborted = passes.waitSettled(Date.now() + 60_000, 60_000, controller.signal)
    controller.abort()
    await expect(aborted).resolves.toBe('timeout')
  })

  it('waitSettled: a server left alone for the quiet window without a pass had none pending', async () => {
    const passes = new AnalysisPasses()
    passes.configured(undefined)
    passes.passed() // found its files before answering anything: no later sign comes
    passes.asking()()
    await expect(passes.waitSettled(Date.now() + 60_000, 0)).resolves.toBe('quiet')
  })

  it('a request that failed ends its flight but is no answer', async () => {
    const passes = new AnalysisPasses()
    passes.configured(undefined)
    passes.asking()(false)
    passes.passed()
    expect(passes.settled).toBe(false)
    await expect(passes.waitSettled(Date.now() + 60_000, 0)).resolves.toBe('quiet')
  })

  it('waitSettled: never quiet while a request is in flight', async () => {
    const passes = new AnalysisPasses()
    passes.configured(undefined)
    passes.passed()
    passes.asking()
    await expect(passes.waitSettled(Date.now(), 0)).resolves.toBe('timeout')
  })
})
