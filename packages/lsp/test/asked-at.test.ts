import { expect, test } from 'vitest'

import { createLsp, isLspError, resultMeta, type LspQueryResult } from '../src/index.js'
import { createMemoryWorkspace } from '../src/testing/index.js'
import { staticProvider } from './providers.js'

// RFC 0036: a caller says when its question was asked (`askedAt`, this process's performance.now()); the provider
// receives it on every route (a file's provider, a fan-out), never later than the seam received the request, and an
// askedAt that is not a finite number is refused before any provider is asked.

const root = '/asked-at/repo'

function service() {
  const seen: Array<number | undefined> = []
  const answer = (request: { operation: string; askedAt?: number }): LspQueryResult => {
    seen.push(request.askedAt)
    return request.operation === 'workspaceSymbols'
      ? { kind: 'workspaceSymbols', symbols: [], meta: resultMeta('p') }
      : { kind: 'locations', locations: [], meta: resultMeta('p') }
  }
  const lsp = createLsp()
  lsp.registerProvider(staticProvider('p', { '.ts': 'typescript' }, { answer: answer as never }))
  lsp.registerWorkspace(createMemoryWorkspace({ id: 'repo', root, files: { 'a.ts': 'export const a = 1\n' } }))
  return { lsp, seen }
}

test('the provider receives the moment the question was asked, on a file’s route and a fan-out; a future one is now', async () => {
  const { lsp, seen } = service()
  const position = { line: 0, character: 13 }
  const asked = performance.now() - 50
  await lsp.query({ operation: 'references', root, path: 'a.ts', position, askedAt: asked })
  await lsp.query({ operation: 'workspaceSymbols', root, query: 'a', askedAt: asked })
  await lsp.query({ operation: 'references', root, path: 'a.ts', position })
  const before = performance.now()
  await lsp.query({ operation: 'references', root, path: 'a.ts', position, askedAt: before + 60_000 })
  const after = performance.now()
  expect(seen.slice(0, 3)).toEqual([asked, asked, undefined])
  expect(seen[3]).toBeGreaterThanOrEqual(before)
  expect(seen[3]).toBeLessThanOrEqual(after)
})

test('an askedAt that is not a finite number is refused before any provider is asked', async () => {
  const { lsp, seen } = service()
  for (const askedAt of [Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
    const refused = await lsp.query({ operation: 'references', root, path: 'a.ts', position: { line: 0, character: 13 }, askedAt }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(isLspError(refused, 'INVALID_ARGUMENT'), String(askedAt)).toBe(true)
  }
  expect(seen).toEqual([])
})
