import { createLsp, LspError } from '@codeseam/lsp'
import { describe, expect, it } from 'vitest'

import { callTool, decodeToolInput, defineTool, selectTools, toolContext } from '../src/index.js'
import { fitToBudget, plainJson } from '../src/envelope.js'
import { codeStatus } from '../src/status.js'
import { sampleTool } from './support/sample-tool.js'

function decodeError(args: unknown): LspError {
  try {
    decodeToolInput(sampleTool, args)
  } catch (error) {
    if (error instanceof LspError) return error
    throw error
  }
  throw new Error('expected decoding to fail')
}

describe('decodeToolInput', () => {
  it('decodes valid arguments and treats null as absent (OpenAI strict mode sends null)', () => {
    const input = decodeToolInput(sampleTool, { target: { path: 'a.ts', symbol: 'x', line: null }, mode: 'one', depth: null })
    expect(input.target.path).toBe('a.ts')
    expect(input.target.line).toBeUndefined()
    expect(input.depth).toBeUndefined()
  })

  it('names every bad field, what was expected and what came', () => {
    const error = decodeError({ target: { path: 3, line: 0 }, mode: 'three', depth: 9 })
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.message).toContain('sample_echo')
    expect(error.message).toMatch(/target\.path: expected string, got 3/)
    expect(error.message).toMatch(/target\.line: expected .*greater than or equal to 1, got 0/)
    expect(error.message).toMatch(/mode: expected "one" \| "two", got "three"/)
    expect(error.message).toMatch(/depth: expected a value between 1 and 4, got 9/)
    const paths = (error.data.issues as Array<{ path: string }>).map((i) => i.path).sort()
    expect(paths).toEqual(['depth', 'mode', 'target.line', 'target.path'])
  })

  it('says a missing field is required and an unknown one is not a parameter, listing the real ones', () => {
    const error = decodeError({ mode: 'one', targte: {} })
    expect(error.message).toContain('target is required')
    expect(error.message).toMatch(/targte is not a parameter \(sample_echo takes: target, mode, depth, limit, name, firstMatch\)/)
  })

  it('rejects non-integers and non-objects', () => {
    expect(decodeError({ target: { path: 'a', line: 1.5 }, mode: 'one' }).message).toMatch(/target\.line: expected an integer, got 1.5/)
    expect(decodeError('a string').message).toMatch(/arguments must be a JSON object, got "a string"/)
  })
})

describe('defineTool', () => {
  it('refuses anything but an object, and any property for a tool that takes none', () => {
    const noArgs = { name: 'code_status', input: codeStatus.input }
    for (const args of [[1], true, 5, 'x']) {
      expect(() => decodeToolInput(noArgs, args)).toThrow(/must be a JSON object/)
    }
    expect(() => decodeToolInput(noArgs, { verbose: true })).toThrow(/verbose is not a parameter \(code_status takes none\)/)
    expect(decodeToolInput(noArgs, {})).toEqual({})
    expect(decodeToolInput(noArgs, undefined)).toEqual({})
  })

  it('refuses names harnesses cannot carry and contradictory hints', () => {
    expect(() => defineTool({ ...sampleTool, name: 'Bad Name' })).toThrow(/must match/)
    expect(() => defineTool({ ...sampleTool, hints: { ...sampleTool.hints, destructive: true } })).toThrow(/readOnly and destructive/)
    expect(() => defineTool({ ...sampleTool, description: ' ' })).toThrow(/description/)
  })
})

describe('selectTools', () => {
  const other = defineTool({ ...sampleTool, name: 'sample_other' })
  const third = defineTool({ ...sampleTool, name: 'sample_third' })
  const all = [sampleTool, other, third]

  it('enables and disables by name, keeping order', () => {
    expect(selectTools(all).map((t) => t.name)).toEqual(['sample_echo', 'sample_other', 'sample_third'])
    expect(selectTools(all, { enable: ['sample_third', 'sample_echo'] }).map((t) => t.name)).toEqual(['sample_echo', 'sample_third'])
    expect(selectTools(all, { disable: ['sample_other'] }).map((t) => t.name)).toEqual(['sample_echo', 'sample_third'])
  })

  it('fails on an unknown name instead of silently ignoring a typo', () => {
    expect(() => selectTools(all, { disable: ['sample_ohter'] })).toThrow(/no tool is named "sample_ohter"/)
  })
})

describe('fitToBudget', () => {
  it('leaves short text alone', () => {
    expect(fitToBudget('abc\n', 10)).toEqual({ text: 'abc\n', truncated: false })
  })

  it('cuts at a line boundary, stays within budget and says so', () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n')
    const { text: out, truncated } = fitToBudget(text, 1000)
    expect(truncated).toBe(true)
    expect(out.length).toBeLessThanOrEqual(1000)
    expect(out).toMatch(/\[output truncated: showing \d+ of \d+ characters/)
    const body = out.slice(0, out.indexOf('\n[output truncated'))
    expect(text.startsWith(body)).toBe(true)
    expect(body.endsWith('line')).toBe(false)
  })

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(400)
    const { text: out } = fitToBudget(text, 301)
    const body = out.slice(0, out.indexOf('\n[output truncated'))
    expect(body.length % 2).toBe(0)
  })
})

describe('plainJson', () => {
  it('gives what a JSON round trip gives: undefined fields dropped, non-finite numbers and holes null, toJSON used', () => {
    const values: unknown[] = [
      { a: 1, b: undefined, c: 'x', d: [1, undefined, null, Number.NaN, () => 1], e: { f: Infinity, g: { h: true } } },
      { when: new Date(0), nested: [{ deep: [[], {}] }], sparse: [1, , 3], fn: () => 1, symbol: Symbol('s') }, // eslint-disable-line no-sparse-arrays
      { outline: [{ name: 'A', kind: 'class', line: 1, children: [{ name: 'b', detail: undefined, column: 3 }] }] },
    ]
    for (const value of values) expect(plainJson(value)).toEqual(JSON.parse(JSON.stringify(value)))
    // toEqual treats undefined fields as absent: the keys themselves must be gone.
    expect(Object.keys(plainJson({ a: 1, b: undefined }))).toEqual(['a'])
    const outline = plainJson({ outline: [{ detail: undefined }] }).outline as Array<Record<string, unknown>>
    expect(Object.keys(outline[0]!)).toEqual([])
  })
})

describe('callTool', () => {
  it('returns structured JSON, budgeted text and a summary', async () => {
    const lsp = createLsp()
    const outcome = await callTool(sampleTool, { target: { path: 'a.ts' }, mode: 'two', depth: 3 }, toolContext(lsp), { maxChars: 500 })
    expect(outcome.ok).toBe(true)
    if (!outcome.ok) return
    expect(outcome.summary).toBe('two at depth 3')
    expect(outcome.structured.mode).toBe('two')
    expect(outcome.textTruncated).toBe(true)
    expect(outcome.text.length).toBeLessThanOrEqual(500)
  })

  it('turns invalid arguments into a failure the model can read', async () => {
    const outcome = await callTool(sampleTool, { mode: 1 }, toolContext(createLsp()))
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error.code).toBe('INVALID_ARGUMENT')
    expect(outcome.text).toContain('target is required')
  })

  it('reports a cancelled call as CANCELLED', async () => {
    const controller = new AbortController()
    const slow = defineTool({
      ...sampleTool,
      name: 'sample_slow',
      execute: (_input, context) =>
        new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })),
    })
    const pending = callTool(slow, { target: { path: 'a' }, mode: 'one' }, toolContext(createLsp(), { signal: controller.signal }))
    controller.abort()
    const outcome = await pending
    expect(outcome.ok === false && outcome.error.code).toBe('CANCELLED')
  })

  it('refuses an unknown root in the context', () => {
    expect(() => toolContext(createLsp(), { roots: ['nope'] })).toThrow(/no open workspace is "nope"/)
  })
})

describe('toolContext roots', () => {
  it('follows workspaces opened later unless roots were fixed, and refuses roots outside the fixed list', async () => {
    const { createMemoryWorkspace } = await import('@codeseam/lsp/testing')
    const lsp = createLsp()
    const context = toolContext(lsp)
    expect(context.roots).toEqual([])
    lsp.registerWorkspace(createMemoryWorkspace({ id: 'a', root: '/virtual/a', files: { 'x.toy': '' } }))
    lsp.registerWorkspace(createMemoryWorkspace({ id: 'b', root: '/virtual/b', files: { 'y.toy': '' } }))
    expect(context.roots.map((r) => r.id)).toEqual(['a', 'b'])
    const onlyA = toolContext(lsp, { roots: ['a'] })
    expect(onlyA.roots).toEqual([{ id: 'a', root: '/virtual/a' }])
    const { resolveToolFile } = await import('../src/targeting.js')
    await expect(resolveToolFile(onlyA, 'y.toy')).rejects.toMatchObject({ code: 'OUTSIDE_WORKSPACE' })
    await expect(resolveToolFile(onlyA, 'x.toy')).resolves.toMatchObject({ displayPath: 'x.toy' })
  })
})
