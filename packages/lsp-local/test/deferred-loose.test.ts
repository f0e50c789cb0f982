// Files of no project on demand (RFC 0035, amended; issue 51): the background load that follows a question's needed
// projects opens every project but leaves the source files no tsconfig.json holds (configs, scripts: one inferred
// project with all they import, hundreds of MB on this repository). Each later question opens those that can reach
// what it asks about, a question with no file (workspace symbols) opens every one, and a file edited to reach the
// target since is opened for it. The server's didOpens are counted on the wire.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, type LspLocation } from '@codeseam/lsp'
import { afterAll, expect, test } from 'vitest'

import { createLocalHost } from '../src/index.js'
import { positionOf } from './helpers.js'
import { everythingLoaded, wireOpens } from './support/wire-opens.js'

const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-deferred-loose-')))
const at = (path: string) => nodePath.join(root, path)
const write = (path: string, text: string) => {
  mkdirSync(nodePath.dirname(at(path)), { recursive: true })
  writeFileSync(at(path), text)
}
const project = (dir: string) => write(`${dir}/tsconfig.json`, JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }))

write('package.json', JSON.stringify({ name: 'fixture-root', private: true }))
// Each project a package of its own: a project reaches the other projects of its package.
write('core/package.json', JSON.stringify({ name: '@fx/core', private: true }))
project('core')
write('core/src/units.ts', 'export function toMetres(feet: number): number {\n  return feet * 0.3048\n}\n')
write('app/package.json', JSON.stringify({ name: '@fx/app', private: true }))
project('app')
write('app/src/main.ts', "import { toMetres } from '../../core/src/units'\n\nexport const inApp = toMetres(1)\n")
// Files of no project: one uses the target, two reach nothing of the workspace.
write('scripts/uses.ts', "import { toMetres } from '../core/src/units'\n\nexport const inScript = toMetres(2)\n")
write('scripts/alone.ts', 'export const alone = 1\n')
write('tools/other.ts', 'export function helperOfNoProject(): number {\n  return 2\n}\n')

const wire = wireOpens(at('.wire'))
const openedNow = () => new Set(wire.openedFiles().map((file) => nodePath.relative(root, file)))
const files = (locations: ReadonlyArray<LspLocation>) => [...new Set(locations.map((l) => nodePath.relative(root, l.path)))].sort()

afterAll(() => rmSync(root, { recursive: true, force: true }))

test(
  'the background load leaves the files of no project; a later question opens those that reach its target, workspace symbols every one',
  { timeout: 180_000 },
  async () => {
    const host = await createLocalHost(await wire.config())
    const lsp = createLsp()
    try {
      await host.attach(lsp, [{ root, trust: 'trusted' }])
      const path = 'core/src/units.ts'
      const position = positionOf(root, path, 'toMetres')
      const first = await lsp.query({ operation: 'references', root, path, position })
      expect(files(first.locations)).toEqual(['app/src/main.ts', 'core/src/units.ts', 'scripts/uses.ts'])
      await everythingLoaded(lsp, root)
      // Every project loaded in the background; neither file of no project that cannot reach the target was opened.
      expect(openedNow()).toContain('app/src/main.ts')
      expect(openedNow()).not.toContain('scripts/alone.ts')
      expect(openedNow()).not.toContain('tools/other.ts')

      const again = await lsp.query({ operation: 'references', root, path, position })
      expect(files(again.locations)).toEqual(files(first.locations))
      expect(again.meta.coverage).toEqual({
        projectsSearched: 2,
        projectsFound: 2,
        searched: { kind: 'projectsReachingTarget', projects: 2 },
        complete: true,
      })
      expect(openedNow()).not.toContain('scripts/alone.ts')

      // A plain write makes a file left behind reach the target: the next question opens it and finds its use, asked
      // at a use in app (which nothing of no project reaches: what declares toMetres, core, is what they reach).
      write('scripts/alone.ts', "import { toMetres } from '../core/src/units'\n\nexport const alone = toMetres(3)\n")
      const use = positionOf(root, 'app/src/main.ts', 'toMetres(1)')
      const afterWrite = await lsp.query({ operation: 'references', root, path: 'app/src/main.ts', position: use })
      expect(files(afterWrite.locations)).toEqual(['app/src/main.ts', 'core/src/units.ts', 'scripts/alone.ts', 'scripts/uses.ts'])
      expect(openedNow()).toContain('scripts/alone.ts')
      expect(openedNow()).not.toContain('tools/other.ts')

      // A question with no file: every file left is opened, and the answer searched everything.
      const symbols = await lsp.query({ operation: 'workspaceSymbols', root, query: 'helperOfNoProject' })
      expect(symbols.symbols.map((s) => nodePath.relative(root, s.location.path))).toContain('tools/other.ts')
      expect(symbols.meta.coverage).toEqual({ projectsSearched: 2, projectsFound: 2, complete: true })
      expect(openedNow()).toContain('tools/other.ts')
    } finally {
      await lsp.dispose()
      await host.dispose()
    }
  },
)
