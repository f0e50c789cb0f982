import { LspError } from '@codeseam/lsp'
import { describe, expect, it } from 'vitest'

import { clampLimit, decodeCursor, encodeCursor, mapBounded, paginate, queryFingerprint } from '../src/budget.js'
import { splitHover } from '../src/hover.js'
import { renderPage } from '../src/render.js'

const items = Array.from({ length: 23 }, (_, i) => i)

describe('paginate', () => {
  it('walks a list page by page to the end, each item once', () => {
    const fingerprint = queryFingerprint(['q', 1])
    const seen: number[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const { items: page, page: info } = paginate(items, { limit: 10, cursor, fingerprint })
      seen.push(...page)
      expect(info.total).toBe(23)
      expect(info.returned).toBe(page.length)
      expect(info.truncated).toBe(info.nextCursor !== undefined)
      cursor = info.nextCursor
      pages++
    } while (cursor !== undefined)
    expect(seen).toEqual(items)
    expect(pages).toBe(3)
  })

  it('reports a short list as complete, without a cursor or offset', () => {
    expect(paginate([1, 2], { limit: 10, fingerprint: 'f' }).page).toEqual({ returned: 2, total: 2, limit: 10, truncated: false })
    expect(paginate([], { limit: 10, fingerprint: 'f' }).page).toEqual({ returned: 0, total: 0, limit: 10, truncated: false })
  })

  it('refuses a cursor of another query, a forged one, and one past a shrunken list', () => {
    const cursor = encodeCursor(10, queryFingerprint(['a']))
    expect(() => decodeCursor(cursor, queryFingerprint(['b']))).toThrow(/different query/)
    expect(() => decodeCursor('not-a-cursor', 'f')).toThrow(LspError)
    expect(() => decodeCursor(Buffer.from(JSON.stringify({ v: 1, o: -3, f: 'f' })).toString('base64url'), 'f')).toThrow(/not a cursor/)
    expect(() => paginate([1, 2, 3], { limit: 2, cursor: encodeCursor(10, 'f'), fingerprint: 'f' })).toThrow(/past the end/)
  })

  it('fingerprints depend on every part', () => {
    expect(queryFingerprint(['a', 1])).toBe(queryFingerprint(['a', 1]))
    expect(queryFingerprint(['a', 1])).not.toBe(queryFingerprint(['a', 2]))
  })
})

describe('clampLimit', () => {
  it('defaults, caps at the maximum and never goes below one', () => {
    const bounds = { defaultLimit: 100, maxLimit: 500 }
    expect(clampLimit(undefined, bounds)).toBe(100)
    expect(clampLimit(10_000, bounds)).toBe(500)
    expect(clampLimit(0, bounds)).toBe(1)
    expect(clampLimit(42, bounds)).toBe(42)
  })
})

describe('mapBounded', () => {
  it('keeps order and never runs more than the bound at once', async () => {
    let running = 0
    let peak = 0
    const gates: Array<() => void> = []
    const pending = mapBounded(items, 3, async (item) => {
      running++
      peak = Math.max(peak, running)
      await new Promise<void>((resolve) => gates.push(resolve))
      running--
      return item * 2
    })
    // Release work one promise at a time as it queues; the bound holds throughout.
    while (gates.length > 0 || running > 0) {
      const gate = gates.shift()
      if (gate === undefined) await Promise.resolve()
      else gate()
      await Promise.resolve()
    }
    expect(await pending).toEqual(items.map((i) => i * 2))
    expect(peak).toBe(3)
  })

  it('stops starting work once cancelled', async () => {
    const controller = new AbortController()
    const started: number[] = []
    const run = mapBounded(
      items,
      1,
      async (item) => {
        started.push(item)
        if (item === 2) controller.abort()
        return item
      },
      controller.signal,
    )
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' })
    expect(started).toEqual([0, 1, 2])
  })
})

describe('rendering', () => {
  it('says which slice of how many is shown and how to get more', () => {
    expect(renderPage({ returned: 10, total: 23, limit: 10, truncated: true, nextCursor: 'abc' }, 'references')).toBe(
      'showing references 1–10 of 23 (more: call again with cursor "abc")',
    )
    expect(renderPage({ returned: 3, total: 23, limit: 10, offset: 20, truncated: false }, 'references')).toBe(
      'showing references 21–23 of 23 (last page)',
    )
    expect(renderPage({ returned: 3, total: 3, limit: 10, truncated: false }, 'references')).toBeUndefined()
  })

  it('strips code fences, separators and markdown escapes from hovers', () => {
    expect(
      splitHover('```typescript\nfunction f(a: number): void\n```\n---\nDoes \\*things\\*.\n\n---\n@param a the input', 'markdown'),
    ).toEqual({
      code: 'function f(a: number): void',
      prose: 'Does *things*.\n\n@param a the input',
    })
    expect(splitHover('plain text', 'plaintext')).toEqual({ code: '', prose: 'plain text' })
  })

  // Issue 32: a JSDoc @example block went where the signature goes, and pyright's &nbsp; indents were printed.
  it('keeps a code block inside the documentation there, fenced and untouched, and decodes HTML entities', () => {
    const hover = [
      '```typescript',
      'function route(path: string): Router',
      '```',
      '---',
      'Adds a route.',
      '',
      '@example',
      '```ts',
      "app.route('/a\\.b')",
      '---',
      '```',
      '',
      'Returns&nbsp;the&nbsp;router &amp; more &#x41;.',
    ].join('\n')
    expect(splitHover(hover, 'markdown')).toEqual({
      code: 'function route(path: string): Router',
      prose: "Adds a route.\n\n@example\n```ts\napp.route('/a\\.b')\n---\n```\n\nReturns the router & more A.",
    })
    expect(splitHover('Args:\n&nbsp;&nbsp;&nbsp;&nbsp;name: the name', 'markdown').prose).toBe('Args:\n    name: the name')
  })
})
