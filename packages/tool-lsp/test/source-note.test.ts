import type { LspResultMeta } from '@codeseam/lsp'
import { describe, expect, it } from 'vitest'

import { noticeFor } from '../src/targeting.js'

// The line a notice gets from `meta.source` (RFC 0034): an answer from a precomputed index, merged with the live
// server's, or the live server's because the index holds the file stale; nothing for a plain live answer.

const warm: LspResultMeta = { providerId: 'local:typescript', status: 'ready', warm: true, truncated: false, elapsedMs: 1 }
const index = {
  indexedAt: '2026-12-06T20:00:00.000Z',
  indexer: { name: 'scip-typescript', version: '0.4.0' },
  compiler: 'typescript 5.9.3',
}

describe('source notes', () => {
  it('says the index, with when and by what it was built', () => {
    expect(noticeFor({ ...warm, source: { origin: 'index', index } }, false, 'references')).toBe(
      'answered from the index built 2026-12-06 20:00 UTC by scip-typescript 0.4.0 (typescript 5.9.3), not by the live server.',
    )
  })

  it('names the stale files a merged answer took from the live server', () => {
    const source = {
      origin: 'both',
      index,
      staleFiles: ['/w/src/a.ts', '/w/src/b.ts', '/w/src/c.ts', '/w/src/d.ts'],
      staleCount: 5,
    } as const
    expect(noticeFor({ ...warm, source }, false, 'references')).toBe(
      "answered from the index built 2026-12-06 20:00 UTC by scip-typescript 0.4.0 (typescript 5.9.3), merged with the live server's answer for 5 files changed, added or deleted since (src/a.ts, src/b.ts, src/c.ts and 2 more).",
    )
  })

  it('says how many files under the root no indexed project holds, which an answer from the index did not search', () => {
    expect(noticeFor({ ...warm, source: { origin: 'index', index, notIndexed: 143 } }, false, 'references')).toBe(
      'answered from the index built 2026-12-06 20:00 UTC by scip-typescript 0.4.0 (typescript 5.9.3), not by the live server; 143 files under the root that no indexed project holds were not searched (codeseam started with --no-index would search them).',
    )
  })

  it('says why the live server answered a file the index holds stale, and nothing for a plain live answer', () => {
    expect(noticeFor({ ...warm, source: { origin: 'live', index, staleFiles: ['/w/src/a.ts'] } }, false, 'definitions')).toBe(
      'answered by the live server, not the index built 2026-12-06 20:00 UTC by scip-typescript 0.4.0 (typescript 5.9.3): src/a.ts changed since it was built.',
    )
    expect(noticeFor({ ...warm, source: { origin: 'live' } }, false, 'references')).toBeUndefined()
  })
})
