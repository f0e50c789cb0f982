import { describe, expect, it } from 'vitest'

import {
  coldSideSummary,
  firstCompleteAnswer,
  isComplete,
  pairedColdRatio,
  settledAnswer,
  type PolledAnswer,
} from '../src/first-complete.js'
import { languageTables, summaryRatio, unavailableNote } from '../src/language-tables.js'
import type { LanguageResult } from '../src/report.js'
import { completenessRuleOf, languageCases } from '../src/scenarios/languages.js'
import { wideMixQueries, widePlaces } from '../src/wide-mix.js'
import { report } from './report.js'

const final = ['a.go@1:0-1:6', 'b.go@4:2-4:8']

describe('the first complete answer', () => {
  it('gopls: the first answer equal to the final one, whatever came before', () => {
    const answers: PolledAnswer[] = [
      { ms: 100, error: 'no views' },
      { ms: 200, keys: ['a.go@1:0-1:6'] },
      { ms: 300, keys: final },
      { ms: 400, keys: final },
    ]
    expect(firstCompleteAnswer(answers, final, 'equalsFinal')).toEqual({ index: 2, answer: answers[2] })
  })

  it('rust-analyzer: a right answer asked before quiescent does not count', () => {
    const answers: PolledAnswer[] = [
      { ms: 100, keys: final, quiescent: false },
      { ms: 200, error: 'content modified', quiescent: true },
      { ms: 300, keys: final, quiescent: true },
    ]
    expect(firstCompleteAnswer(answers, final, 'quiescentThenEqualsFinal')?.index).toBe(2)
    // Under gopls's rule the first one would count: the rules differ only there.
    expect(firstCompleteAnswer(answers, final, 'equalsFinal')?.index).toBe(0)
  })

  it('never counts a larger, smaller or failed answer, and says so when none is complete', () => {
    expect(isComplete({ ms: 1, keys: [...final, 'c.go@0:0-0:1'] }, final, 'equalsFinal')).toBe(false)
    expect(isComplete({ ms: 1, keys: final.slice(1) }, final, 'equalsFinal')).toBe(false)
    expect(isComplete({ ms: 1, keys: final, error: 'late failure' }, final, 'equalsFinal')).toBe(false)
    expect(firstCompleteAnswer([{ ms: 1, keys: [] }], final, 'equalsFinal')).toBeUndefined()
  })

  it('settles the final answer only on agreeing, non-empty answers in a row', () => {
    const a = (keys: string[] | undefined, error?: string): PolledAnswer => ({
      ms: 0,
      ...(keys === undefined ? {} : { keys }),
      ...(error === undefined ? {} : { error }),
    })
    expect(settledAnswer([a([]), a([]), a([])], 2)).toBeUndefined()
    expect(settledAnswer([a(['x']), a(['x', 'y']), a(['x', 'y']), a(['x', 'y'])], 3)).toEqual(['x', 'y'])
    expect(settledAnswer([a(['x']), a(undefined, 'content modified'), a(['x'])], 2)).toBeUndefined()
  })

  it('takes the rule from the record: serverStatus readiness waits for quiescent', () => {
    expect(completenessRuleOf({ readiness: 'serverStatus' })).toBe('quiescentThenEqualsFinal')
    expect(completenessRuleOf({ readiness: 'progressQuiet' })).toBe('equalsFinal')
  })
})

describe('several cold starts summarised', () => {
  const side = (ms: number | undefined, complete = true) => ({ ...(ms === undefined ? {} : { ms }), complete })

  it('medians the complete runs and counts the others as runs', () => {
    expect(coldSideSummary([side(300), side(100), side(200)])).toEqual({ runs: 3, complete: 3, medianMs: 200 })
    expect(coldSideSummary([side(300), side(100, false), side(200)])).toEqual({ runs: 3, complete: 2, medianMs: 250 })
    expect(coldSideSummary([side(undefined, false)])).toEqual({ runs: 1, complete: 0 })
  })

  it('gives a paired ratio only when every run of both sides was complete', () => {
    const pairs = [
      { upper: side(200), lower: side(100) },
      { upper: side(100), lower: side(100) },
      { upper: side(150), lower: side(100) },
    ]
    expect(pairedColdRatio(pairs)).toBe(1.5)
    expect(pairedColdRatio([...pairs, { upper: side(90, false), lower: side(100) }])).toBeUndefined()
    expect(pairedColdRatio([...pairs, { upper: side(90), lower: side(100, false) }])).toBeUndefined()
    expect(pairedColdRatio([])).toBeUndefined()
  })

  it('shows an incomplete run as a failure in the ratio cell, never a number', () => {
    expect(summaryRatio({ runs: 3, complete: 2, medianMs: 1 }, { runs: 3, complete: 3, medianMs: 1 }, undefined)).toBe(
      'failed (2 of 3 complete)',
    )
    expect(summaryRatio({ runs: 3, complete: 3, medianMs: 1 }, { runs: 3, complete: 1, medianMs: 1 }, undefined)).toMatch(/^bare failed/)
    expect(summaryRatio({ runs: 3, complete: 3, medianMs: 1 }, { runs: 3, complete: 3, medianMs: 1 }, 1.234)).toBe('1.23×')
  })
})

describe('the Go and Rust rows', () => {
  const missingServer: LanguageResult = {
    language: 'Go',
    profile: 'gopls',
    server: 'gopls v0.23.0',
    corpus: 'gorilla-mux',
    trust: 'untrusted',
    rule: 'equalsFinal',
    unavailable: {
      what: 'the gopls server',
      why: 'gopls is neither on PATH nor in /root/go/bin',
      install: 'go install golang.org/x/tools/gopls@v0.23.0',
    },
    notes: [],
  }

  it('a missing server gives rows that say what is missing and the install command, and no figure', () => {
    const tables = languageTables(report({ languages: [missingServer] }))
    expect(tables.map((table) => table.rows.length)).toEqual([1, 1, 1, 1, 1])
    for (const table of tables) {
      const cells = table.rows[0]!
      expect(cells.join(' ')).toContain('go install golang.org/x/tools/gopls@v0.23.0')
      expect(cells.join(' ')).toContain('neither on PATH')
      // Every figure column says "—": nothing measured is shown as a number.
      expect(cells.slice(1).filter((cell) => /^-?[\d.]+(×| MB)?( \/ -?[\d.]+(×| MB)?)?$/.test(cell))).toEqual([])
    }
    expect(unavailableNote(missingServer)).toMatch(/^not measured: .* — install: go install/)
    // The record's own reason already names the command: it is not said twice.
    const why = `${missingServer.unavailable!.why}: install it with \`${missingServer.unavailable!.install}\``
    const note = unavailableNote({ ...missingServer, unavailable: { ...missingServer.unavailable!, why } })
    expect(note.split('go install').length - 1).toBe(1)
  })

  it('shows nothing when the section did not run', () => {
    expect(languageTables(report())).toEqual([])
  })

  it('asks every language its warm mix at positions found in the corpus text', () => {
    const text = 'package mux\n\ntype Router struct {\n}\n'
    for (const testCase of languageCases) {
      expect(widePlaces[testCase.corpus]?.map((place) => place.operation)).toEqual([
        'definition',
        'references',
        'implementation',
        'hover',
        'documentSymbols',
        'callHierarchy',
      ])
    }
    // A needle the text lacks fails loudly rather than asking at a wrong place.
    expect(() => wideMixQueries('gorilla-mux', () => text)).toThrow(/occurs fewer than 1 times/)
  })
})
