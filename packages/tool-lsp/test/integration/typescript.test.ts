import { existsSync } from 'node:fs'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { codeCompletions } from '../../src/completions.js'
import { codeDiagnostics } from '../../src/diagnostics.js'
import { codeHierarchy } from '../../src/hierarchy.js'
import { codeHover } from '../../src/hover.js'
import { codeInlayHints } from '../../src/inlay-hints.js'
import { codeNavigate } from '../../src/navigation.js'
import { codeStatus } from '../../src/status.js'
import { codeSymbols } from '../../src/symbols.js'
import { callsPerFile, typeScriptProject, type Project } from '../support/projects.js'
import { startRealHost, structured, type RealHost } from '../support/real-host.js'

const generated = 40

describe('read tools on the native TypeScript 7 server', { timeout: 120_000 }, () => {
  let project: Project
  let real: RealHost

  beforeAll(async () => {
    project = await typeScriptProject(generated)
    real = await startRealHost(project.root)
  }, 120_000)

  afterAll(async () => {
    await real?.dispose()
    await project?.remove()
  })

  // First in this file: no other tool has run, so no server has started (issue 32: it said "no language server is
  // registered" here).
  it('code_status before any other tool: every registered server listed as not started, none counted ready', async () => {
    const outcome = await real.call(codeStatus, {})
    const result = structured(outcome)
    expect(result.notice ?? '').not.toMatch(/no language server is registered/)
    const ts = result.servers.find((s: any) => s.provider === 'local:typescript')
    expect(ts).toMatchObject({ state: 'not-started', languages: expect.arrayContaining(['typescript']) })
    expect(ts.rootId).toBeUndefined()
    expect(ts.operations).toContain('references')
    expect(result.servers.every((s: any) => s.state === 'not-started' || s.state === 'unavailable')).toBe(true)
    const started = result.servers.filter((s: any) => s.state !== 'not-started').length
    const waiting = result.servers.length - started
    expect(outcome.summary).toBe(`0/${started} server${started === 1 ? '' : 's'} ready, ${waiting} not started`)
    expect(outcome.text).toMatch(
      /not started yet \(each starts on the first question about one of its files\):\n(.*\n)*  local:typescript  .*\.ts/,
    )
  })

  it('code_symbols: nested outline with name columns, and workspace search', async () => {
    const outline = structured(await real.call(codeSymbols, { path: 'src/shapes.ts' }))
    const names = outline.outline.map((n: any) => n.name)
    expect(names).toEqual(expect.arrayContaining(['Shape', 'Circle', 'Square', 'describe']))
    const circle = outline.outline.find((n: any) => n.name === 'Circle')
    expect(circle).toMatchObject({
      kind: 'class',
      line: project.lineOf('src/shapes.ts', 'class Circle'),
      column: project.columnOf('src/shapes.ts', 'class Circle') + 'class '.length,
    })
    expect(circle.children.map((c: any) => c.name)).toEqual(expect.arrayContaining(['area', 'name']))
    const search = structured(await real.call(codeSymbols, { query: 'describe' }))
    expect(search.matches[0]).toMatchObject({
      name: 'describe',
      path: 'src/shapes.ts',
      line: project.lineOf('src/shapes.ts', 'export function describe'),
    })
    const empty = await real.call(codeSymbols, { query: '' })
    expect(empty.ok === false && empty.error.message).toMatch(/query is empty/)
  })

  it('code_navigate references: hundreds of hits, capped, counted per file, paged to the end', async () => {
    const expected = generated * (callsPerFile + 1) + 1 /* declaration */ + 2 /* main.ts import and call */
    const first = structured(await real.call(codeNavigate, { target: { path: 'src/telemetry.ts', symbol: 'track' }, kind: 'references' }))
    expect(first.totalFound).toBe(expected)
    expect(first.page).toMatchObject({ returned: 100, limit: 100, truncated: true })
    expect(first.fileCount).toBe(generated + 2)
    expect(first.fileCounts.find((f: any) => f.path === 'src/gen/user000.ts')).toEqual({
      path: 'src/gen/user000.ts',
      count: callsPerFile + 1,
    })
    const call = first.files.find((f: any) => f.path === 'src/gen/user000.ts').locations[1]
    expect(call).toMatchObject({
      line: project.lineOf('src/gen/user000.ts', "track('user0.event0'"),
      column: project.columnOf('src/gen/user000.ts', "track('user0.event0'"),
      container: 'user0',
    })
    expect(call.snippet).toBe("track('user0.event0', 1)")
    const seen = new Set<string>()
    let cursor: string | undefined = first.page.nextCursor
    for (const file of first.files) for (const l of file.locations) seen.add(`${file.path}:${l.line}:${l.column}`)
    while (cursor !== undefined) {
      const page = structured(
        await real.call(codeNavigate, { target: { path: 'src/telemetry.ts', symbol: 'track' }, kind: 'references', limit: 500, cursor }),
      )
      for (const file of page.files) for (const l of file.locations) seen.add(`${file.path}:${l.line}:${l.column}`)
      cursor = page.page.nextCursor
    }
    expect(seen.size).toBe(expected)
  })

  it('code_navigate definition with body, from a call site aimed by line + matchText', async () => {
    const line = project.lineOf('src/main.ts', "track('report'")
    const outcome = await real.call(codeNavigate, {
      target: { path: 'src/main.ts', line, matchText: 'track' },
      kind: 'definition',
      includeBody: true,
    })
    const result = structured(outcome)
    expect(result.files).toEqual([expect.objectContaining({ path: 'src/telemetry.ts' })])
    expect(result.bodies[0].text).toContain('return total')
    expect(result.bodies[0]).toMatchObject({ symbol: 'track', line: project.lineOf('src/telemetry.ts', 'export function track') })
    expect(outcome.summary).toBe('1 definition · 1 file')
  })

  it('code_navigate implementation: both classes implement Shape', async () => {
    const result = structured(await real.call(codeNavigate, { target: { path: 'src/shapes.ts', symbol: 'Shape' }, kind: 'implementation' }))
    const symbols = result.files.flatMap((f: any) => f.locations.map((l: any) => l.symbol))
    expect(symbols.sort()).toEqual(['Circle', 'Square'])
  })

  it('an ambiguous symbol returns candidates; firstMatch takes the first', async () => {
    const ambiguous = await real.call(codeHover, { target: { path: 'src/shapes.ts', symbol: 'area' } })
    expect(ambiguous.ok).toBe(false)
    if (ambiguous.ok) return
    expect(ambiguous.error.code).toBe('AMBIGUOUS')
    expect(ambiguous.text).toMatch(/Shape\.area[\s\S]*Circle\.area[\s\S]*Square\.area/)
    const dotted = structured(await real.call(codeHover, { target: { path: 'src/shapes.ts', symbol: 'Square.area' } }))
    expect(dotted.signature).toMatch(/Square\.area\(\): number/)
    const first = structured(await real.call(codeHover, { target: { path: 'src/shapes.ts', symbol: 'area' }, firstMatch: true }))
    expect(first.target.symbol).toBe('Shape.area')
  })

  it('code_hover: plain signature and docs; signature help inside a call marks the active parameter', async () => {
    const hover = structured(await real.call(codeHover, { target: { path: 'src/telemetry.ts', symbol: 'track' } }))
    expect(hover.signature).toBe('function track(event: string, weight: number): number')
    expect(hover.signature).not.toContain('```')
    expect(hover.documentation).toBe('Records one telemetry event and returns the running total weight.')
    const line = project.lineOf('src/main.ts', "track('report'")
    const inCall = structured(await real.call(codeHover, { target: { path: 'src/main.ts', line, matchText: 'circle.area' } }))
    expect(inCall.call).toMatchObject({ activeParameter: 'weight: number', activeParameterIndex: 1 })
    expect(inCall.call.label).toContain('«weight: number»')
  })

  it('code_hierarchy: callers with call sites, and a deeper graph', async () => {
    const result = structured(
      await real.call(codeHierarchy, { target: { path: 'src/shapes.ts', symbol: 'describe' }, kind: 'callers', depth: 3 }),
    )
    const call = {
      line: project.lineOf('src/main.ts', 'describe(new Square'),
      column: project.columnOf('src/main.ts', 'describe(new Square'),
    }
    expect(result.direct).toEqual([
      expect.objectContaining({
        name: 'report',
        path: 'src/main.ts',
        callSites: [{ ...call, endLine: call.line, endColumn: call.column + 'describe'.length }],
      }),
    ])
    const ids = result.graph.nodes.map((n: any) => n.name)
    expect(ids).toEqual(expect.arrayContaining(['describe', 'report', 'run']))
    expect(result.graph.edges.length).toBeGreaterThanOrEqual(2)
    const callees = structured(await real.call(codeHierarchy, { target: { path: 'src/main.ts', symbol: 'report' }, kind: 'callees' }))
    expect(callees.direct.map((d: any) => d.name)).toEqual(expect.arrayContaining(['track', 'describe']))
  })

  it('code_hierarchy supertypes / subtypes: derived (the server has no type hierarchy), and the text says so', async () => {
    const up = await real.call(codeHierarchy, { target: { path: 'src/shapes.ts', symbol: 'Circle' }, kind: 'supertypes' })
    const supertypes = structured(up)
    expect(supertypes.direct).toEqual([
      expect.objectContaining({ name: 'Shape', path: 'src/shapes.ts', line: project.lineOf('src/shapes.ts', 'export interface Shape') }),
    ])
    expect(supertypes.notice).toMatch(/derived by codeseam from the server's document symbols, definitions/)
    expect(up.ok && up.text).toContain('derived by codeseam')
    const down = structured(await real.call(codeHierarchy, { target: { path: 'src/shapes.ts', symbol: 'Shape' }, kind: 'subtypes' }))
    expect(down.direct.map((d: any) => d.name).sort()).toEqual(['Circle', 'Square'])
    expect(down.unresolved).toBeUndefined()
  })

  it('code_diagnostics: the type error, unused noise hidden by default', async () => {
    const outcome = await real.call(codeDiagnostics, { path: 'src/broken.ts' })
    const result = structured(outcome)
    expect(result.counts.error).toBe(1)
    const error = result.files[0].diagnostics[0]
    expect(error).toMatchObject({ severity: 'error', line: project.lineOf('src/broken.ts', 'count'), code: '2322' })
    expect(error.message).toMatch(/not assignable to type 'number'/)
    expect(result.files[0].diagnostics.some((d: any) => /unusedHelper/.test(d.message))).toBe(false)
    const noisy = structured(await real.call(codeDiagnostics, { path: 'src/broken.ts', severity: 'hint' }))
    expect(noisy.files[0].diagnostics.some((d: any) => /unusedHelper/.test(d.message))).toBe(true)
    expect(outcome.summary).toBe('1 error')
  })

  it('code_diagnostics over the workspace reports coverage', async () => {
    const result = structured(await real.call(codeDiagnostics, {}))
    expect(result.scope).toBe('workspace')
    expect(result.coverage.analysed).toBeGreaterThan(0)
    expect(result.files.map((f: any) => f.path)).toContain('src/broken.ts')
  })

  // Issue 32: codeseam's own file bound was reported as "the language server cut its answer short", with no way to
  // raise it.
  it('code_diagnostics over the workspace: a bounded answer names the bound and how to raise it; maxFiles raises it', async () => {
    const bounded = await real.call(codeDiagnostics, { maxFiles: 5 })
    const partial = structured(bounded)
    // Five opened, plus any file already open from an earlier question.
    expect(partial.coverage.complete).toBe(false)
    expect(partial.coverage.analysed).toBeGreaterThanOrEqual(5)
    expect(partial.coverage.analysed).toBeLessThan(partial.coverage.eligible)
    expect(partial.notice).toContain(`only ${partial.coverage.analysed} files were analysed of ${partial.coverage.eligible}`)
    expect(partial.notice).toContain('pass maxFiles (up to 2000) to analyse more')
    expect(partial.notice).not.toMatch(/cut its answer short/)
    // It names some of the files it left out, each one a file of the workspace that was not analysed.
    const after = partial.notice.split('not analysed, among others: ')[1] ?? ''
    const named = after.match(/src\/[\w/.-]+?\.ts/g) ?? []
    expect(named.length, partial.notice).toBeGreaterThan(0)
    for (const file of named) expect(existsSync(nodePath.join(project.root, file)), file).toBe(true)
    const whole = structured(await real.call(codeDiagnostics, { maxFiles: 2000 }))
    expect(whole.coverage).toMatchObject({ analysed: partial.coverage.eligible, complete: true })
  })

  it('code_inlay_hints: inferred types and parameter names', async () => {
    const line = project.lineOf('src/main.ts', "track('report'")
    const result = structured(await real.call(codeInlayHints, { path: 'src/main.ts', range: { startLine: line, endLine: line } }))
    const labels = result.hints.map((h: any) => h.label)
    expect(labels).toEqual(expect.arrayContaining([': number', 'event:', 'weight:']))
    expect(result.hints.every((h: any) => h.line === line)).toBe(true)
  })

  it('code_completions: the members after "circle."', async () => {
    const line = project.lineOf('src/main.ts', 'circle.area()')
    const result = structured(await real.call(codeCompletions, { target: { path: 'src/main.ts', line, matchText: 'circle.' } }))
    expect(result.items.map((i: any) => i.label)).toEqual(expect.arrayContaining(['area', 'name', 'radius']))
  })

  it('code_status: the TypeScript server is up for this root, with its projects', async () => {
    const outcome = await real.call(codeStatus, {})
    const result = structured(outcome)
    const ts = result.servers.find((s: any) => s.provider === 'local:typescript' && s.rootId !== undefined)
    expect(ts).toBeDefined()
    expect(['ready', 'idle', 'indexing']).toContain(ts.state)
    expect(ts.operations).toContain('references')
    // References ran before: the server loaded the project model, and status counts it (one tsconfig here).
    expect(ts.projects).toEqual({ loaded: 1, found: 1 })
    expect(outcome.text).toMatch(/typescript @ \S+: (ready|idle|indexing), 1\/1 project /)
  })

  it("code_status: the running server's resident memory, a sample with its age, and the total against the per-server ceiling", async () => {
    // Sampled from the server's spawn, off the questions' path (RFC 0030): the figure is there by now, or very soon.
    const { outcome, ts, result } = await vi.waitFor(
      async () => {
        const outcome = await real.call(codeStatus, {})
        const result = structured(outcome)
        const ts = result.servers.find((s: any) => s.provider === 'local:typescript' && s.rootId !== undefined)
        expect(ts?.memoryMb).toBeGreaterThan(10)
        return { outcome, ts, result }
      },
      { timeout: 20_000, interval: 100 },
    )
    expect(ts.memorySampledSecondsAgo).toBeGreaterThanOrEqual(0)
    expect(ts.memoryCeilingMb).toBeGreaterThanOrEqual(512) // the default ceiling: a quarter of RAM, 512 MiB to 4 GiB
    expect(result.memory.residentMb).toBeGreaterThanOrEqual(ts.memoryMb)
    expect(result.memory.sessionServers).toBeGreaterThanOrEqual(1)
    expect(result.memory.perServerCeilingMb).toBe(ts.memoryCeilingMb)
    expect(result.memory.budget?.budgetMb).toBeGreaterThanOrEqual(1024) // half of RAM, at least 1 GiB (RFC 0033)
    expect(outcome.text).toMatch(/typescript @ \S+: \w+, 1\/1 project \(up \d+s, \d+ MB sampled \d+s ago\)/)
    expect(outcome.text).toMatch(
      /memory: \d+ MB resident across \d+ running servers?, sampled up to \d+s ago; each server is restarted above its \d+ MB per-server ceiling; \d+ of \d+ MB budget across \d+ servers? of every session \(above it, idle servers stop, least recently used first\)/,
    )
  })

  it('refuses a missing file, a path outside the root, and a language without a server', async () => {
    const missing = await real.call(codeSymbols, { path: 'src/missing.ts' })
    expect(missing.ok === false && missing.error.code).toBe('NOT_FOUND')
    const outside = await real.call(codeNavigate, { target: { path: '../outside.ts', line: 1 }, kind: 'definition' })
    expect(outside.ok === false && outside.error.code).toBe('OUTSIDE_WORKSPACE')
    const absolute = await real.call(codeSymbols, { path: '/etc/passwd' })
    expect(absolute.ok === false && absolute.error.code).toBe('OUTSIDE_WORKSPACE')
    const ruby = await real.call(codeSymbols, { path: 'notes/build.php' })
    expect(ruby.ok === false && ruby.error.code).toBe('UNAVAILABLE')
    expect(ruby.ok === false && ruby.text).toMatch(/no language server handles \.php files.*intelephense/)
  })
})
