// Svelte and Astro on a public repository (TanStack Query, from ../shared/corpora, dependencies not installed), with
// default flags (an untrusted root): cross-file definition lands where the name is declared, read from the files, and
// the outline answers. Svelte 5 components (`$props()`) go through the server's own compiler (svelte 4), since an
// untrusted root's `svelte` is never loaded.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { createLsp, type LspService } from '@codeseam/lsp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost, type LocalHost } from '../src/index.js'
import { LeakCheck, positionOf } from './helpers.js'

const corpora = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '../../../../shared/corpora')
const archive = nodePath.join(corpora, 'tanstack-query.tar.gz')
const available = existsSync(archive)
if (!available) console.warn(`[components-corpus] skipped: ${archive} is missing (the shared corpora are not beside this clone)`)
const profiles = await builtinProfiles()
const missing = (id: string) => profiles.find((p) => p.id === id)?.unavailable

describe.skipIf(!available)('Svelte and Astro components of a public repository, default flags', () => {
  let root: string
  let remove: () => void
  let host: LocalHost
  let lsp: LspService
  const leaks = new LeakCheck()
  beforeAll(async () => {
    const dest = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-tanstack-')))
    execFileSync('tar', ['-xzf', archive, '-C', dest])
    root = nodePath.join(dest, 'tanstack-query')
    remove = () => rmSync(dest, { recursive: true, force: true })
    host = await createLocalHost({})
    lsp = createLsp()
    await host.attach(lsp, [{ root }])
  })
  afterAll(async () => {
    await lsp.dispose()
    await host.dispose()
    await leaks.record()
    remove()
    expect(await leaks.survivors()).toEqual([])
  })

  /** The definition's files and 0-based lines, relative to the root. */
  const definition = async (file: string, needle: string) =>
    (await lsp.query({ operation: 'definition', root, path: file, position: positionOf(root, file, needle) })).locations.map(
      (l) => `${nodePath.relative(root, l.path)}:${l.range.start.line}`,
    )
  /** The 0-based line of `needle` in a file. */
  const lineOf = (file: string, needle: string) => readFileSync(nodePath.join(root, file), 'utf8').split(needle)[0]!.split('\n').length - 1

  test(
    'Svelte: cross-file definition into a TypeScript module and into a component; a component outline',
    { timeout: 120_000 },
    async () => {
      expect(missing('svelte')).toBeUndefined()
      const tests = 'packages/svelte-query-persist-client/tests'
      const provider = `${tests}/UseQueries/Provider.svelte`
      expect(await definition(provider, 'StatusResult<string>')).toEqual([
        `${tests}/utils.svelte.ts:${lineOf(`${tests}/utils.svelte.ts`, 'export type StatusResult')}`,
      ])
      expect(await definition(provider, 'UseQueries {states}')).toEqual([`${tests}/UseQueries/UseQueries.svelte:0`])
      const outline = await lsp.query({ operation: 'documentSymbols', root, path: 'packages/svelte-query/src/QueryClientProvider.svelte' })
      const names = outline.symbols.flatMap((s) => [s.name, ...s.children.map((c) => c.name)])
      expect(names).toEqual(expect.arrayContaining(['script', 'client', 'children']))
    },
  )

  test.skipIf(missing('astro') !== undefined)(
    "Astro: a page's component tag lands in the layout; the layout's outline",
    { timeout: 120_000 },
    async () => {
      const example = 'examples/solid/astro/src'
      expect(await definition(`${example}/pages/index.astro`, 'MainLayout id')).toEqual([`${example}/layouts/MainLayout.astro:0`])
      const outline = await lsp.query({ operation: 'documentSymbols', root, path: `${example}/layouts/MainLayout.astro` })
      expect(outline.symbols.map((s) => s.name)).toEqual(expect.arrayContaining(['id']))
    },
  )
})
