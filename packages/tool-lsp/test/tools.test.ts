import { LspError } from '@codeseam/lsp'
import { describe, expect, it } from 'vitest'

import { callTool, toMcpTool, toolContext, type AnyTool, type ToolOutcome } from '../src/index.js'
import { codeCompletions } from '../src/completions.js'
import { codeDiagnostics } from '../src/diagnostics.js'
import { codeHierarchy } from '../src/hierarchy.js'
import { codeHover } from '../src/hover.js'
import { codeInlayHints } from '../src/inlay-hints.js'
import { codeNavigate } from '../src/navigation.js'
import { codeStatus } from '../src/status.js'
import { codeSymbols } from '../src/symbols.js'
import { validateDraft07 } from './support/schema-rules.js'
import { columnOf, lineOf, toyService } from './support/toy-provider.js'

const app = [
  '# Greets a person.',
  'fn greet(name, punctuation) {',
  '  print(name)',
  '}',
  'class Router {',
  '  # Finds a route.',
  '  fn match(path) {',
  '    greet(path, "!")',
  '  }',
  '}',
  'fn main() {',
  '  greet("a", "b")',
  '  let count = 3',
  '  # TODO handle errors',
  '  unused_helper()',
  '  main()',
  '}',
  '',
].join('\n')
const other = ['fn helper() {', '  greet("x", "y")', '  greet("z", "w")', '}', 'class Router {', '}', ''].join('\n')
const files = { 'src/app.toy': app, 'src/other.toy': other, 'notes/readme.php': '<?php echo 1;\n' }

async function run(tool: AnyTool, args: unknown, options: Parameters<typeof toyService>[1] = {}): Promise<ToolOutcome> {
  const { lsp } = toyService(files, options)
  const outcome = await callTool(tool, args, toolContext(lsp))
  if (outcome.ok) {
    // What an MCP client would do with structuredContent.
    expect(validateDraft07(toMcpTool(tool).outputSchema, outcome.structured)).toEqual([])
  }
  return outcome
}

function ok(outcome: ToolOutcome): Record<string, any> {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`)
  return outcome.structured
}

describe('code_navigate', () => {
  it('groups references by file with snippets, containers, the declaration flagged and counts', async () => {
    const outcome = await run(codeNavigate, { target: { path: 'src/app.toy', symbol: 'greet' }, kind: 'references' })
    const result = ok(outcome)
    expect(result.totalFound).toBe(5)
    expect(result.fileCount).toBe(2)
    expect(result.files.map((f: any) => [f.path, f.count])).toEqual([
      ['src/app.toy', 3],
      ['src/other.toy', 2],
    ])
    const appLocations = result.files[0].locations
    expect(appLocations[0]).toMatchObject({ line: lineOf(app, 'fn greet'), isDeclaration: true, symbol: 'greet', kind: 'function' })
    expect(appLocations[1]).toMatchObject({ line: lineOf(app, 'greet(path'), snippet: 'greet(path, "!")', container: 'Router.match' })
    expect(result.target).toMatchObject({
      path: 'src/app.toy',
      symbol: 'greet',
      kind: 'function',
      line: lineOf(app, 'fn greet'),
      resolvedBy: 'symbol',
    })
    expect(result.readiness).toEqual({ status: 'ready', warm: true, provider: 'toy' })
    expect(outcome.summary).toBe('5 references · 2 files')
    expect(outcome.text).toContain(`${lineOf(app, 'greet(path')}:${columnOf(app, 'greet(path')}  greet(path, "!")  [in Router.match]`)
  })

  it('pages with a cursor bound to the query', async () => {
    const { lsp } = toyService(files)
    const context = toolContext(lsp)
    const args = { target: { path: 'src/app.toy', symbol: 'greet' }, kind: 'references', limit: 2 }
    const first = ok(await callTool(codeNavigate, args, context))
    expect(first.page).toMatchObject({ returned: 2, total: 5, limit: 2, truncated: true })
    const second = ok(await callTool(codeNavigate, { ...args, cursor: first.page.nextCursor }, context))
    expect(second.page).toMatchObject({ returned: 2, total: 5, offset: 2, truncated: true })
    const third = ok(await callTool(codeNavigate, { ...args, cursor: second.page.nextCursor }, context))
    expect(third.page).toMatchObject({ returned: 1, truncated: false })
    expect(third.page.nextCursor).toBeUndefined()
    const seen = [first, second, third].flatMap((r) =>
      r.files.flatMap((f: any) => f.locations.map((l: any) => `${f.path}:${l.line}:${l.column}`)),
    )
    expect(new Set(seen).size).toBe(5)
    expect(second.fileCounts).toEqual(first.fileCounts)
    const wrong = await callTool(
      codeNavigate,
      { target: { path: 'src/app.toy', symbol: 'main' }, kind: 'references', cursor: first.page.nextCursor },
      context,
    )
    expect(wrong.ok === false && wrong.error.message).toMatch(/cursor belongs to a different query/)
    const garbage = await callTool(codeNavigate, { ...args, cursor: 'nonsense' }, context)
    expect(garbage.ok === false && garbage.error.code).toBe('INVALID_ARGUMENT')
  })

  it('returns the definition with its body and a context window', async () => {
    const result = ok(
      await run(codeNavigate, {
        target: { path: 'src/app.toy', line: lineOf(app, 'greet("a"'), matchText: 'greet' },
        kind: 'definition',
        includeBody: true,
        context: 1,
      }),
    )
    expect(result.totalFound).toBe(1)
    expect(result.bodies).toHaveLength(1)
    expect(result.bodies[0]).toMatchObject({
      path: 'src/app.toy',
      symbol: 'greet',
      line: lineOf(app, 'fn greet'),
      endLine: lineOf(app, '}'),
      truncated: false,
    })
    expect(result.bodies[0].text).toBe(
      app
        .split('\n')
        .slice(lineOf(app, 'fn greet') - 1, lineOf(app, '}'))
        .join('\n'),
    )
    const snippet: string = result.files[0].locations[0].snippet
    expect(snippet.split('\n')).toHaveLength(3)
    expect(snippet).toContain(`${lineOf(app, 'fn greet')}> fn greet`)
    expect(result.target.resolvedBy).toBe('matchText')
  })

  it('returns candidates for an ambiguous name, and firstMatch picks the first', async () => {
    const { lsp } = toyService({ 'src/dup.toy': 'class Box {\n  fn open() {\n  }\n}\nclass Crate {\n  fn open() {\n  }\n}\n' })
    const ambiguous = await callTool(
      codeNavigate,
      { target: { path: 'src/dup.toy', symbol: 'open' }, kind: 'references' },
      toolContext(lsp),
    )
    expect(ambiguous.ok).toBe(false)
    if (ambiguous.ok) return
    expect(ambiguous.error.code).toBe('AMBIGUOUS')
    expect(ambiguous.text).toMatch(/candidates[\s\S]*Box\.open \(method\)[\s\S]*Crate\.open \(method\)/)
    const first = ok(
      await callTool(
        codeNavigate,
        { target: { path: 'src/dup.toy', symbol: 'open' }, kind: 'references', firstMatch: true },
        toolContext(lsp),
      ),
    )
    expect(first.target.symbol).toBe('Box.open')
  })

  it('refuses missing files, paths outside the root, and languages without a server (saying what to install)', async () => {
    const missing = await run(codeNavigate, { target: { path: 'src/nope.toy', symbol: 'x' }, kind: 'definition' })
    expect(missing.ok === false && missing.error.code).toBe('NOT_FOUND')
    const outside = await run(codeNavigate, { target: { path: '../../etc/passwd', line: 1 }, kind: 'definition' })
    expect(outside.ok === false && outside.error.code).toBe('OUTSIDE_WORKSPACE')
    const ruby = await run(codeNavigate, { target: { path: 'notes/readme.php', line: 1 }, kind: 'definition' })
    expect(ruby.ok === false && ruby.error.code).toBe('UNAVAILABLE')
    expect(ruby.ok === false && ruby.error.message).toMatch(/no language server handles \.php files.*intelephense/)
  })

  it('says an empty answer may be incomplete while the server indexes', async () => {
    const args = { target: { path: 'src/app.toy', line: lineOf(app, 'print(name)'), matchText: 'print' }, kind: 'definition' }
    const result = ok(await run(codeNavigate, args, { status: 'indexing' }))
    expect(result.totalFound).toBe(0)
    expect(result.readiness.status).toBe('indexing')
    expect(result.notice).toMatch(/still indexing.*an empty answer does not mean there are none/)
    const ready = ok(await run(codeNavigate, args))
    expect(ready.notice).not.toMatch(/indexing/)
    const blank = ok(
      await run(codeNavigate, { target: { path: 'src/app.toy', line: lineOf(app, 'TODO'), matchText: '#' }, kind: 'references' }),
    )
    expect(blank.totalFound).toBe(0)
    expect(blank.notice).toMatch(/not even the declaration/)
  })
})

describe('code_navigate when parts of the answer cannot be had', () => {
  const references = { target: { path: 'src/app.toy', line: lineOf(app, 'fn greet'), matchText: 'greet' }, kind: 'references' }

  it('names a file whose outline failed instead of presenting its locations as outside any symbol', async () => {
    const result = ok(
      await run(codeNavigate, references, { failing: { operation: 'documentSymbols', pathEnd: 'other.toy', code: 'SERVER_ERROR' } }),
    )
    expect(result.totalFound).toBe(5)
    const otherFile = result.files.find((f: any) => f.path === 'src/other.toy')
    expect(otherFile.locations.every((l: any) => l.container === undefined)).toBe(true)
    expect(result.notice).toMatch(/symbol and container names are missing where the outline failed \(src\/other\.toy: SERVER_ERROR\)/)
    const healthy = ok(await run(codeNavigate, references))
    expect(healthy.notice).toBeUndefined()
  })

  it('fails the call when an outline times out or the server crashed', async () => {
    for (const code of ['TIMEOUT', 'SERVER_CRASHED'] as const) {
      const outcome = await run(codeNavigate, references, { failing: { operation: 'documentSymbols', pathEnd: 'other.toy', code } })
      expect(outcome.ok === false && outcome.error.code).toBe(code)
    }
  })

  it('says which per-file limit kept a file from being read for its snippets', async () => {
    const { lsp, workspace } = toyService(files)
    const read = workspace.readFile.bind(workspace)
    workspace.readFile = async (path, signal) => {
      if (path.endsWith('other.toy')) {
        throw new LspError('UNAVAILABLE', `${path} is over the limit`, {
          data: { path, limit: 'maxFileBytes', value: 5 * 1024 * 1024, ceiling: 4 * 1024 * 1024, raise: 'raise it' },
        })
      }
      return read(path, signal)
    }
    const result = ok(await callTool(codeNavigate, references, toolContext(lsp)))
    const otherFile = result.files.find((f: any) => f.path === 'src/other.toy')
    expect(otherFile.locations.map((l: any) => l.snippet)).toEqual(['', ''])
    expect(result.notice).toMatch(/1 file skipped: over 4 MB \(limits\.maxFileBytes\), so its snippets are empty \(src\/other\.toy\)/)
    expect(result.notice).not.toMatch(/could not be read/)
  })

  it('counts files that cannot be read and says their snippets are empty', async () => {
    const { lsp, workspace } = toyService(files)
    const read = workspace.readFile.bind(workspace)
    workspace.readFile = async (path, signal) => {
      if (path.endsWith('other.toy')) throw new LspError('NOT_FOUND', `${path} was deleted`)
      return read(path, signal)
    }
    const result = ok(await callTool(codeNavigate, references, toolContext(lsp)))
    const otherFile = result.files.find((f: any) => f.path === 'src/other.toy')
    expect(otherFile.locations.map((l: any) => l.snippet)).toEqual(['', ''])
    expect(result.notice).toMatch(/1 file could not be read, so its snippets are empty \(src\/other\.toy\)/)
  })

  it('fails the call when a file to read lies outside the workspace or the call was cancelled', async () => {
    for (const code of ['OUTSIDE_WORKSPACE', 'CANCELLED'] as const) {
      const { lsp, workspace } = toyService(files)
      const read = workspace.readFile.bind(workspace)
      workspace.readFile = async (path, signal) => {
        if (path.endsWith('other.toy')) throw new LspError(code, `${path}: ${code}`)
        return read(path, signal)
      }
      const outcome = await callTool(codeNavigate, references, toolContext(lsp))
      expect(outcome.ok === false && outcome.error.code).toBe(code)
    }
  })
})

describe('provider truncation', () => {
  it('is carried in readiness and explained in the notice', async () => {
    const result = ok(
      await run(codeNavigate, { target: { path: 'src/app.toy', symbol: 'greet' }, kind: 'references' }, { truncated: true }),
    )
    expect(result.readiness.providerTruncated).toBe(true)
    expect(result.notice).toMatch(/cut its answer short, so there may be more references than counted/)
  })
})

describe('code_symbols', () => {
  it('returns a nested outline with lines and columns, limited by depth', async () => {
    const outcome = await run(codeSymbols, { path: 'src/app.toy' })
    const result = ok(outcome)
    expect(result.outline.map((n: any) => n.name)).toEqual(['greet', 'Router', 'main'])
    const router = result.outline[1]
    expect(router).toMatchObject({
      kind: 'class',
      line: lineOf(app, 'class Router'),
      column: columnOf(app, 'Router'),
      startLine: lineOf(app, 'class Router'),
      endLine: lineOf(app, '}', 2),
    })
    expect(router.children).toEqual([expect.objectContaining({ name: 'match', kind: 'method', line: lineOf(app, 'fn match') })])
    const shallow = ok(await run(codeSymbols, { path: 'src/app.toy', depth: 1 }))
    expect(shallow.outline[1].children).toBeUndefined()
    expect(shallow.outline[1].hiddenChildren).toBe(1)
    expect(outcome.text).toContain(`class Router  ${lineOf(app, 'class Router')}:${columnOf(app, 'Router')}`)
  })

  it('pages an outline and names the container of a child whose parent is on another page', async () => {
    const first = ok(await run(codeSymbols, { path: 'src/app.toy', limit: 2 }))
    expect(first.page).toMatchObject({ total: 4, returned: 2, truncated: true })
    const { lsp } = toyService(files)
    const second = ok(await callTool(codeSymbols, { path: 'src/app.toy', limit: 2, cursor: first.page.nextCursor }, toolContext(lsp)))
    expect(second.outline[0]).toMatchObject({ name: 'match', container: 'Router' })
  })

  it('searches the workspace, exact names first, and filters by kind', async () => {
    const result = ok(await run(codeSymbols, { query: 'Router', kind: 'class' }))
    expect(result.matches.map((m: any) => `${m.path}:${m.line}`)).toEqual([
      `src/app.toy:${lineOf(app, 'class Router')}`,
      `src/other.toy:${lineOf(other, 'class Router')}`,
    ])
  })

  it('rejects an empty query with guidance', async () => {
    const empty = await run(codeSymbols, { query: '  ' })
    expect(empty.ok === false && empty.error.message).toMatch(/query is empty: give part of a symbol name/)
    const neither = await run(codeSymbols, {})
    expect(neither.ok === false && neither.error.code).toBe('INVALID_ARGUMENT')
  })
})

describe('code_hierarchy', () => {
  it('lists callers with call sites and a deduplicated, cycle-safe graph', async () => {
    const outcome = await run(codeHierarchy, { target: { path: 'src/app.toy', symbol: 'greet' }, kind: 'callers', depth: 3 })
    const result = ok(outcome)
    expect(result.direct.map((d: any) => d.name).sort()).toEqual(['helper', 'main', 'match'])
    const main = result.direct.find((d: any) => d.name === 'main')
    const call = { line: lineOf(app, 'greet("a"'), column: columnOf(app, 'greet("a"') }
    expect(main.callSites).toEqual([{ ...call, endLine: call.line, endColumn: call.column + 'greet'.length }])
    const ids = result.graph.nodes.map((n: any) => n.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toContain(`greet@src/app.toy:${lineOf(app, 'fn greet')}`)
    // main calls itself: the cycle is an edge back to a known node, not an endless walk.
    const mainId = `main@src/app.toy:${lineOf(app, 'fn main')}`
    expect(result.graph.edges).toContainEqual(expect.objectContaining({ from: mainId, to: mainId }))
    expect(result.graph.edges).toContainEqual(expect.objectContaining({ from: mainId, to: `greet@src/app.toy:${lineOf(app, 'fn greet')}` }))
    expect(result.graph.truncated).toEqual({ nodes: false, edges: false, time: false })
    expect(outcome.summary).toMatch(/^3 callers · graph \d+ nodes$/)
  })

  it('reports node budget truncation', async () => {
    const result = ok(await run(codeHierarchy, { target: { path: 'src/app.toy', symbol: 'greet' }, kind: 'callers', depth: 2, limit: 2 }))
    expect(result.graph.nodes).toHaveLength(2)
    expect(result.graph.truncated.nodes).toBe(true)
  })

  it('lists callees', async () => {
    const result = ok(await run(codeHierarchy, { target: { path: 'src/app.toy', symbol: 'Router.match' }, kind: 'callees' }))
    expect(result.direct.map((d: any) => d.name)).toEqual(['greet'])
  })

  it('fails, not empties, when the server has no type hierarchy', async () => {
    const outcome = await run(codeHierarchy, { target: { path: 'src/app.toy', symbol: 'Router' }, kind: 'supertypes' })
    expect(outcome.ok === false && outcome.error.code).toBe('UNSUPPORTED_OPERATION')
  })
})

describe('code_hover', () => {
  it('returns the signature without code fences and the docs without separators', async () => {
    const result = ok(await run(codeHover, { target: { path: 'src/app.toy', symbol: 'greet' } }))
    expect(result.signature).toBe('fn greet(name, punctuation)')
    expect(result.documentation).toBe('Greets a person.')
    expect(result.call).toBeUndefined()
  })

  it('adds signature help with the active parameter marked inside a call', async () => {
    const result = ok(await run(codeHover, { target: { path: 'src/app.toy', line: lineOf(app, 'greet("a"'), matchText: '"b"' } }))
    expect(result.call).toMatchObject({ activeParameter: 'punctuation', activeParameterIndex: 1, label: 'fn greet(name, «punctuation»)' })
  })
})

describe('code_diagnostics', () => {
  it('leaves hints and unused-code noise out by default, with counts, coverage and snippets', async () => {
    const outcome = await run(codeDiagnostics, { path: 'src/app.toy' })
    const result = ok(outcome)
    expect(result.counts).toEqual({ error: 0, warning: 1, information: 0, hint: 0 })
    expect(result.hidden).toBe(1)
    expect(result.files[0].diagnostics[0]).toMatchObject({
      line: lineOf(app, 'TODO'),
      severity: 'warning',
      snippet: '# TODO handle errors',
    })
    expect(outcome.summary).toBe('1 warning')
    const all = ok(await run(codeDiagnostics, { path: 'src/app.toy', severity: 'hint' }))
    expect(all.counts.hint).toBe(1)
    expect(all.hidden).toBe(0)
  })

  it('covers the workspace', async () => {
    const result = ok(await run(codeDiagnostics, {}))
    expect(result.scope).toBe('workspace')
    expect(result.coverage).toEqual({ analysed: 2, eligible: 2, complete: true })
  })
})

describe('code_inlay_hints, code_completions, code_status', () => {
  it('renders hints into their line', async () => {
    const result = ok(await run(codeInlayHints, { path: 'src/app.toy' }))
    expect(result.hints).toEqual([
      {
        line: lineOf(app, 'let count'),
        column: columnOf(app, 'let count') + 'let count'.length,
        kind: 'type',
        label: ': number',
        rendered: 'let count⟨: number⟩ = 3',
      },
    ])
  })

  it('lists completions filtered by prefix', async () => {
    const result = ok(
      await run(codeCompletions, { target: { path: 'src/app.toy', line: lineOf(app, 'let count'), matchText: 'let ' }, prefix: 'gr' }),
    )
    expect(result.items.map((i: any) => i.label)).toEqual(['greet'])
    expect(result.target.column).toBe(columnOf(app, 'let count') + 'let '.length)
  })

  it('reports per-server state, operations, uptime and memory', async () => {
    const outcome = await run(codeStatus, {})
    const result = ok(outcome)
    expect(result.servers).toEqual([
      expect.objectContaining({
        provider: 'toy',
        rootId: 'toy',
        state: 'ready',
        uptimeSeconds: 1,
        memoryMb: 1,
        memoryCeilingMb: 4096,
        extensions: ['.toy'],
      }),
    ])
    expect(result.servers[0].memorySampledSecondsAgo).toBeGreaterThanOrEqual(2)
    // The total against the only limit there is: the per-server ceiling (no budget for the total).
    expect(result.memory).toMatchObject({ residentMb: 1, servers: 1, sessionServers: 1, perServerCeilingMb: 4096 })
    expect(result.memory.sampledSecondsAgo).toBeGreaterThanOrEqual(2)
    expect(outcome.ok && outcome.text).toMatch(/toy @ toy: ready \(up 1s, 1 MB sampled \ds ago\)/)
    expect(outcome.ok && outcome.text).toMatch(
      /memory: 1 MB resident across 1 running server, sampled up to \ds ago; each server is restarted above its 4096 MB per-server ceiling; no budget limits the total/,
    )
    expect(outcome.summary).toBe('1/1 server ready')
  })
})

describe('cancellation, progress and page budgets', () => {
  it('a call whose signal is already aborted is CANCELLED, not empty', async () => {
    const { lsp } = toyService(files)
    const controller = new AbortController()
    controller.abort()
    const outcome = await callTool(
      codeNavigate,
      { target: { path: 'src/app.toy', symbol: 'greet' }, kind: 'references' },
      toolContext(lsp, { signal: controller.signal }),
    )
    expect(outcome.ok === false && outcome.error.code).toBe('CANCELLED')
  })

  it('reports hierarchy progress per level', async () => {
    const { lsp } = toyService(files)
    const progress: string[] = []
    await callTool(
      codeHierarchy,
      { target: { path: 'src/app.toy', symbol: 'greet' }, kind: 'callers', depth: 2 },
      toolContext(lsp, { onProgress: (p) => progress.push(p.message) }),
    )
    expect(progress).toEqual([expect.stringMatching(/^callers: level 1 of 2/), expect.stringMatching(/^callers: level 2 of 2/)])
  })

  it('drops context windows on a page too large for them, and says so', async () => {
    const many = Array.from({ length: 400 }, (_, i) => `  greet("${i}", "x")`).join('\n')
    const { lsp } = toyService({ 'src/app.toy': app, 'src/many.toy': `fn caller() {\n${many}\n}\n` })
    const result = ok(
      await callTool(
        codeNavigate,
        { target: { path: 'src/app.toy', symbol: 'greet' }, kind: 'references', context: 3, limit: 200 },
        toolContext(lsp),
      ),
    )
    expect(result.page.returned).toBe(200)
    expect(result.files.flatMap((f: any) => f.locations).every((l: any) => !l.snippet.includes('\n'))).toBe(true)
    expect(result.notice).toMatch(/context windows were left out/)
  })

  it('cuts the rendered text at the character budget with a marker', async () => {
    const many = Array.from({ length: 400 }, (_, i) => `  greet("${i}", "x")`).join('\n')
    const { lsp } = toyService({ 'src/app.toy': app, 'src/many.toy': `fn caller() {\n${many}\n}\n` })
    const outcome = await callTool(
      codeNavigate,
      { target: { path: 'src/app.toy', symbol: 'greet' }, kind: 'references', limit: 500 },
      toolContext(lsp),
      { maxChars: 2000 },
    )
    expect(outcome.ok).toBe(true)
    expect(outcome.text.length).toBeLessThanOrEqual(2000)
    expect(outcome.textTruncated).toBe(true)
    expect(outcome.text).toMatch(/\[output truncated: showing \d+ of \d+ characters/)
    expect(outcome.ok && (outcome.structured.page as { returned: number }).returned).toBe(403)
  })
})
