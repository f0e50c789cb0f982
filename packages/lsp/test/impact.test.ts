import { describe, expect, it } from 'vitest'

import { createLsp, impactOf, isTestPath, moduleOf, resultMeta, type LspDocumentSymbol, type LspLocation } from '../src/index.js'
import { createMemoryWorkspace } from '../src/testing/index.js'

const root = '/w'
const span = (line: number, endLine = line, character = 0, end = 5) => ({
  start: { line, character },
  end: { line: endLine, character: end },
})
const fn = (name: string, from: number, to: number): LspDocumentSymbol => ({
  name,
  kind: 'function',
  range: span(from, to, 0, 1),
  selectionRange: span(from, from, 9, 9 + name.length),
  children: [],
})
const outlines: Record<string, LspDocumentSymbol[]> = {
  '/w/src/core.ts': [fn('target', 0, 2), fn('helper', 4, 8)],
  '/w/src/app.ts': [fn('run', 0, 3), fn('loop', 5, 8)],
  '/w/test/core.test.ts': [fn('t', 0, 3)],
}
const loc = (path: string, line: number): LspLocation => ({ uri: `file://${path}`, path, range: span(line, line, 9, 12) })
/** References by the asked position's file and line; the declaration is always among them. */
const references: Record<string, LspLocation[]> = {
  '/w/src/core.ts:0': [
    loc('/w/src/core.ts', 0),
    loc('/w/src/core.ts', 5),
    loc('/w/src/core.ts', 10),
    loc('/w/src/app.ts', 2),
    loc('/w/test/core.test.ts', 1),
  ],
  '/w/src/core.ts:4': [loc('/w/src/core.ts', 4), loc('/w/src/app.ts', 1)],
  '/w/src/app.ts:0': [loc('/w/src/app.ts', 0), loc('/w/src/app.ts', 6)],
  '/w/src/app.ts:5': [loc('/w/src/app.ts', 5), loc('/w/src/app.ts', 1)],
  '/w/test/core.test.ts:0': [loc('/w/test/core.test.ts', 0)],
}

function service() {
  const lsp = createLsp()
  const asked: string[] = []
  lsp.registerProvider({
    id: 'fake',
    extensions: { '.ts': 'typescript' },
    operations: ['references', 'documentSymbols'],
    query: async (request: { operation: string; path: string; position?: { line: number } }) => {
      if (request.operation === 'documentSymbols') {
        return { kind: 'documentSymbols', symbols: outlines[request.path] ?? [], meta: resultMeta('fake') } as never
      }
      const key = `${request.path}:${request.position!.line}`
      asked.push(key)
      return { kind: 'locations', locations: references[key] ?? [], meta: resultMeta('fake') } as never
    },
  } as never)
  const text = Array.from({ length: 12 }, () => 'function xxxxxxxxxx() {}').join('\n')
  lsp.registerWorkspace(
    createMemoryWorkspace({ id: 'w', root, files: { 'src/core.ts': text, 'src/app.ts': text, 'test/core.test.ts': text } }),
  )
  return { lsp, asked }
}

const start = { root, path: '/w/src/core.ts', position: { line: 0, character: 10 } }
const ids = (r: Awaited<ReturnType<typeof impactOf>>) => r.dependents.map((d) => `${d.depth} ${d.symbol?.id ?? `file:${d.path}`}`)

describe('impactOf', () => {
  it('depth 1: enclosing symbols, a file-level dependent, tests marked; the declaration is not a dependent', async () => {
    const { lsp } = service()
    const r = await impactOf(lsp, { ...start, depth: 1 })
    expect(r.target.id).toBe('target@src/core.ts:1')
    expect(ids(r)).toEqual(['1 run@src/app.ts:1', '1 helper@src/core.ts:5', '1 file:/w/src/core.ts', '1 t@test/core.test.ts:1'])
    expect(r.dependents.map((d) => d.test)).toEqual([false, false, false, true])
    expect(r.dependents.map((d) => d.module)).toEqual(['src', 'src', 'src', 'test'])
    expect(r.meta.derived?.from).toEqual(['documentSymbols', 'references'])
    expect(r.expanded).toBe(1)
  })

  it('depth 2 walks the dependents; a symbol reached twice is listed once, with both it depends on', async () => {
    const { lsp, asked } = service()
    const r = await impactOf(lsp, start)
    expect(ids(r)).toEqual([
      '1 run@src/app.ts:1',
      '1 helper@src/core.ts:5',
      '1 file:/w/src/core.ts',
      '1 t@test/core.test.ts:1',
      '2 loop@src/app.ts:6',
    ])
    expect(r.dependents[0]!.dependsOn).toEqual(['target@src/core.ts:1', 'helper@src/core.ts:5'])
    expect(r.revisits).toBe(1)
    // The file-level dependent is never expanded.
    expect(asked).toEqual(['/w/src/core.ts:0', '/w/src/core.ts:4', '/w/src/app.ts:0', '/w/test/core.test.ts:0'])
  })

  it('cycles terminate (run → loop → run) at any depth', async () => {
    const { lsp, asked } = service()
    const r = await impactOf(lsp, { ...start, depth: 5 })
    expect(r.dependents).toHaveLength(5)
    expect(new Set(asked).size).toBe(asked.length)
    expect(r.revisits).toBe(2)
  })

  it('a fan-out past maxSymbols is listed, not expanded, and counted', async () => {
    const { lsp, asked } = service()
    const r = await impactOf(lsp, { ...start, maxSymbols: 2 })
    expect(r.expanded).toBe(2)
    expect(r.notExpanded).toBe(2)
    expect(asked).toHaveLength(2)
    expect(r.dependents.filter((d) => d.depth === 1)).toHaveLength(4)
  })
})

describe('grouping rules', () => {
  it('test paths', () => {
    for (const p of [
      'test/a.ts',
      'pkg/tests/x.py',
      'src/__tests__/a.ts',
      'src/a.test.ts',
      'src/a.spec.js',
      'x_test.go',
      'test_app.py',
      'app_test.py',
    ]) {
      expect(isTestPath(p), p).toBe(true)
    }
    for (const p of ['src/testing/a.ts', 'src/contest.ts', 'latest/a.py', 'src/attest.go']) expect(isTestPath(p), p).toBe(false)
  })

  it('module: the nearest folder with a manifest under the root, else the top-level folder', () => {
    const manifests = new Set(['/r/packages/a'])
    const has = (dir: string) => manifests.has(dir)
    expect(moduleOf('/r', '/r/packages/a/src/x.ts', has)).toBe('packages/a')
    expect(moduleOf('/r', '/r/tools/y.ts', has)).toBe('tools')
    expect(moduleOf('/r', '/r/z.ts', has)).toBe('.')
  })
})
