// Progress while projects load (issue 50 item 3, RFC 0032): a workspace-wide question to the native TypeScript server
// on a workspace of many projects announces the load as it runs — the projects found once planned, the projects and
// files loaded so far — before the answer, and the status says nothing of a load once it ended.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, type LspProviderStatus } from '@codeseam/lsp'
import { afterAll, expect, test } from 'vitest'

import { createLocalHost } from '../src/index.js'
import { LeakCheck, positionOf } from './helpers.js'

const packages = 12
const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-loading-')))
const write = (path: string, text: string) => {
  mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true })
  writeFileSync(nodePath.join(root, path), text)
}
// A shared package and twelve that use it, each its own project (a tsconfig.json of its own, no references).
write('shared/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, composite: true }, include: ['src'] }))
write('shared/src/units.ts', 'export function toMetres(feet: number): number {\n  return feet * 0.3048\n}\n')
for (let i = 0; i < packages; i++) {
  write(`pkg${i}/tsconfig.json`, JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }))
  write(`pkg${i}/src/index.ts`, `import { toMetres } from '../../shared/src/units'\n\nexport const height${i} = toMetres(${i})\n`)
}

const leaks = new LeakCheck()
afterAll(async () => {
  rmSync(root, { recursive: true, force: true })
  expect(await leaks.survivors(), 'server processes still alive after dispose').toEqual([])
})

test(
  'a workspace-wide question announces the project load as it runs, then the status has the projects loaded',
  { timeout: 120_000 },
  async () => {
    const host = await createLocalHost()
    const lsp = createLsp()
    try {
      await host.attach(lsp, [{ root }])
      const seen: Array<{ loading: NonNullable<LspProviderStatus['loading']>; beforeAnswer: boolean }> = []
      let answered = false
      const unsubscribe = lsp.onStatusChange((status) => {
        if (status.loading !== undefined) seen.push({ loading: status.loading, beforeAnswer: !answered })
      })
      const position = positionOf(root, 'shared/src/units.ts', 'toMetres')
      const references = await lsp.query({ operation: 'references', root, path: 'shared/src/units.ts', position })
      answered = true
      unsubscribe()
      // The load was complete: every package's use was found.
      expect(new Set(references.locations.map((l) => nodePath.relative(root, l.path))).size).toBe(packages + 1)
      const found = packages + 1
      // Announced before the answer: once planned (every project found, none loaded yet), and as it grew.
      expect(seen.length).toBeGreaterThan(0)
      expect(seen.every((s) => s.beforeAnswer)).toBe(true)
      expect(seen[0]?.loading).toEqual({ projectsLoaded: 0, projectsFound: found, filesOpened: 0 })
      const loaded = seen.map((s) => s.loading.projectsLoaded ?? 0)
      expect(loaded).toEqual([...loaded].sort((a, b) => a - b))
      expect(seen.every((s) => (s.loading.projectsLoaded ?? 0) <= found)).toBe(true)
      // Once it ended, the status has the projects and no load in flight.
      const status = lsp.status().find((s) => s.providerId === 'local:typescript' && s.root === root)
      expect(status?.projects).toEqual({ loaded: found, found })
      expect(status?.loading).toBeUndefined()
    } finally {
      await leaks.record()
      await lsp.dispose()
      await host.dispose()
    }
  },
)
