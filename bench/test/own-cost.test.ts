import { describe, expect, it } from 'vitest'

import { incrementsOf } from '../src/increments.js'
import { isWatchdogCommand } from '../src/own-memory.js'
import { navigateKeys } from '../src/scenarios/mcp-first-answer.js'
import { medianOfRuns, pairedDifferences } from '../src/statistics.js'
import { summarizeRuns } from '../src/summarize.js'
import { targetRows, verdictOf } from '../src/targets.js'
import { report } from './report.js'

const timing = (median: number) => ({ count: 3, median, p95: median, min: median, max: median, mean: median })

describe('paired statistics', () => {
  it('takes differences turn by turn, not of the medians', () => {
    // Medians 10 and 10, yet b is 1 ms faster in every turn.
    expect(pairedDifferences([10, 20, 5], [9, 19, 4])).toEqual([1, 1, 1])
    expect(() => pairedDifferences([1, 2], [1])).toThrow(/length/)
  })

  it('median of runs leaves out runs that did not measure', () => {
    expect(medianOfRuns([3, undefined, 1, 2])).toBe(2)
    expect(medianOfRuns([undefined])).toBeUndefined()
  })

  it('each layer is paired with the layer under it, per operation and over the whole mix', () => {
    const turns = [
      { operation: 'hover', ms: { floor: 1, 'ctx.lsp': 1.2, tools: 1.5, mcp: 2.5 } },
      { operation: 'hover', ms: { floor: 3, 'ctx.lsp': 3.4, tools: 3.5, mcp: 4.0 } },
      { operation: 'definition', ms: { floor: 2, 'ctx.lsp': 2.1, tools: 2.4, mcp: 3.4 } },
    ]
    const [all, hover] = incrementsOf('ws', 'read mix', turns, { mcp: 1 })
    expect(all!.operation).toBe('all')
    expect(all!.turns).toBe(3)
    expect(all!.ctxLsp!.median).toBeCloseTo(0.2)
    expect(all!.tools!.median).toBeCloseTo(0.3)
    expect(all!.mcp!.median).toBeCloseTo(1.0)
    expect(all!.total!.median).toBeCloseTo(1.4)
    expect(all!.wrong).toEqual({ mcp: 1 })
    expect(hover!.operation).toBe('hover')
    expect(hover!.ctxLsp!.median).toBeCloseTo(0.3)
  })

  it('without an MCP layer the total is the tools layer over the floor', () => {
    const [all] = incrementsOf('ws', 'wide mix', [{ operation: 'hover', ms: { floor: 1, 'ctx.lsp': 1.5, tools: 2 } }], {})
    expect(all!.mcp).toBeUndefined()
    expect(all!.total!.median).toBeCloseTo(1)
  })
})

describe('the targets table', () => {
  it('verdicts: met, not met within the must, over the must, not measured', () => {
    expect(verdictOf(100, 150, 300)).toBe('met')
    expect(verdictOf(200, 150, 300)).toBe('not met')
    expect(verdictOf(301, 150, 300)).toBe('not met, over the must')
    expect(verdictOf(2, 1.3)).toBe('not met')
    expect(verdictOf(undefined, 150, 300)).toBe('not measured')
  })

  it('judges the worst mix, and an incomplete first answer as not met', () => {
    const rows = targetRows(
      report({
        increments: [
          {
            workspace: 'a',
            mix: 'read mix',
            operation: 'all',
            turns: 3,
            ctxLsp: timing(0.1),
            tools: timing(0.5),
            mcp: timing(0.8),
            total: timing(1.4),
            wrong: {},
          },
          {
            workspace: 'b',
            mix: 'read mix',
            operation: 'all',
            turns: 3,
            ctxLsp: timing(0.4),
            tools: timing(1.6),
            mcp: timing(0.9),
            total: timing(2.9),
            wrong: {},
          },
        ],
        firstAnswer: [
          {
            corpus: 'flask',
            symbol: 'Flask',
            operation: 'references',
            expected: 3,
            barePrimed: { ms: 100, complete: true, found: 3, missing: 0, extra: 0 },
            mcp: { ms: 110, complete: false, found: 2, missing: 1, extra: 0 },
            ratio: 1.1,
          },
        ],
        concurrency: [
          { workspace: 'a', layer: 'mcp', queries: 100, wallMs: 1, throughputPerSecond: 1, latency: timing(1), errors: 0, incorrect: 0 },
        ],
      }),
    )
    const verdict = (prefix: string) => rows.find((row) => row.target.startsWith(prefix))!.verdict
    expect(verdict('per warm call: ctx.lsp')).toBe('not met')
    expect(verdict('per warm call: tools')).toBe('not met, over the must')
    expect(verdict('per warm call: MCP')).toBe('met')
    expect(verdict('start → first complete')).toBe('not met')
    expect(verdict('100 concurrent')).toBe('met')
    expect(verdict('`codeseam --help`')).toBe('not measured')
  })

  it('summarises runs by the median of their figures', () => {
    const run = (added: number) =>
      report({
        startup: {
          rounds: 15,
          workspace: 'ts-50',
          entry: 'dist',
          nodeExit: timing(40),
          helpExit: timing(40 + added),
          helpAdded: timing(added),
          mcpInitialize: timing(300),
          noopInitialize: timing(100),
          mcpInitializeAdded: timing(260),
          noopInitializeAdded: timing(60),
        },
      })
    const summary = summarizeRuns([run(100), run(400), run(140)])
    const help = summary.rows.find((row) => row.target.startsWith('`codeseam --help`'))!
    expect(help.values).toEqual([100, 400, 140])
    expect(help.median).toBe(140)
    expect(help.verdict).toBe('met')
    expect(summary.rows.find((row) => row.target.startsWith('process start → MCP'))!.verdict).toBe('not met')
  })
})

describe('recognising codeseam processes and answers', () => {
  it('tells the watchdog from a language server by its command line', () => {
    expect(isWatchdogCommand("/usr/bin/node -e const net = require('node:net'); process.kill(-pid, 'SIGKILL')")).toBe(true)
    expect(isWatchdogCommand('/bin/sh -c while read line; do :; done')).toBe(true)
    expect(isWatchdogCommand('/usr/bin/node /x/node_modules/pyright/langserver.index.js --stdio')).toBe(false)
    expect(isWatchdogCommand('/x/tsgo --lsp --stdio')).toBe(false)
  })

  it("turns code_navigate's 1-based locations into the oracle's 0-based keys", () => {
    const keys = navigateKeys({
      files: [{ path: 'src/a.py', locations: [{ line: 3, column: 7, endLine: 3, endColumn: 12 }] }],
    })
    expect(keys).toEqual(['src/a.py@2:6-2:11'])
  })
})

describe('the many-agents targets', () => {
  const mib = 1024 * 1024
  const agents = (
    mode: 'no daemon' | 'daemon, stdio proxies' | 'daemon, direct HTTP',
    sessions: number,
    figures: { added: number; serversMb: number; serverProcesses: number; proxyMb?: number },
  ) => ({
    workspace: 'ts-500',
    mode,
    sessions,
    rounds: 3,
    latency: timing(figures.added + 1),
    bare: timing(1),
    addedP50: figures.added,
    addedP95: figures.added,
    errors: 0,
    wrong: 0,
    bareWrong: 0,
    memory: {
      samples: 3,
      total: { median: 0, max: 0 },
      ...(figures.proxyMb === undefined
        ? {}
        : {
            proxies: { median: sessions * figures.proxyMb * mib, max: sessions * figures.proxyMb * mib },
            largestProxy: { median: (figures.proxyMb + 30) * mib, max: (figures.proxyMb + 30) * mib },
            largestProxyPrivate: { median: figures.proxyMb * mib, max: figures.proxyMb * mib },
          }),
      hosts: { median: 0, max: 0 },
      servers: { median: figures.serversMb * mib, max: figures.serversMb * mib },
      serverProcesses: figures.serverProcesses,
    },
    bareServerRssBytes: 80 * mib,
  })

  it('judges the daemon modes at the most sessions against one session, and ignores the no-daemon mode', () => {
    const rows = targetRows(
      report({
        manyAgents: [
          agents('no daemon', 1, { added: 1, serversMb: 80, serverProcesses: 1 }),
          agents('no daemon', 8, { added: 30, serversMb: 640, serverProcesses: 8 }),
          agents('daemon, stdio proxies', 1, { added: 2, serversMb: 80, serverProcesses: 1, proxyMb: 40 }),
          agents('daemon, stdio proxies', 8, { added: 3, serversMb: 90, serverProcesses: 1, proxyMb: 45 }),
          agents('daemon, direct HTTP', 1, { added: 2, serversMb: 80, serverProcesses: 1 }),
          agents('daemon, direct HTTP', 8, { added: 5, serversMb: 120, serverProcesses: 2 }),
        ],
      }),
    )
    const row = (prefix: string) => rows.find((r) => r.target.startsWith(prefix))!
    expect(row('many agents: language-server processes').verdict).toBe('not met')
    expect(row('many agents: language-server processes').measured).toMatch(/^2 .*direct HTTP/)
    expect(row("many agents: language servers' RSS").measured).toMatch(/^1\.50× .*direct HTTP/)
    expect(row("many agents: language servers' RSS").verdict).toBe('not met')
    expect(row('many agents: memory each').verdict).toBe('met')
    expect(row('many agents: p50 added').measured).toMatch(/^2\.50× .*direct HTTP/)
    expect(row('many agents: p50 added').verdict).toBe('not met')
  })

  it('is not measured without the scenario', () => {
    const rows = targetRows(report())
    for (const r of rows.filter((one) => one.target.startsWith('many agents'))) expect(r.verdict).toBe('not measured')
  })
})
