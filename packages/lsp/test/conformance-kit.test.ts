import { describe, expect, it } from 'vitest'

import { LspError, pathToUri, resultMeta, type LspOperation, type LspProvider, type LspQueryResult } from '../src/index.js'
import { formatConformanceReport, runConformance, typeScriptFixture, type ConformanceReport } from '../src/testing/index.js'

const operations: LspOperation[] = ['definition', 'references', 'hover', 'documentSymbols']

/** A provider that answers every claimed operation with `answer` (and honours cancellation). */
function brokenProvider(id: string, answer: (operation: LspOperation, root: string) => LspQueryResult): LspProvider {
  return {
    id,
    extensions: { '.ts': 'typescript' },
    operations,
    async query(request, signal) {
      if (signal.aborted) throw new LspError('CANCELLED', 'cancelled')
      return answer(request.operation, request.root) as never
    },
  }
}

function empty(operation: LspOperation): LspQueryResult {
  const meta = resultMeta('empty')
  if (operation === 'hover') return { kind: 'hover', hover: null, meta }
  if (operation === 'documentSymbols') return { kind: 'documentSymbols', symbols: [], meta }
  return { kind: 'locations', locations: [], meta }
}

function check(report: ConformanceReport, name: string) {
  const found = report.checks.find((c) => c.name === name)
  if (found === undefined) throw new Error(`no check named ${name}: ${report.checks.map((c) => c.name).join(' | ')}`)
  return found
}

describe('the conformance kit fails broken providers with a clear report', () => {
  it('empty results', async () => {
    const report = await runConformance({ setup: () => ({ provider: brokenProvider('empty', empty) }) })
    expect(report.passed).toBe(false)
    expect(check(report, 'definition lands on the declaration')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('got no locations'),
    })
    expect(check(report, 'references include the declaration and every use site')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('missing src/'),
    })
    expect(check(report, 'hover shows the declared type')).toMatchObject({ status: 'failed', message: 'hover is null' })
    // An empty answer for a missing file is not a typed error either.
    expect(check(report, 'a missing file fails with a typed LspError').status).toBe('failed')
    // Unclaimed operations are skipped, not failed.
    expect(check(report, 'rename touches every file that uses the symbol, and writes nothing').status).toBe('skipped')
    expect(formatConformanceReport(report)).toMatch(/^conformance of provider "empty" on the typescript fixture: \d+ passed, \d+ failed/)
  })

  it('an out-of-root URI', async () => {
    const report = await runConformance({
      setup: () => ({
        provider: brokenProvider('escape', (operation) => {
          if (operation !== 'definition') return empty(operation)
          return {
            kind: 'locations',
            locations: [
              {
                uri: pathToUri('/etc/passwd'),
                path: '/etc/passwd',
                range: { start: { line: 0, character: 0 }, end: { line: 0, character: 4 } },
              },
            ],
            meta: resultMeta('escape'),
          }
        }),
      }),
    })
    expect(check(report, 'no result points outside the workspace root')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('/etc/passwd'),
    })
  })

  it('a wrong result kind', async () => {
    const report = await runConformance({
      setup: () => ({ provider: brokenProvider('wrong', (operation) => (operation === 'definition' ? empty('hover') : empty(operation))) }),
    })
    expect(check(report, 'definition lands on the declaration')).toMatchObject({
      status: 'failed',
      message: 'definition answered with kind "hover", expected "locations"',
    })
  })

  it('an untyped error', async () => {
    const report = await runConformance({
      setup: () => ({
        provider: brokenProvider('untyped', () => {
          throw new TypeError('cannot read properties of undefined')
        }),
      }),
    })
    expect(check(report, 'definition lands on the declaration')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('untyped error'),
    })
    expect(check(report, 'a missing file fails with a typed LspError')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('untyped error'),
    })
  })

  it('a derived answer that does not say what it was built from, or names what the provider lacks', async () => {
    const report = await runConformance({
      setup: () => ({
        provider: brokenProvider('derives', (operation) => {
          const answer = empty(operation)
          if (operation === 'references') return { ...answer, meta: { ...answer.meta, derived: { from: [] } } }
          if (operation === 'definition')
            return { ...answer, meta: { ...answer.meta, derived: { from: ['typeDefinition', 'definition'] } } }
          return answer
        }),
      }),
    })
    const derived = check(report, 'derived answers say which native operations they were built from')
    expect(derived.status).toBe('failed')
    expect(derived.message).toContain('references: meta.derived.from is empty')
    expect(derived.message).toContain('definition: built from typeDefinition, which the provider does not claim')
    expect(derived.message).toContain('definition: derived from itself')
  })

  it('a provider that derives nothing passes the derived check, saying so', async () => {
    const report = await runConformance({ setup: () => ({ provider: brokenProvider('plain', empty) }) })
    expect(check(report, 'derived answers say which native operations they were built from')).toMatchObject({
      status: 'passed',
      message: 'no answer was derived (every operation native)',
    })
  })

  it('a provider the registry refuses', async () => {
    const report = await runConformance({
      setup: () => ({ provider: { ...brokenProvider('bad', empty), extensions: { 'not an ext': 'x' } } }),
    })
    expect(check(report, 'registers with ctx.lsp')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('not a file extension'),
    })
  })

  it('a check whose fields the record leaves out is skipped naming the field, and a limit with its reason', async () => {
    const { hover: _, ...withoutHover } = typeScriptFixture
    const report = await runConformance({
      fixture: { ...withoutHover, limits: { references: 'the server cannot see the test files' } },
      setup: () => ({ provider: brokenProvider('partial', empty) }),
    })
    expect(check(report, 'hover shows the declared type')).toMatchObject({
      id: 'hover',
      status: 'skipped',
      message: 'the typescript fixture record has no hover',
    })
    expect(check(report, 'references include the declaration and every use site')).toMatchObject({
      status: 'skipped',
      message: 'the typescript fixture record says: the server cannot see the test files',
    })
    // The non-ASCII hover reads another field, so it still runs (and fails on the empty answer).
    expect(check(report, 'hover on a non-ASCII identifier').status).toBe('failed')
  })

  it('a needle that is not in the fixture, or not unique, fails the check naming it', async () => {
    const report = await runConformance({
      fixture: {
        ...typeScriptFixture,
        definition: { ...typeScriptFixture.definition!, use: { file: 'src/main.ts', text: 'no such text' } },
        hover: { at: { file: 'src/main.ts', text: 'circle' }, includes: ['circle'] },
      },
      setup: () => ({ provider: brokenProvider('needles', empty) }),
    })
    expect(check(report, 'definition lands on the declaration')).toMatchObject({
      status: 'failed',
      message: 'fixture src/main.ts has no "no such text"',
    })
    expect(check(report, 'hover shows the declared type')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('more than once'),
    })
  })
})
