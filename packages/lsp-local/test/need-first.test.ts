// The projects a question needs, first (issue 50 item 1, RFC 0035): a workspace-wide question to the native TypeScript
// server loads the target's project and every project that can reach it — through a project reference, a workspace
// package linked into node_modules, a `paths` alias — before any other, answers complete over them and says so, and
// loads the rest in the background. The server's didOpens are counted on the wire, by a pass-through process.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp } from '@codeseam/lsp'
import { afterAll, expect, test } from 'vitest'
import { TsGraphCache } from '../src/languages/typescript/graph-cache.js'
import { listFiles, profileExtensions } from '../src/profile/files.js'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { builtinProfiles } from '../src/languages/index.js'
import { discoverTsProjects } from '../src/languages/typescript/projects.js'
import { reachingTarget } from '../src/languages/typescript/reach.js'
import { positionOf } from './helpers.js'
import { everythingLoaded, wireOpens } from './support/wire-opens.js'
import { corporaFolder, linkWorkspacePackages, unpackCorpus } from './oracle/workspaces.js'

const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-need-first-')))
const at = (path: string) => nodePath.join(root, path)
const write = (path: string, text: string) => {
  mkdirSync(nodePath.dirname(at(path)), { recursive: true })
  writeFileSync(at(path), text)
}
const json = (value: unknown) => JSON.stringify(value, null, 2)
const project = (dir: string, extra: object = {}) =>
  write(`${dir}/tsconfig.json`, json({ compilerOptions: { strict: true, composite: true, ...extra }, include: ['src'] }))

// core (the target) imports base; four projects reach core, each one way; six others reach nothing of it.
write('package.json', json({ name: 'fixture-root', private: true }))
write('base/package.json', json({ name: '@fx/base', types: './src/round.ts' }))
project('base')
write('base/src/round.ts', 'export function round(value: number): number {\n  return Math.round(value)\n}\n')
write('core/package.json', json({ name: '@fx/core', types: './src/units.ts', dependencies: { '@fx/base': 'workspace:*' } }))
project('core')
write(
  'core/src/units.ts',
  "import { round } from '@fx/base'\n\nexport function toMetres(feet: number): number {\n  return round(feet * 0.3048)\n}\n",
)
// A project reference (and a relative import).
write('viaref/package.json', json({ name: '@fx/viaref' }))
write('viaref/tsconfig.json', json({ compilerOptions: { strict: true }, include: ['src'], references: [{ path: '../core' }] }))
write('viaref/src/index.ts', "import { toMetres } from '../../core/src/units'\n\nexport const ref = toMetres(1)\n")
// A workspace package linked into node_modules, named in package.json: no reference, no relative import.
write('vialink/package.json', json({ name: '@fx/vialink', dependencies: { '@fx/core': 'workspace:*' } }))
project('vialink')
write('vialink/src/index.ts', "import { toMetres } from '@fx/core'\n\nexport const link = toMetres(2)\n")
// A `paths` alias: no package dependency, no reference.
write('viaalias/package.json', json({ name: '@fx/viaalias' }))
project('viaalias', { baseUrl: '.', paths: { '@core/*': ['../core/src/*'] } })
write('viaalias/src/index.ts', "import { toMetres } from '@core/units'\n\nexport const alias = toMetres(3)\n")
const unrelated = 6
for (let i = 0; i < unrelated; i++) {
  write(`other${i}/package.json`, json({ name: `@fx/other${i}`, dependencies: { '@fx/base': 'workspace:*' } }))
  project(`other${i}`)
  write(
    `other${i}/src/index.ts`,
    `import { round } from '@fx/base'\n\nexport function toMetres(feet: number): number {\n  return round(feet * ${i})\n}\n`,
  )
}
for (const name of ['base', 'core', 'viaref', 'vialink', 'viaalias', ...Array.from({ length: unrelated }, (_, i) => `other${i}`)]) {
  mkdirSync(at('node_modules/@fx'), { recursive: true })
  symlinkSync(at(name), at(`node_modules/@fx/${name}`), 'dir')
}
const needed = ['core', 'viaref', 'vialink', 'viaalias']
const found = needed.length + 1 + unrelated

const wire = wireOpens(at('.wire'))
const openedFiles = () => wire.openedFiles()
const opened = () => openedFiles().map((path) => nodePath.relative(root, path).split(nodePath.sep)[0] as string)

/** A host whose native TypeScript server is reached through the pass-through process. */
async function wiredHost(): Promise<LocalHost> {
  return createLocalHost(await wire.config())
}

afterAll(() => rmSync(root, { recursive: true, force: true }))

test('what reaches the target: a reference, a linked workspace package, a paths alias; never what it reaches', async () => {
  const configs = ['base', 'core', 'viaref', 'vialink', 'viaalias', 'other0'].map((dir) => at(`${dir}/tsconfig.json`))
  const graph = await discoverTsProjects(root, configs, { timeoutMs: 60_000 })
  const sources = graph.projects.flatMap((p) => p.files)
  const reaching = await reachingTarget(graph, sources, root, at('core/src/units.ts'), () => true)
  expect([...(reaching?.configs ?? [])].map((config) => nodePath.basename(nodePath.dirname(config))).sort()).toEqual([...needed].sort())
  // A file of no project: what reaches it is not worked out (everything loads).
  expect(await reachingTarget(graph, sources, root, at('loose.ts'), () => true)).toBeUndefined()
})

/**
 * Asks references at `needle` in `path` on a fresh host: the first answer searched the needed projects and said so,
 * equals the same question's once everything loaded (the oracle), and every didOpen for a needed project came before
 * any for another (on the wire: each was forwarded before the question that followed it). Returns the wire's order.
 */
async function firstEqualsFull(path: string, needle: string): Promise<string[]> {
  const host = await wiredHost()
  const lsp = createLsp()
  try {
    await host.attach(lsp, [{ root, trust: 'trusted' }])
    const position = positionOf(root, path, needle)
    const first = await lsp.query({ operation: 'references', root, path, position })
    expect([...new Set(first.locations.map((l) => nodePath.relative(root, l.path).split('/')[0]))].sort()).toEqual([...needed].sort())
    expect(first.meta.coverage).toEqual({
      projectsSearched: needed.length,
      projectsFound: found,
      searched: { kind: 'projectsReachingTarget', projects: needed.length },
      complete: true,
    })
    await everythingLoaded(lsp, root)
    const full = await lsp.query({ operation: 'references', root, path, position })
    expect(full.meta.coverage).toEqual({ projectsSearched: found, projectsFound: found, complete: true })
    const key = (l: (typeof first.locations)[number]) => `${l.path}:${l.range.start.line}:${l.range.start.character}`
    expect(first.locations.map(key).sort()).toEqual(full.locations.map(key).sort())
    const order = opened()
    const firstOther = order.findIndex((folder) => !needed.includes(folder))
    expect(firstOther).toBeGreaterThan(0)
    expect(order.slice(0, firstOther).every((folder) => needed.includes(folder))).toBe(true)
    return order
  } finally {
    await lsp.dispose()
    await host.dispose()
  }
}

test(
  'the needed projects are opened before any other; the first answer equals the full load’s and says what it covered',
  { timeout: 180_000 },
  async () => {
    const order = await firstEqualsFull('core/src/units.ts', 'toMetres')
    const firstOther = order.findIndex((folder) => !needed.includes(folder))
    expect(order.slice(firstOther).some((folder) => needed.includes(folder))).toBe(false)
    expect(new Set(order).size, order.join(' ')).toBe(found)
  },
)

test(
  'asked at a use of a function another project declares: what reaches the declaring file loads first, never only what reaches the use',
  { timeout: 180_000 },
  // vialink uses core's toMetres; nothing reaches vialink, but viaref and viaalias use toMetres too.
  () => firstEqualsFull('vialink/src/index.ts', 'toMetres(2)'),
)

test.skipIf(corporaFolder() === undefined)(
  'tanstack-query, its workspace packages linked: a persister’s references load its few projects first, and equal the full load’s',
  { timeout: 300_000 },
  async () => {
    const corpus = unpackCorpus('tanstack-query')
    const host = await wiredHost()
    const lsp = createLsp()
    try {
      expect(linkWorkspacePackages(corpus.root)).toBeGreaterThan(20)
      await host.attach(lsp, [{ root: corpus.root, trust: 'trusted' }])
      const path = 'packages/query-sync-storage-persister/src/index.ts'
      const position = positionOf(corpus.root, path, 'createSyncStoragePersister')
      const first = await lsp.query({ operation: 'references', root: corpus.root, path, position })
      const coverage = first.meta.coverage
      expect(coverage?.searched?.kind).toBe('projectsReachingTarget')
      expect(coverage?.complete).toBe(true)
      expect(coverage?.projectsSearched).toBe(coverage?.searched?.projects)
      expect(coverage?.searched?.projects ?? Infinity).toBeLessThan((coverage?.projectsFound ?? 0) / 10)
      await everythingLoaded(lsp, corpus.root)
      const full = await lsp.query({ operation: 'references', root: corpus.root, path, position })
      // Every project searched; the files of no project that cannot reach the target were left (RFC 0035, amended).
      expect(full.meta.coverage?.projectsSearched).toBe(full.meta.coverage?.projectsFound)
      expect(full.meta.coverage?.complete, JSON.stringify(full.meta.coverage)).toBe(true)
      const key = (l: (typeof first.locations)[number]) => `${l.path}:${l.range.start.line}:${l.range.start.character}`
      expect(first.locations.map(key).sort()).toEqual(full.locations.map(key).sort())
      // On the wire: the files of the projects that reach the target were opened before any other.
      const graph = await new TsGraphCache().read(corpus.root, { id: 'typescript' } as never, Date.now() + 120_000)
      const typescript = (await builtinProfiles()).find((profile) => profile.id === 'typescript')
      const sources = await listFiles(corpus.root, { extensions: profileExtensions(typescript!) }, 20_000)
      const reaching = await reachingTarget(graph, sources.files, corpus.root, nodePath.join(corpus.root, path), () => true)
      const neededFiles = new Set([
        ...graph.projects.filter((p) => reaching?.configs.has(p.config) === true).flatMap((p) => p.files),
        ...(reaching?.looseFiles ?? []),
      ])
      const order = openedFiles().map((file) => neededFiles.has(file))
      const firstOther = order.indexOf(false)
      expect(firstOther).toBeGreaterThan(0)
      expect(order.slice(firstOther)).not.toContain(true)
      console.log(
        `tanstack-query: ${firstOther} didOpens before any outside the ${coverage?.searched?.projects} projects reaching the target, ${order.length} in all (${coverage?.projectsFound} projects)`,
      )
    } finally {
      await lsp.dispose()
      await host.dispose()
      corpus.remove()
    }
  },
)
