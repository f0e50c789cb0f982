import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterEach, describe, expect, test } from 'vitest'
import { createLsp, type LspService } from '@codeseam/lsp'

import { createLocalHost, type HostOptions, type LocalHost } from '../src/index.js'
import { discoverTsProjects, planProjectLoad } from '../src/languages/typescript/projects.js'
import { LeakCheck, positionOf } from './helpers.js'

/** Writes a tree of files (path → text) into a fresh canonical temp folder. */
function tree(files: Record<string, string>): { root: string; write: (path: string, text: string) => void; remove: () => void } {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-projects-')))
  const write = (path: string, text: string) => {
    mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true })
    writeFileSync(nodePath.join(root, path), text)
  }
  for (const [path, text] of Object.entries(files)) write(path, text)
  return { root, write, remove: () => rmSync(root, { recursive: true, force: true }) }
}

// The shape `npm create vite` (react-ts), Nx and Angular generate: a root tsconfig.json with `files: []`
// and references to sibling configs in the same folder; the tests live only in the spec project.
const siblingConfigs = {
  'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './tsconfig.app.json' }, { path: './tsconfig.spec.json' }] }),
  // JSONC, as generators write it: comments and trailing commas.
  'tsconfig.base.json':
    '{\n  // shared options\n  "compilerOptions": { "strict": true, "module": "esnext", "moduleResolution": "bundler", "target": "es2022", },\n}\n',
  'tsconfig.app.json': JSON.stringify({ extends: './tsconfig.base.json', include: ['src'], exclude: ['src/**/*.spec.ts'] }),
  'tsconfig.spec.json': JSON.stringify({ extends: './tsconfig.base.json', include: ['src/**/*.spec.ts', 'src/**/*.d.ts'] }),
  // A parallel graph nothing named tsconfig.json references: not a project the server loads.
  'tsconfig.watch.json': JSON.stringify({ extends: './tsconfig.base.json', include: ['src'] }),
  'src/math.ts': 'export function addUp(a: number, b: number): number {\n  return a + b\n}\n',
  'src/main.ts': "import { addUp } from './math'\n\nexport const total = addUp(1, 2)\n",
  'src/math.spec.ts': "import { addUp } from './math'\n\nexport const checked = addUp(2, 3) === 5\n",
  'src/other.spec.ts': "import { addUp } from './math'\n\nexport const again = addUp(4, 5)\n",
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('the project graph (TypeScript compiler API in a child process)', () => {
  test('sibling configs: referenced configs are projects whatever their name; a parallel graph is not', async () => {
    const t = tree(siblingConfigs)
    cleanups.push(t.remove)
    const graph = await discoverTsProjects(t.root, [nodePath.join(t.root, 'tsconfig.json')], { timeoutMs: 30_000 })
    const byConfig = new Map(
      graph.projects.map((p) => [nodePath.relative(t.root, p.config), p.files.map((f) => nodePath.relative(t.root, f)).sort()]),
    )
    expect([...byConfig.keys()].sort()).toEqual(['tsconfig.app.json', 'tsconfig.json', 'tsconfig.spec.json'])
    // include/exclude evaluated by the compiler: the app owns no test file, the spec project only tests.
    expect(byConfig.get('tsconfig.app.json')).toEqual(['src/main.ts', 'src/math.ts'])
    expect(byConfig.get('tsconfig.spec.json')).toEqual(['src/math.spec.ts', 'src/other.spec.ts'])
    expect(byConfig.get('tsconfig.json')).toEqual([])
    // The extends target (JSONC with comments and trailing commas) was read, so it is watched.
    expect(graph.configFiles.map((f) => nodePath.relative(t.root, f))).toContain('tsconfig.base.json')
    expect(graph.errors).toEqual([])
    const plan = planProjectLoad(
      graph,
      [...byConfig.values()].flat().map((f) => nodePath.join(t.root, f)),
      10,
    )
    expect(plan.projectsFound).toBe(2)
    expect(plan.projectFiles.map((f) => nodePath.relative(t.root, f))).toEqual(['src/main.ts', 'src/math.spec.ts'])
  })

  test('a reference or extends pointing outside the root is reported and never read', async () => {
    const outside = tree({
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['*.ts'] }),
      'secret.ts': 'export const secret = 1\n',
    })
    cleanups.push(outside.remove)
    const t = tree({
      'tsconfig.json': JSON.stringify({
        extends: nodePath.join(outside.root, 'tsconfig.json'),
        references: [{ path: outside.root }],
        include: ['src'],
      }),
      'src/a.ts': 'export const a = 1\n',
    })
    cleanups.push(t.remove)
    const graph = await discoverTsProjects(t.root, [nodePath.join(t.root, 'tsconfig.json')], { timeoutMs: 30_000 })
    expect(graph.projects.map((p) => p.config)).toEqual([nodePath.join(t.root, 'tsconfig.json')])
    expect(graph.projects.flatMap((p) => p.files)).toEqual([nodePath.join(t.root, 'src/a.ts')])
    expect(graph.configFiles.every((f) => f.startsWith(t.root + nodePath.sep))).toBe(true)
    expect(graph.errors.map((e) => e.message).join('\n')).toMatch(/outside the workspace/)
  })

  test('a shared file loads one project only, so the plan prefers a file no other project claims', () => {
    const graph = {
      projects: [
        { config: '/r/tsconfig.app.json', files: ['/r/src/env.d.ts', '/r/src/shared.ts', '/r/src/app.ts'], references: [] },
        { config: '/r/tsconfig.spec.json', files: ['/r/src/env.d.ts', '/r/src/shared.ts', '/r/src/app.spec.ts'], references: [] },
        { config: '/r/tsconfig.types.json', files: ['/r/src/env.d.ts'], references: [] },
      ],
      configFiles: [],
      errors: [],
    }
    const plan = planProjectLoad(graph, ['/r/src/app.ts', '/r/scripts/loose.js', '/r/scripts/more.js'], 1)
    expect(plan.projectFiles).toEqual(['/r/src/app.ts', '/r/src/app.spec.ts', '/r/src/env.d.ts'])
    expect(plan.projectsFound).toBe(3)
    expect(plan.looseFiles).toEqual(['/r/scripts/loose.js'])
    expect(plan.looseNotOpened).toBe(1)
  })
})

async function attach(root: string, options: HostOptions = {}): Promise<{ host: LocalHost; lsp: LspService }> {
  const host = await createLocalHost(options)
  const lsp = createLsp()
  const leaks = new LeakCheck()
  cleanups.push(async () => {
    await leaks.record()
    await lsp.dispose()
    await host.dispose()
    expect(await leaks.survivors()).toEqual([])
  })
  await host.attach(lsp, [{ root }])
  return { host, lsp }
}

const referencingFiles = async (lsp: LspService, root: string, path: string, needle: string) => {
  const r = await lsp.query({ operation: 'references', root, path, position: positionOf(root, path, needle) })
  return { files: [...new Set(r.locations.map((l) => nodePath.relative(root, l.path)))].sort(), meta: r.meta }
}

describe('workspace-wide answers on the first call (native TypeScript 7)', () => {
  test('sibling configs: the first references call already finds the test files of the spec project', async () => {
    const t = tree(siblingConfigs)
    cleanups.push(t.remove)
    const { lsp, host } = await attach(t.root)
    const first = await referencingFiles(lsp, t.root, 'src/math.ts', 'addUp(a')
    expect(first.files).toEqual(['src/main.ts', 'src/math.spec.ts', 'src/math.ts', 'src/other.spec.ts'])
    expect(first.meta.coverage).toEqual({ projectsSearched: 2, projectsFound: 2, complete: true })
    const again = await referencingFiles(lsp, t.root, 'src/math.ts', 'addUp(a')
    expect(again).toEqual({ ...first, meta: { ...first.meta, elapsedMs: again.meta.elapsedMs, warm: again.meta.warm } })
    expect(host.status().find((s) => s.providerId === 'local:typescript')?.projects).toEqual({ loaded: 2, found: 2 })
  })

  test('a project created after the first query (a new folder with its tsconfig.json) is loaded by the next one', async () => {
    const t = tree({
      'core/tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
      'core/src/math.ts': 'export function addUp(a: number, b: number): number {\n  return a + b\n}\n',
    })
    cleanups.push(t.remove)
    const { lsp } = await attach(t.root)
    const before = await referencingFiles(lsp, t.root, 'core/src/math.ts', 'addUp(a')
    expect(before.meta.coverage).toEqual({ projectsSearched: 1, projectsFound: 1, complete: true })
    t.write('app/src/main.ts', "import { addUp } from '../../core/src/math'\n\nexport const total = addUp(1, 2)\n")
    t.write('app/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }))
    const after = await referencingFiles(lsp, t.root, 'core/src/math.ts', 'addUp(a')
    expect(after.files).toEqual(['app/src/main.ts', 'core/src/math.ts'])
    expect(after.meta.coverage).toEqual({ projectsSearched: 2, projectsFound: 2, complete: true })
  })

  test('a server restarted between two queries gives the same complete answer, marked cold', async () => {
    const t = tree(siblingConfigs)
    cleanups.push(t.remove)
    // Idle servers are reclaimed 1 ms after their last query: the second query meets a fresh process.
    const { lsp } = await attach(t.root, { idleTtlMs: 1 })
    const stopped = new Promise<void>((resolve) => {
      const unsubscribe = lsp.onStatusChange((status) => {
        if (status.providerId === 'local:typescript' && status.state === 'idle' && status.root === t.root) {
          unsubscribe()
          resolve()
        }
      })
    })
    const first = await referencingFiles(lsp, t.root, 'src/math.ts', 'addUp(a')
    await stopped
    const second = await referencingFiles(lsp, t.root, 'src/math.ts', 'addUp(a')
    expect(second.files).toEqual(first.files)
    expect(second.files).toHaveLength(4)
    expect(second.meta.warm).toBe(false)
    expect(second.meta.coverage).toEqual(first.meta.coverage)
  })

  test('a plain JavaScript folder without any config: every file of no project is searched', async () => {
    const t = tree({
      'lib/format.js': 'export function formatName(name) {\n  return name.trim()\n}\n',
      'bin/cli.js': "import { formatName } from '../lib/format.js'\n\nconsole.log(formatName(process.argv[2]))\n",
      'web/page.mjs': "import { formatName } from '../lib/format.js'\n\nexport const title = formatName(' x ')\n",
    })
    cleanups.push(t.remove)
    const { lsp } = await attach(t.root)
    const first = await referencingFiles(lsp, t.root, 'lib/format.js', 'formatName(name')
    expect(first.files).toEqual(['bin/cli.js', 'lib/format.js', 'web/page.mjs'])
    expect(first.meta.coverage?.complete).toBe(true)
  })

  test('over the open-document limit, the answer says how many files of no project were not searched', async () => {
    const files: Record<string, string> = { 'lib/format.js': 'export function formatName(name) {\n  return name.trim()\n}\n' }
    for (let i = 0; i < 12; i++)
      files[`use/u${String(i).padStart(2, '0')}.js`] =
        `import { formatName } from '../lib/format.js'\n\nexport const v${i} = formatName('${i}')\n`
    const t = tree(files)
    cleanups.push(t.remove)
    // 20 open documents, 8 kept for the queries' own: 12 of the 13 files of no project are opened (in path order).
    const { lsp } = await attach(t.root, { limits: { maxOpenDocuments: 20 } })
    const r = await referencingFiles(lsp, t.root, 'lib/format.js', 'formatName(name')
    expect(r.meta.coverage).toEqual({ projectsSearched: 0, projectsFound: 0, filesNotSearched: 1, complete: false })
    expect(r.files).toHaveLength(12)
    expect(r.files).not.toContain('use/u11.js')
  })

  test('a config changed on disk is read again: a project added to the references is searched from the next call', async () => {
    const t = tree({ ...siblingConfigs, 'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './tsconfig.app.json' }] }) })
    cleanups.push(t.remove)
    const { lsp } = await attach(t.root)
    const before = await referencingFiles(lsp, t.root, 'src/math.ts', 'addUp(a')
    // The spec files belong to no project yet, so they are opened as files of no project: still found.
    expect(before.files).toEqual(['src/main.ts', 'src/math.spec.ts', 'src/math.ts', 'src/other.spec.ts'])
    expect(before.meta.coverage).toEqual({ projectsSearched: 1, projectsFound: 1, complete: true })
    t.write('tsconfig.json', siblingConfigs['tsconfig.json'])
    const after = await referencingFiles(lsp, t.root, 'src/math.ts', 'addUp(a')
    expect(after.files).toEqual(before.files)
    expect(after.meta.coverage).toEqual({ projectsSearched: 2, projectsFound: 2, complete: true })
  })
})
