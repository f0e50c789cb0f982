import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { Containment } from '@codeseam/lsp'
import { afterEach, describe, expect, test, vi } from 'vitest'

import { negotiatedOperations } from '../src/features/capabilities.js'
import { clientCapabilitiesFor } from '../src/features/client-capabilities.js'
import { builtinProfiles } from '../src/policy/builtin-profiles.js'
import { resolveHostConfig } from '../src/policy/config.js'
import type { ServerProfile } from '../src/profile/profiles.js'
import { HostCore } from '../src/pool/host-core.js'
import { ProjectLoader } from '../src/workspace/project-loader.js'
import type { TsProjectGraph } from '../src/languages/typescript/projects.js'
import { LocalWorkspace } from '../src/workspace/workspace.js'

/*
 * A workspace that was just opened starts reading its TypeScript project graph at once, so the first
 * workspace-wide query finds it read (or in flight beside its server's start) instead of reading it after the
 * server started. These tests look at the loader's cache, the one place the first query reads the graph from.
 */

type Graphs = Map<string, { graph: Promise<TsProjectGraph> }>

/** The TypeScript project model's graph cache in a loader (empty while no TypeScript model was made). */
function graphsOf(loader: ProjectLoader): Graphs {
  const models = (loader as unknown as { models: Map<string, { graphs?: Graphs }> }).models
  return models.get('typescript')?.graphs ?? new Map()
}

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

function twoProjects(): string {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-prefetch-')))
  roots.push(root)
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './tsconfig.app.json' }, { path: './tsconfig.spec.json' }] }),
    'tsconfig.app.json': JSON.stringify({ include: ['src'], exclude: ['src/**/*.spec.ts'] }),
    'tsconfig.spec.json': JSON.stringify({ include: ['src/**/*.spec.ts'] }),
    'src/math.ts': 'export function addUp(a: number, b: number): number {\n  return a + b\n}\n',
    'src/math.spec.ts': "import { addUp } from './math'\n\nexport const checked = addUp(2, 3) === 5\n",
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true })
    writeFileSync(nodePath.join(root, path), text)
  }
  return root
}

async function typeScriptProfile(): Promise<ServerProfile> {
  const profile = (await builtinProfiles()).find((p) => p.id === 'typescript')
  if (profile === undefined) throw new Error('the built-in typescript profile is missing')
  return profile
}

describe('project graph prefetch', () => {
  test('prefetch reads the graph once; the first query takes the cached read', async () => {
    const root = twoProjects()
    const profile = await typeScriptProfile()
    const loader = new ProjectLoader(100)
    const cache = {
      get graphs() {
        return graphsOf(loader)
      },
    }
    loader.prefetch(root, profile, 30_000, new AbortController().signal)
    expect(cache.graphs.size).toBe(1)
    const entry = [...cache.graphs.values()][0]
    const graph = await entry!.graph
    expect(graph.projects.map((p) => nodePath.basename(p.config)).sort()).toEqual([
      'tsconfig.app.json',
      'tsconfig.json',
      'tsconfig.spec.json',
    ])
    // A second prefetch (the workspace opened again) keeps the one read.
    loader.prefetch(root, profile, 30_000, new AbortController().signal)
    expect(cache.graphs.size).toBe(1)
    expect([...cache.graphs.values()][0]).toBe(entry)
  })

  test('a prefetch stopped with the host is dropped, so the first query reads the graph again', async () => {
    const root = twoProjects()
    const profile = await typeScriptProfile()
    const loader = new ProjectLoader(100)
    const cache = {
      get graphs() {
        return graphsOf(loader)
      },
    }
    const lifetime = new AbortController()
    loader.prefetch(root, profile, 30_000, lifetime.signal)
    const entry = [...cache.graphs.values()][0]
    lifetime.abort()
    await expect(entry!.graph).rejects.toMatchObject({ code: 'CANCELLED' })
    await vi.waitFor(() => expect(cache.graphs.size).toBe(0))
  })

  test('profiles that do not load every project are not prefetched', async () => {
    const root = twoProjects()
    const profile = { ...(await typeScriptProfile()), loadAllProjects: false as const }
    const loader = new ProjectLoader(100)
    loader.prefetch(root, profile, 30_000, new AbortController().signal)
    expect(graphsOf(loader).size).toBe(0)
  })

  test('opening a workspace with TypeScript files starts the read; a root without any does not', async () => {
    const config = await resolveHostConfig({}, await builtinProfiles())
    const core = new HostCore(config, { clientCapabilities: clientCapabilitiesFor, negotiatedOperations })
    const loader = (core as unknown as { projects: ProjectLoader }).projects
    const cache = {
      get graphs() {
        return graphsOf(loader)
      },
    }
    try {
      const empty = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-prefetch-empty-')))
      roots.push(empty)
      writeFileSync(nodePath.join(empty, 'notes.txt'), 'no sources here\n')
      const none = new LocalWorkspace('empty', await Containment.forRoot(empty), 'untrusted', core)
      core.addWorkspace(none, empty)
      core.prefetchProjects(none)

      const root = twoProjects()
      const workspace = new LocalWorkspace('ts', await Containment.forRoot(root), 'untrusted', core)
      core.addWorkspace(workspace, root)
      core.prefetchProjects(workspace)
      await vi.waitFor(() => expect([...cache.graphs.keys()].some((key) => key.startsWith(`${root}\0`))).toBe(true))
      const graph = await [...cache.graphs.entries()].find(([key]) => key.startsWith(`${root}\0`))![1].graph
      expect(graph.projects.map((p) => nodePath.basename(p.config)).sort()).toEqual([
        'tsconfig.app.json',
        'tsconfig.json',
        'tsconfig.spec.json',
      ])
      expect([...cache.graphs.keys()].some((key) => key.startsWith(`${empty}\0`))).toBe(false)
    } finally {
      await core.dispose()
    }
  })
})
