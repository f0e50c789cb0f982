import { describe, expect, it } from 'vitest'

import { performanceMarkdown } from '../src/docs-writer.js'
import { verifySeamResult } from '../src/layers/ctx-lsp-layer.js'
import type { ReadLayer } from '../src/layers/read-layer.js'
import { verifyToolOutput } from '../src/layers/tool-calls.js'
import { generatedReadMix, type ReadQuery } from '../src/read-mix.js'
import { runReadMix } from '../src/scenarios/read-mix.js'
import type { BenchReport } from '../src/report.js'
import { printReport } from '../src/table.js'
import { derivedOperationInfos, floorHoldsSubtypes } from '../src/type-hierarchy.js'
import { generateFiles, typeHierarchyOf, type GeneratedWorkspace } from '../src/workspace-generator.js'

/*
 * The read mix's derived operation (the subtypes of a class): the generator writes a known hierarchy, every
 * layer's answer is judged against it, and a wrong derived answer is counted wrong like any other.
 */

const root = '/w'

function workspace(fileCount = 10): GeneratedWorkspace {
  const { files, hotReferenceCount } = generateFiles(fileCount)
  const typeHierarchy = typeHierarchyOf(fileCount)!
  return { name: 'ts-10', root, fileCount, files, hotFile: 'src/core/hot.ts', hotSymbol: 'hotMeasure', hotReferenceCount, typeHierarchy }
}

function derivedQuery(ws = workspace()): ReadQuery {
  const query = generatedReadMix(ws).find((q) => q.operation === 'typeHierarchy')
  if (query === undefined) throw new Error('no derived query in the mix')
  return query
}

/** A seam answer: hierarchy items at `name@path:line` keys, marked derived unless told otherwise. */
function seamAnswer(keys: ReadonlyArray<string>, derived = true) {
  return {
    kind: 'hierarchyItems',
    items: keys.map((key) => {
      const [name, rest] = key.split('@') as [string, string]
      const [path, line] = rest.split(':') as [string, string]
      const at = { line: Number(line) - 1, character: 13 }
      return {
        id: key,
        name,
        kind: 'class',
        uri: `file://${root}/${path}`,
        path: `${root}/${path}`,
        range: { start: at, end: at },
        selectionRange: { start: at, end: at },
      }
    }),
    meta: {
      providerId: 'x',
      status: 'ready',
      warm: true,
      truncated: false,
      elapsedMs: 0,
      ...(derived ? { derived: { from: ['documentSymbols', 'references'] } } : {}),
    },
  }
}

function toolAnswer(keys: ReadonlyArray<string>, total = keys.length) {
  return {
    direct: keys.map((key) => {
      const [name, rest] = key.split('@') as [string, string]
      const [path, line] = rest.split(':') as [string, string]
      return { name, path, line: Number(line) }
    }),
    page: { total, truncated: false },
  }
}

describe('the known type hierarchy', () => {
  it('is generated deterministically next to the read mix module, and the derived query aims at its base class', () => {
    const ws = workspace()
    expect(generateFiles(10).files).toEqual(ws.files)
    const query = derivedQuery(ws)
    expect(query.path).toBe(ws.typeHierarchy!.base.path)
    expect(query.matchText).toBe(ws.typeHierarchy!.base.name)
    // Direct subtypes only: the subclass of a subclass is not among them.
    expect(query.expect.subtypes).toHaveLength(2)
    expect(query.expect.subtypes!.join()).not.toContain('BatchedTwice')
    for (const key of query.expect.subtypes!) {
      const [name, rest] = key.split('@') as [string, string]
      const [path, line] = rest.split(':') as [string, string]
      expect(ws.files.get(path)!.split('\n')[Number(line) - 1]).toContain(`class ${name} extends ${ws.typeHierarchy!.base.name} `)
    }
  })

  it('is left out of workspaces too small to hold it, with the mix unchanged', () => {
    expect(typeHierarchyOf(3)).toBeUndefined()
    const { files, hotReferenceCount } = generateFiles(3)
    const small = { name: 'ts-3', root, fileCount: 3, files, hotFile: 'src/core/hot.ts', hotSymbol: 'hotMeasure', hotReferenceCount }
    expect(generatedReadMix(small).map((q) => q.operation)).toEqual(['definition', 'references', 'hover', 'documentSymbols'])
  })
})

describe('every layer’s derived answer is judged', () => {
  const query = derivedQuery()
  const expected = query.expect.subtypes!
  const grandchild = `${workspace().typeHierarchy!.indirect[0]!.name}@${workspace().typeHierarchy!.indirect[0]!.path}:300`

  it('ctx.lsp: exactly the direct subtypes, marked derived', () => {
    expect(verifySeamResult(root, query, seamAnswer(expected) as never)).toBe(true)
    expect(verifySeamResult(root, query, seamAnswer(expected.slice(1)) as never)).toBe(false)
    expect(verifySeamResult(root, query, seamAnswer([...expected, grandchild]) as never)).toBe(false)
    expect(verifySeamResult(root, query, seamAnswer(expected.map((k) => k.replace(/:(\d+)$/, ':1'))) as never)).toBe(false)
    expect(verifySeamResult(root, query, seamAnswer(expected, false) as never)).toBe(false)
  })

  it('tools and MCP: the direct list and its total', () => {
    expect(verifyToolOutput(query, toolAnswer(expected))).toBe(true)
    expect(verifyToolOutput(query, toolAnswer(expected.slice(0, 1)))).toBe(false)
    expect(verifyToolOutput(query, toolAnswer(expected, 3))).toBe(false)
  })

  it('floor: its ingredients hold each subtype’s extends and outline', () => {
    const place = (key: string) => {
      const [name, rest] = key.split('@') as [string, string]
      const [path, line] = rest.split(':') as [string, string]
      return { name, uri: `file://${root}/${path}`, line: Number(line) - 1 }
    }
    const floor = (keys: ReadonlyArray<string>) => ({
      outline: [{ name: query.matchText, children: [] }],
      references: keys
        .map(place)
        .map((p) => ({ uri: p.uri, range: { start: { line: p.line, character: 40 }, end: { line: p.line, character: 51 } } })),
      outlines: keys.map(place).map((p) => ({ uri: p.uri, symbols: [{ name: p.name, children: [] }] })),
    })
    expect(floorHoldsSubtypes(root, query, floor(expected))).toBe(true)
    expect(floorHoldsSubtypes(root, query, floor(expected.slice(1)))).toBe(false)
    expect(floorHoldsSubtypes(root, query, { ...floor(expected), outline: [] })).toBe(false)
  })

  it('a wrong derived answer in the timed rounds is counted wrong, and the derived operation stays out of the whole mix', async () => {
    const native: ReadQuery = { ...query, operation: 'hover', label: 'hover', expect: { hoverIncludes: 'x' } }
    const layer = (name: 'floor' | 'ctx.lsp', answer: (q: ReadQuery, call: number) => unknown, ms: (q: ReadQuery) => number): ReadLayer => {
      let calls = 0
      return {
        layer: name,
        inProcess: true,
        run: async (q) => {
          const started = performance.now()
          while (performance.now() - started < ms(q)) {
            // busy: a derived answer takes longer than a native one
          }
          return answer(q, q.operation === 'typeHierarchy' ? calls++ : 0)
        },
        verify: (q, a) => (q.operation === 'hover' ? a === 'x' : name === 'floor' ? true : verifySeamResult(root, q, a as never)),
        locationCount: () => 0,
        truncated: () => false,
        outputBytes: () => 0,
        pids: () => [],
        stop: async () => undefined,
      }
    }
    const floor = layer(
      'floor',
      (q) => (q.operation === 'hover' ? 'x' : {}),
      () => 0,
    )
    // Right in the warm-up (call 0) and the first timed round, then missing a subtype in the other two.
    const seam = layer(
      'ctx.lsp',
      (q, call) => (q.operation === 'hover' ? 'x' : seamAnswer(call < 2 ? expected : expected.slice(1))),
      (q) => (q.operation === 'typeHierarchy' ? 3 : 0),
    )
    const { results, increments } = await runReadMix('ws', [floor, seam], [native, query], 3)
    const ctx = results.find((r) => r.layer === 'ctx.lsp')!
    expect(ctx.incorrect).toBe(2)
    expect(ctx.byOperation['typeHierarchy']!.derived).toBe(true)
    expect(ctx.byOperation['hover']!.derived).toBeUndefined()
    expect(increments.find((i) => i.operation === 'typeHierarchy')!.wrong).toEqual({ floor: 0, 'ctx.lsp': 2 })
    // "all" is the native operations only: three hover turns, exactly the hover samples, no derived answers in
    // it (compared sample set to sample set, not by timing: a loaded machine can stretch a hover past 3 ms).
    const all = increments.find((i) => i.operation === 'all')!
    expect(all.turns).toBe(3)
    expect(ctx.all.count).toBe(3)
    expect(ctx.all).toEqual(ctx.byOperation['hover']!.summary)
    expect(ctx.all).not.toEqual(ctx.byOperation['typeHierarchy']!.summary)
  })
})

describe('the report shows the derived operation beside the native ones', () => {
  const timing = (median: number) => ({ count: 25, median, p95: median * 2, min: median, max: median * 3, mean: median })
  const row = (layer: 'floor' | 'ctx.lsp', derived: number, ratio: number) => ({
    workspace: 'ts-50',
    layer,
    all: timing(2),
    ratio: { median: 1, p95: 1 },
    byOperation: {
      hover: { summary: timing(2), ratio: { median: 1, p95: 1 } },
      typeHierarchy: { summary: timing(derived), ratio: { median: ratio, p95: ratio }, derived: true as const },
    },
    incorrect: 0,
  })
  const report: BenchReport = {
    schema: 1,
    generatedAt: '2026-12-01T00:00:00.000Z',
    command: 'pnpm bench',
    durationMs: 1000,
    machine: { cpuModel: 'x', cores: 2, memoryBytes: 1, freeMemoryBytesAtStart: 1, node: 'v20', platform: 'linux-x64', kernel: '6' },
    workspaces: [{ name: 'ts-50', files: 51, generated: true }],
    // The repository's mix has no derived operation: its row shows a dash in that column, not a shifted cell.
    readMix: [
      row('floor', 10, 1),
      row('ctx.lsp', 12, 1.2),
      { ...row('floor', 1, 1), workspace: 'repo', byOperation: { hover: row('floor', 1, 1).byOperation.hover } },
    ],
    derivedOperations: derivedOperationInfos,
    coldStart: [],
    hotReferences: [],
    targetResolution: [],
    concurrency: [],
    memory: [],
    increments: [
      { workspace: 'ts-50', mix: 'read mix', operation: 'typeHierarchy', turns: 25, ctxLsp: timing(2), wrong: { floor: 0, 'ctx.lsp': 1 } },
    ],
    missing: [],
    notes: [],
  }

  it('in the docs: a derived column, its own table with what the floor answered, its increments row', () => {
    const markdown = performanceMarkdown(report, 'performance.json', 'performance.svg')
    expect(markdown).toContain('| workspace / layer | hover | typeHierarchy (derived) | references found |')
    expect(markdown).toContain('| repo / floor | 2.00 (1.00×) | — | — |')
    expect(markdown).toContain('## Derived operation beside the native ones: typeHierarchy, ms per query')
    expect(markdown).toContain('- × floor: the floor has no such operation; its figure is the bare server answering the ingredients')
    expect(markdown).toMatch(/\| ts-50 \/ ctx\.lsp \| 12\.0 \| 24\.0 \| 1\.20× \| 1\.20× \| 2\.00 \| 6\.00× \| 25 \| 1 \|/)
    expect(markdown).toContain('ts-50 (read mix) / typeHierarchy (derived)')
  })

  it('on stdout', () => {
    const text = printReport(report)
    expect(text).toContain('typeHierarchy (derived)')
    expect(text).toContain('Derived operation beside the native ones: typeHierarchy, ms per query\n  Asked:')
  })
})
