import type { LspResultMeta, ResolvedTarget } from '@codeseam/lsp'
import { describe, expect, it } from 'vitest'

import { noticeFor, nothingAt } from '../src/targeting.js'

// Readiness advice ("had just started … ask again") only where asking again can change the answer (issue 44).

const cold: LspResultMeta = { providerId: 'toy', status: 'ready', warm: false, truncated: false, elapsedMs: 1 }
const text = ['function greet(name) {', '  print(name)   ', '', '}'].join('\n')
const lines = { lineText: (line: number) => text.split('\n')[line] ?? '' } as unknown as ResolvedTarget['lines']
const at = (line: number, character: number) => ({ position: { line, character }, lines })

describe('readiness advice', () => {
  it('a position the text shows holds nothing: a blank line, whitespace touching no token, past the end of a line', () => {
    expect(nothingAt(at(2, 0))).toBe('line 3 is blank')
    expect(nothingAt(at(1, 0))).toBe('line 2, column 1 is whitespace, touching no token')
    expect(nothingAt(at(1, 16))).toBe('line 2, column 17 is past the end of the line, touching no token')
    // A token touches it, on either side: the server may know it (an operator, a string, a doc link too).
    expect(nothingAt(at(1, 2))).toBeUndefined()
    expect(nothingAt(at(1, 13))).toBeUndefined()
    expect(nothingAt(at(0, 14))).toBeUndefined()
  })

  it('an empty answer on a blank line from a cold server: what was checked, no advice to ask again', () => {
    const notice = noticeFor(cold, true, 'references', 'app', at(2, 0))
    expect(notice).toContain("there is no identifier at the target: line 3 is blank (checked in the file's text)")
    expect(notice).toContain('asking again will not change that')
    expect(notice).not.toMatch(/had just started|still indexing/)
    expect(noticeFor({ ...cold, status: 'indexing' }, true, 'references', 'app', at(2, 0))).not.toMatch(/still indexing/)
  })

  it('an empty answer at an identifier from a cold server keeps the advice; a warm one needs none', () => {
    expect(noticeFor(cold, true, 'references', 'app', at(1, 2))).toMatch(/had just started/)
    expect(noticeFor({ ...cold, warm: true }, true, 'references', 'app', at(1, 2))).toBeUndefined()
  })
})
