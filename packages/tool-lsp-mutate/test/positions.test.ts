import { describe, expect, it } from 'vitest'

import { diagnosticDelta, positionMap, type FileDiagnosticsSnapshot } from '../src/diagnostics.js'

/** Diagnostics before and after an edit are matched with their positions mapped through the edit (RFC 0018). */

const before = 'const a = 1\nconst b = a\nconst c = b\n'
const edits = [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '// header\n// more\n' }]
const after = `// header\n// more\n${before}`

function at(line: number, character: number, message: string, path = '/r/a.ts'): FileDiagnosticsSnapshot {
  return {
    path,
    freshness: 'current',
    diagnostics: [{ range: { start: { line, character }, end: { line, character: character + 1 } }, severity: 'error', message }],
  }
}

describe('positionMap', () => {
  it('moves a position below an insertion by the inserted lines, and one inside a replaced span to its start', () => {
    const map = positionMap(before, after, edits)
    expect(map({ line: 1, character: 6 })).toEqual({ line: 3, character: 6 })
    const replaced = positionMap('abc def ghi', 'abc XY ghi', [
      { range: { start: { line: 0, character: 4 }, end: { line: 0, character: 7 } }, newText: 'XY' },
    ])
    expect(replaced({ line: 0, character: 5 })).toEqual({ line: 0, character: 4 })
    expect(replaced({ line: 0, character: 8 })).toEqual({ line: 0, character: 7 })
  })
})

describe('diagnosticDelta', () => {
  it('a diagnostic that only moved with the edit persists; the same message at another place is introduced', () => {
    const map = positionMap(before, after, edits)
    const maps = new Map([['/r/a.ts', map]])
    const moved = diagnosticDelta('/r', new Map([['/r/a.ts', at(1, 6, 'x')]]), new Map([['/r/a.ts', at(3, 6, 'x')]]), new Map(), maps)
    expect(moved.persisting).toHaveLength(1)
    expect(moved.introduced).toHaveLength(0)
    const elsewhere = diagnosticDelta('/r', new Map([['/r/a.ts', at(1, 6, 'x')]]), new Map([['/r/a.ts', at(4, 0, 'x')]]), new Map(), maps)
    expect(elsewhere.introduced.map((d) => d.line)).toEqual([5])
    expect(elsewhere.resolved.map((d) => d.line)).toEqual([2])
  })

  it('in a file the edit did not touch, positions are compared as they are', () => {
    const same = diagnosticDelta('/r', new Map([['/r/b.ts', at(2, 1, 'y', '/r/b.ts')]]), new Map([['/r/b.ts', at(2, 1, 'y', '/r/b.ts')]]))
    expect(same.persisting).toHaveLength(1)
    const other = diagnosticDelta('/r', new Map([['/r/b.ts', at(2, 1, 'y', '/r/b.ts')]]), new Map([['/r/b.ts', at(3, 1, 'y', '/r/b.ts')]]))
    expect(other.introduced).toHaveLength(1)
  })
})
