import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, expect, test } from 'vitest'
import { createLsp, type LspLocation, type LspProvider, type LspResultMeta, type LspService } from '@codeseam/lsp'
import { copyFixture, type FixtureWorkspace } from '@codeseam/lsp/testing'
import { createLocalHost, type LocalHost } from '@codeseam/lsp-local'

import {
  createIndexAndLiveProvider,
  loadStoredIndex,
  prepareStoredIndex,
  readScipIndex,
  rootPrefix,
  sha256,
  type IndexSidecar,
  type LoadedIndex,
} from '../src/index.js'
import { indexerVersion, indexWorkspace } from './indexer.js'

// Index and live together (RFC 0034) with real parts: scip-typescript indexes a copy of the seam's TypeScript fixture,
// lsp-local's TypeScript provider is the live one, the disk is then changed with plain writes. Each answer is compared
// with the live server's own (the same provider registered alone) and must say where it came from.

const scipRequire = createRequire(createRequire(import.meta.url).resolve('@sourcegraph/scip-typescript/package.json'))
const compiler = `typescript ${(scipRequire('typescript/package.json') as { version: string }).version}`

let host: LocalHost
let liveProvider: LspProvider
const cleanups: Array<() => Promise<unknown>> = []

beforeAll(async () => {
  host = await createLocalHost()
  const found = host.providers.find((p) => '.ts' in p.extensions)
  if (found === undefined) throw new Error('lsp-local has no provider for .ts')
  liveProvider = found
}, 60_000)

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  await host?.dispose()
})

interface Setup {
  readonly fixture: FixtureWorkspace
  /** The composition. */
  readonly lsp: LspService
  /** The live provider alone, on the same root and server: the oracle. */
  readonly live: LspService
  readonly sidecar: IndexSidecar
  readonly indexPath: string
}

/** A fixture copy indexed as it is now (a sidecar of its documents' hashes, as `codeseam index` writes), then served. */
async function setup(options: { takeOver?: boolean } = {}): Promise<Setup> {
  const fixture = await copyFixture()
  cleanups.push(() => fixture.dispose())
  const built = await indexWorkspace(fixture.root)
  cleanups.push(built.dispose)
  const decoded = await readScipIndex(built.path)
  const documents = Object.fromEntries(
    await Promise.all(decoded.documents.map(async (d) => [d.relativePath, sha256(await readFile(fixture.path(d.relativePath)))] as const)),
  )
  const sidecar: IndexSidecar = {
    format: 1,
    root: fixture.root,
    key: 'test',
    indexer: { name: 'scip-typescript', version: indexerVersion },
    variant: [],
    compiler,
    indexedAt: '2026-12-06T20:00:00.000Z',
    indexMs: built.ms,
    contentDigest: '',
    documents,
  }
  const loaded: LoadedIndex = { index: decoded, sidecar }
  const workspace = await host.openWorkspace(fixture.root, { trust: 'trusted' })
  const lsp = createLsp()
  lsp.registerProvider(
    createIndexAndLiveProvider({
      live: liveProvider,
      indexFor: async (root) => (root === fixture.root ? loaded : undefined),
      takeOver: options.takeOver ?? false,
    }),
  )
  lsp.registerWorkspace(workspace)
  const live = createLsp()
  live.registerProvider(liveProvider)
  live.registerWorkspace(workspace)
  cleanups.push(
    () => lsp.dispose(),
    () => live.dispose(),
  )
  return { fixture, lsp, live, sidecar, indexPath: built.path }
}

/** Locations as sorted `file:line:start-end` keys (one-based lines), names' ranges for definitions. */
function keys(root: string, locations: ReadonlyArray<LspLocation>, selection = false): string[] {
  return [
    ...new Set(
      locations.map((l) => {
        const r = selection ? (l.targetSelectionRange ?? l.range) : l.range
        return `${nodePath.relative(root, l.path)}:${r.start.line + 1}:${r.start.character}-${r.end.character}`
      }),
    ),
  ].sort()
}

const indexBuild = { indexedAt: '2026-12-06T20:00:00.000Z', indexer: { name: 'scip-typescript', version: indexerVersion }, compiler }

function sourceOf(meta: LspResultMeta) {
  expect(meta.source, 'every answer of the composition says its source').toBeDefined()
  return meta.source!
}

test('unchanged files are answered from the index alone, without starting the live server', { timeout: 120_000 }, async () => {
  const { fixture, lsp } = await setup({ takeOver: true })
  const position = await fixture.find({ file: 'src/shapes.ts', text: 'const renameMe', at: 'renameMe' })
  const refs = await lsp.query({ operation: 'references', root: fixture.root, path: 'src/shapes.ts', position })
  expect(keys(fixture.root, refs.locations).length).toBeGreaterThan(2)
  expect(sourceOf(refs.meta)).toEqual({ origin: 'index', index: indexBuild })
  const hover = await lsp.query({ operation: 'hover', root: fixture.root, path: 'src/shapes.ts', position })
  expect(sourceOf(hover.meta).origin).toBe('index')
  // The index answered: no TypeScript server runs for this root.
  expect(host.status().filter((s) => s.root === fixture.root && s.state === 'ready')).toEqual([])
})

test(
  '(a) a reference added by a plain write in a changed file and in a new file is found; the unchanged files come from the index',
  { timeout: 180_000 },
  async () => {
    const { fixture, lsp, live } = await setup()
    const geometry = fixture.path('src/geometry.ts')
    await writeFile(geometry, `${await readFile(geometry, 'utf8')}\nexport const again = renameMe\n`)
    await writeFile(fixture.path('src/extra.ts'), "import { renameMe } from './shapes'\n\nexport const extra = renameMe\n")
    const position = await fixture.find({ file: 'src/shapes.ts', text: 'const renameMe', at: 'renameMe' })
    const request = { operation: 'references', root: fixture.root, path: 'src/shapes.ts', position } as const
    const composed = await lsp.query(request)
    const found = keys(fixture.root, composed.locations)
    const geometryLines = (await readFile(geometry, 'utf8')).split('\n')
    const added = geometryLines.findIndex((line) => line.startsWith('export const again'))
    expect(found).toContain(`src/geometry.ts:${added + 1}:21-29`)
    expect(found).toContain('src/extra.ts:3:21-29')
    // main.ts did not change: its references are the index's, and they are there.
    expect(found.filter((k) => k.startsWith('src/main.ts:')).length).toBeGreaterThan(0)
    expect(found).toEqual(keys(fixture.root, (await live.query(request)).locations))
    const source = sourceOf(composed.meta)
    expect(source.origin).toBe('both')
    expect(source.index).toEqual(indexBuild)
    expect(source.staleFiles).toEqual([fixture.path('src/extra.ts'), geometry])
  },
)

test('(b) after a file is deleted, none of its references remain', { timeout: 180_000 }, async () => {
  const { fixture, lsp, live } = await setup()
  const position = await fixture.find({ file: 'src/shapes.ts', text: 'class Circle', at: 'Circle' })
  const request = { operation: 'references', root: fixture.root, path: 'src/shapes.ts', position } as const
  const before = keys(fixture.root, (await lsp.query(request)).locations)
  expect(before.filter((k) => k.startsWith('src/main.ts:')).length).toBeGreaterThan(0)
  await rm(fixture.path('src/main.ts'))
  const composed = await lsp.query(request)
  const after = keys(fixture.root, composed.locations)
  expect(after.filter((k) => k.startsWith('src/main.ts:'))).toEqual([])
  expect(after.length).toBeGreaterThan(0)
  expect(after).toEqual(keys(fixture.root, (await live.query(request)).locations))
  expect(sourceOf(composed.meta)).toMatchObject({ origin: 'both', staleFiles: [fixture.path('src/main.ts')] })
})

test(
  '(c) a changed file is never answered from the index: its own questions, and definitions that land in it',
  { timeout: 180_000 },
  async () => {
    const { fixture, lsp, live } = await setup()
    const shapes = fixture.path('src/shapes.ts')
    // The text moves down two lines: the index's positions in shapes.ts are now wrong.
    await writeFile(shapes, `// moved\n// moved\n${await readFile(shapes, 'utf8')}`)
    // From main.ts (unchanged) to Circle in shapes.ts (changed).
    const inMain = {
      operation: 'definition',
      root: fixture.root,
      path: 'src/main.ts',
      position: await fixture.find({ file: 'src/main.ts', text: 'import { Circle', at: 'Circle' }),
    } as const
    const composed = await lsp.query(inMain)
    expect(keys(fixture.root, composed.locations, true)).toEqual(keys(fixture.root, (await live.query(inMain)).locations, true))
    expect(keys(fixture.root, composed.locations, true)).toContain('src/shapes.ts:8:13-19')
    expect(sourceOf(composed.meta)).toEqual({ origin: 'live', index: indexBuild, staleFiles: [shapes] })
    // In the changed file itself.
    const inShapes = {
      operation: 'definition',
      root: fixture.root,
      path: 'src/shapes.ts',
      position: await fixture.find({ file: 'src/shapes.ts', text: 'Circle implements Shape', at: 'Shape' }),
    } as const
    const own = await lsp.query(inShapes)
    expect(keys(fixture.root, own.locations, true)).toEqual(['src/shapes.ts:4:17-22'])
    expect(keys(fixture.root, own.locations, true)).toEqual(keys(fixture.root, (await live.query(inShapes)).locations, true))
    expect(sourceOf(own.meta).origin).toBe('live')
    const outline = await lsp.query({ operation: 'documentSymbols', root: fixture.root, path: 'src/shapes.ts' })
    expect(sourceOf(outline.meta).origin).toBe('live')
    // An operation the index does not answer goes to the live server, and says so.
    const diagnostics = await lsp.query({ operation: 'diagnostics', root: fixture.root, path: 'src/main.ts' })
    expect(sourceOf(diagnostics.meta)).toEqual({ origin: 'live' })
  },
)

test('once the live server of the root is ready, it takes over', { timeout: 180_000 }, async () => {
  const { fixture, lsp, live } = await setup({ takeOver: true })
  const request = {
    operation: 'references',
    root: fixture.root,
    path: 'src/shapes.ts',
    position: await fixture.find({ file: 'src/shapes.ts', text: 'class Circle', at: 'Circle' }),
  } as const
  expect(sourceOf((await lsp.query(request)).meta).origin).toBe('index')
  await live.query(request) // the live server starts and loads the project
  const after = await lsp.query(request)
  expect(sourceOf(after.meta)).toEqual({ origin: 'live' })
})

test(
  "a stored entry is found by its root and decoded once while it is in use (a daemon's sessions share it)",
  { timeout: 120_000 },
  async () => {
    const { fixture, sidecar, indexPath } = await setup()
    const store = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-store-'))
    cleanups.push(() => rm(store, { recursive: true, force: true }))
    const entry = nodePath.join(store, `${rootPrefix(fixture.root)}-scip-typescript-${indexerVersion}-0000000000000000`)
    await mkdir(entry)
    await copyFile(indexPath, nodePath.join(entry, 'index.scip'))
    await writeFile(nodePath.join(entry, 'sidecar.json'), JSON.stringify(sidecar))
    const first = await loadStoredIndex(fixture.root, { store })
    expect(first?.sidecar.documents).toEqual(sidecar.documents)
    expect(await loadStoredIndex(fixture.root, { store })).toBe(first)
    expect(await loadStoredIndex(nodePath.join(fixture.root, 'src'), { store })).toBeUndefined()
    // A session prepares the entry when it opens the root: the disk is compared once, and the comparison is shared.
    expect(await prepareStoredIndex(fixture.root, { store })).toBe(first)
    const disk = first?.disk
    if (disk === undefined) throw new Error('a stored entry has no disk state')
    expect(await disk.view()).toEqual({ changed: new Set(), missing: new Set(), added: new Set(), notIndexed: new Set() })
    // A plain write of the same length right after the hashes were cached is still seen.
    const changed = Object.keys(sidecar.documents).sort()[0] ?? ''
    const text = await readFile(fixture.path(changed), 'utf8')
    await writeFile(
      fixture.path(changed),
      text.replace(/[a-z]/, (c) => (c === 'a' ? 'b' : 'a')),
    )
    expect(await disk.fileState(changed)).toBe('changed')
    expect([...(await disk.view()).changed]).toEqual([changed])
  },
)

test(
  'a question asked before a change mark listed the disk is answered from that listing; one asked after the write sees it (RFC 0036)',
  { timeout: 180_000 },
  async () => {
    const { fixture, lsp } = await setup()
    const position = await fixture.find({ file: 'src/shapes.ts', text: 'const renameMe', at: 'renameMe' })
    const geometry = fixture.path('src/geometry.ts')
    const askedAt = performance.now()
    expect(await lsp.changeMark(fixture.root)).toBeDefined()
    // Written after the mark's listing began: the question asked before it may be answered from that listing.
    await writeFile(geometry, `${await readFile(geometry, 'utf8')}\nexport const writtenAfterTheMark = 1\n`)
    const asked = await lsp.query({ operation: 'references', root: fixture.root, path: 'src/shapes.ts', position, askedAt })
    expect(sourceOf(asked.meta)).toEqual({ origin: 'index', index: indexBuild })
    // A question asked now sees the write: the file is stale, its part merged with the live server's answer.
    const now = await lsp.query({ operation: 'references', root: fixture.root, path: 'src/shapes.ts', position })
    expect(sourceOf(now.meta)).toMatchObject({ origin: 'both', staleFiles: [geometry] })
  },
)
