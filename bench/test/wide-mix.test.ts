import { describe, expect, it } from 'vitest'

import { agreesWithFloor, floorNormal, fullAnswer, hoverSignatureLine, seamNormal, toolNormal, wideMixQueries } from '../src/wide-mix.js'

const root = '/w'
const range = (line: number, character: number) => ({ start: { line, character }, end: { line, character: character + 3 } })

describe('the wider mix normal forms', () => {
  it('brings locations from every layer to path:line:column, dropping places outside the root', () => {
    const floor = floorNormal(root, 'definition', [
      { targetUri: 'file:///w/a.ts', targetRange: range(0, 0), targetSelectionRange: range(4, 2) },
      { uri: 'file:///elsewhere/lib.d.ts', range: range(1, 1) },
    ])
    const seam = seamNormal(root, 'definition', {
      kind: 'locations',
      locations: [{ path: '/w/a.ts', range: range(0, 0), targetSelectionRange: range(4, 2) }],
    })
    const tool = toolNormal('definition', { files: [{ path: 'a.ts', locations: [{ line: 5, column: 3 }] }], totalFound: 1 })
    expect(floor).toEqual(fullAnswer(['a.ts:5:3']))
    expect(seam).toEqual(floor)
    expect(tool).toEqual(floor)
  })

  it('takes the first line of the hover code blocks, whatever shape the hover has', () => {
    expect(hoverSignatureLine('```python\nclass Flask(\n  x\n)\n```\n---\nThe app.')).toBe('class Flask(')
    expect(floorNormal(root, 'hover', { contents: { kind: 'markdown', value: '```ts\ninterface  Range\n```\ndocs' } }).keys).toEqual([
      'interface Range',
    ])
    expect(toolNormal('hover', { signature: 'interface Range', documentation: 'docs' }).keys).toEqual(['interface Range'])
    expect(floorNormal(root, 'hover', null)).toEqual(fullAnswer([]))
  })

  it('keeps the outline to two levels and diagnostics to what the tools show by default', () => {
    const outline = [{ name: 'A', children: [{ name: 'm', children: [{ name: 'deep' }] }] }, { name: 'f' }]
    expect(floorNormal(root, 'documentSymbols', outline).keys).toEqual(['0:A', '0:f', '1:m'])
    const diagnostics = [
      { range: range(2, 4), severity: 1, code: 2322 },
      { range: range(3, 0), severity: 4, code: 6133 },
      { range: range(5, 0), severity: 2, tags: [1] },
    ]
    expect(floorNormal(root, 'diagnostics', diagnostics).keys).toEqual(['3:5:error:2322'])
    const tool = toolNormal('diagnostics', {
      files: [{ diagnostics: [{ line: 3, column: 5, severity: 'error', code: '2322' }] }],
      page: { total: 1, truncated: false },
    })
    expect(tool).toEqual(floorNormal(root, 'diagnostics', diagnostics))
  })

  it('names a module-level caller by its relative path on every side', () => {
    const from = { name: '/w/src/test.ts', uri: 'file:///w/src/test.ts', selectionRange: range(0, 0) }
    const floor = floorNormal(root, 'callHierarchy', { items: [], calls: [{ from }] })
    const seam = seamNormal(root, 'callHierarchy', {
      kind: 'hierarchyCalls',
      calls: [{ item: { name: 'src/test.ts', path: '/w/src/test.ts', selectionRange: range(0, 0) } }],
    })
    expect(floor.keys).toEqual(['src/test.ts@src/test.ts:1'])
    expect(seam).toEqual(floor)
  })

  it('lets a workspace search find more than the floor, never less; other answers must be the same', () => {
    const floor = fullAnswer(['a:1:1', 'b:2:2'])
    expect(agreesWithFloor('references', floor, fullAnswer(['a:1:1', 'b:2:2', 'c:3:3']))).toBe(true)
    expect(agreesWithFloor('references', floor, fullAnswer(['a:1:1', 'c:3:3']))).toBe(false)
    expect(agreesWithFloor('references', floor, { count: 2, keys: ['a:1:1'], partial: true })).toBe(true)
    expect(agreesWithFloor('references', floor, { count: 2, keys: ['z:1:1'], partial: true })).toBe(false)
    expect(agreesWithFloor('definition', floor, fullAnswer(['a:1:1', 'b:2:2', 'c:3:3']))).toBe(false)
    expect(agreesWithFloor('documentSymbols', floor, { count: 2, keys: ['b:2:2'], partial: true })).toBe(true)
  })

  it('finds every query position by text', () => {
    const text = 'x\n    return current_app.url_for(\nclass Blueprint(\nclass Flask(\ndef url_for(\ndef get_debug_flag(\n'
    const queries = wideMixQueries('flask', () => text)
    expect(queries.map((q) => q.operation)).toEqual([
      'definition',
      'references',
      'hover',
      'documentSymbols',
      'callHierarchy',
      'diagnostics',
    ])
    expect(queries[0]).toMatchObject({ line: 2, matchText: 'url_for', position: { line: 1, character: 23 } })
    expect(queries[4]).toMatchObject({ matchText: 'get_debug_flag' })
  })
})
