import { createHash } from 'node:crypto'
import { chmod, mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import {
  documentFreshness,
  findStoredIndex,
  indexStoreDirectory,
  readScipIndex,
  readStoredIndex,
  rootPrefix,
  staleDocuments,
} from '@codeseam/lsp-index'
import { builtinIndexers } from '@codeseam/lsp-local'
import { copyFixture } from '@codeseam/lsp/testing'
import { afterAll, describe, expect, it, test } from 'vitest'

import { runBuiltCli, type CliRun } from './support/mcp-process.js'

// `codeseam index` through the built bin, with the real indexer (installed by `codeseam install`, as CI's
// scripts/install-language-servers.mjs does) on copies of the seam's TypeScript conformance fixture. The store is the
// real one in codeseam's cache; each copy is a fresh root, so its entries are its own and are removed after.

const indexer = (await builtinIndexers()).find((i) => i.language.includes('TypeScript'))
const installed = indexer?.found === true
if (!installed) {
  const advice = `codeseam install ${indexer?.id ?? '(no indexer record)'}`
  if (process.env['CI'] === 'true') throw new Error(`CI=true and the indexer is missing (${indexer?.why ?? ''}): ${advice}`)
  console.warn(`skipping codeseam index tests: the indexer is missing; run ${advice}`)
}

const roots: string[] = []
afterAll(async () => {
  const store = indexStoreDirectory()
  const names = await readdir(store).catch(() => [] as string[])
  for (const root of roots) {
    for (const name of names.filter((n) => n.startsWith(`${rootPrefix(root)}-`)))
      await rm(nodePath.join(store, name), { recursive: true, force: true })
    await rm(root, { recursive: true, force: true })
  }
})

async function fixture(): Promise<string> {
  const { root } = await copyFixture()
  roots.push(root)
  return root
}

interface IndexJson {
  readonly root: string
  readonly key: string
  readonly directory: string
  readonly reused: boolean
  readonly documents: number
  readonly bytes: number
}

function index(root: string, args: ReadonlyArray<string> = [], env: NodeJS.ProcessEnv = process.env): Promise<CliRun> {
  return runBuiltCli(['index', '--root', root, ...args], { cwd: root, env, deadlineMs: 150_000 })
}

async function indexJson(root: string): Promise<IndexJson> {
  const run = await index(root, ['--json'])
  expect(run.code, run.stderr).toBe(0)
  return JSON.parse(run.stdout) as IndexJson
}

/** Every file under a folder, relative, sorted. */
async function listing(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true })).map(String).sort()
}

const sha256 = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex')

describe.skipIf(!installed)('codeseam index', () => {
  it(
    'stores an index that decodes, with a sidecar whose hashes are the files’; nothing is written into the root',
    { timeout: 200_000 },
    async () => {
      const root = await fixture()
      const before = await listing(root)
      const run = await index(root)
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).toContain(`indexing ${root} with ${indexer?.id} ${indexer?.version}`)
      expect(run.stdout).toMatch(/^indexed .+: 3 documents, \d+ KB, in [\d.]+ s\n {2}\/.+\/index\.scip\n$/)
      expect(await listing(root)).toEqual(before)

      const stored = await findStoredIndex(root)
      expect(stored, 'the store has an entry for the root').toBeDefined()
      if (stored === undefined) return
      expect(run.stdout).toContain(stored.indexPath)
      const decoded = await readScipIndex(stored.indexPath)
      expect(decoded.projectRoot).toBe(root)
      expect(decoded.documents.map((d) => d.relativePath).sort()).toEqual(Object.keys(stored.sidecar.documents).sort())
      for (const [path, hash] of Object.entries(stored.sidecar.documents)) expect(hash, path).toBe(await sha256(nodePath.join(root, path)))
      expect(stored.sidecar.indexer).toEqual({ name: indexer?.id, version: indexer?.version })
      expect(stored.sidecar.compiler).toMatch(/^typescript 5\./)
      expect(staleDocuments(await documentFreshness(stored.sidecar))).toEqual([])
    },
  )

  it('reuses the entry when nothing changed; after a plain write the freshness names exactly that file', { timeout: 300_000 }, async () => {
    const root = await fixture()
    const first = await indexJson(root)
    expect(first.reused).toBe(false)
    const indexFile = nodePath.join(first.directory, 'index.scip')
    const built = await stat(indexFile)
    const sidecar = await readFile(nodePath.join(first.directory, 'sidecar.json'), 'utf8')

    // Nothing changed: the same key, the same entry, untouched (same inode and mtime, same sidecar), and the
    // indexer never ran (no progress line). The outlines this build keeps beside an entry are written again when
    // missing (an entry another build wrote lacks this build's).
    const outlines = (await readdir(first.directory)).filter((name) => /^outlines-[0-9a-f]{16}\.bin$/.test(name))
    expect(outlines).toHaveLength(1)
    await unlink(nodePath.join(first.directory, outlines[0] ?? ''))
    const again = await index(root, ['--json'])
    expect(again.code, again.stderr).toBe(0)
    const second = JSON.parse(again.stdout) as IndexJson
    expect(second).toMatchObject({ key: first.key, directory: first.directory, reused: true })
    expect(again.stderr).toBe('')
    const kept = await stat(indexFile)
    expect([kept.ino, kept.mtimeMs]).toEqual([built.ino, built.mtimeMs])
    expect(await readFile(nodePath.join(first.directory, 'sidecar.json'), 'utf8')).toBe(sidecar)
    expect((await readdir(first.directory)).filter((name) => name.startsWith('outlines-'))).toEqual(outlines)

    // A plain write to one file: exactly that one is stale; a deleted one is missing.
    const entry = await readStoredIndex(first.directory)
    if (entry === undefined) throw new Error('no entry')
    const shapes = nodePath.join(root, 'src', 'shapes.ts')
    await writeFile(shapes, `${await readFile(shapes, 'utf8')}\nexport const added = 1\n`)
    const freshness = await documentFreshness(entry.sidecar)
    expect(staleDocuments(freshness)).toEqual(['src/shapes.ts'])
    expect(freshness.get('src/shapes.ts')).toBe('changed')
    expect([...freshness.values()].filter((s) => s === 'unchanged').length).toBe(freshness.size - 1)
    await unlink(nodePath.join(root, 'src', 'geometry.ts'))
    const after = await documentFreshness(entry.sidecar)
    expect(after.get('src/geometry.ts')).toBe('missing')
    expect(staleDocuments(after)).toEqual(['src/geometry.ts', 'src/shapes.ts'])

    // Indexing again is another entry (another content digest), and the newest is the one found.
    await writeFile(nodePath.join(root, 'src', 'geometry.ts'), 'export const restored = 1\n')
    const third = await indexJson(root)
    expect(third.reused).toBe(false)
    expect(third.key).not.toBe(first.key)
    const newest = await findStoredIndex(root)
    expect(newest?.directory).toBe(third.directory)
    expect(staleDocuments(await documentFreshness(newest?.sidecar ?? entry.sidecar))).toEqual([])
  })

  it(
    'runs nothing the workspace chooses in an untrusted root: no pnpm for its workspace list, no tsconfig plugin',
    { timeout: 300_000 },
    async () => {
      const root = await fixture()
      const bin = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-index-bin-'))
      roots.push(bin)
      const pnpmMarker = nodePath.join(bin, 'pnpm-ran')
      const pluginMarker = nodePath.join(bin, 'plugin-ran')
      // A workspace list (the indexer's --pnpm-workspaces runs `pnpm ls` in the root) and a tsconfig plugin module.
      await writeFile(nodePath.join(root, 'pnpm-workspace.yaml'), "packages:\n  - '.'\n")
      await writeFile(nodePath.join(bin, 'pnpm'), `#!/bin/sh\ntouch '${pnpmMarker}'\n`)
      await chmod(nodePath.join(bin, 'pnpm'), 0o755)
      await writeFile(
        nodePath.join(root, 'plugin.js'),
        `require('fs').writeFileSync(${JSON.stringify(pluginMarker)}, 'ran')\nmodule.exports = () => ({ create: (info) => info.languageService })\n`,
      )
      const tsconfig = JSON.parse(await readFile(nodePath.join(root, 'tsconfig.json'), 'utf8')) as {
        compilerOptions?: Record<string, unknown>
      }
      tsconfig.compilerOptions = { ...tsconfig.compilerOptions, plugins: [{ name: './plugin.js' }] }
      await writeFile(nodePath.join(root, 'tsconfig.json'), JSON.stringify(tsconfig))
      const env = { ...process.env, PATH: `${bin}${nodePath.delimiter}${process.env['PATH'] ?? ''}` }

      const untrusted = await index(root, [], env)
      expect(untrusted.code, untrusted.stderr).toBe(0)
      // plugin.js is a file of no project: indexed (read by the compiler, never run) beside the project's 3 files.
      expect(untrusted.stdout).toContain('4 documents')
      await expect(stat(pnpmMarker)).rejects.toThrow()
      await expect(stat(pluginMarker)).rejects.toThrow()

      // The trusted twin lists the workspace with the pnpm on PATH (the path exists), and still loads no plugin.
      await index(root, ['--trust', 'trusted'], env)
      expect((await stat(pnpmMarker)).isFile()).toBe(true)
      await expect(stat(pluginMarker)).rejects.toThrow()
    },
  )

  it(
    'indexes every project of a monorepo without a root tsconfig.json, untrusted (no package manager runs)',
    { timeout: 300_000 },
    async () => {
      const root = await fixture()
      // The fixture's project moved into two packages: packages/a (the sources) and packages/b (a file of its own).
      const sources = (await readdir(nodePath.join(root, 'src'))).filter((name) => name.endsWith('.ts'))
      const { mkdir, rename } = await import('node:fs/promises')
      await mkdir(nodePath.join(root, 'packages', 'b', 'src'), { recursive: true })
      await rename(nodePath.join(root, 'src'), nodePath.join(root, 'packages', 'a-src'))
      await mkdir(nodePath.join(root, 'packages', 'a'), { recursive: true })
      await rename(nodePath.join(root, 'packages', 'a-src'), nodePath.join(root, 'packages', 'a', 'src'))
      await rename(nodePath.join(root, 'tsconfig.json'), nodePath.join(root, 'packages', 'a', 'tsconfig.json'))
      await writeFile(nodePath.join(root, 'packages', 'b', 'tsconfig.json'), '{ "include": ["src"] }\n')
      await writeFile(nodePath.join(root, 'packages', 'b', 'src', 'own.ts'), 'export const own = 1\n')
      // A script of no project, and build output of none: the script is indexed too, the build output is not.
      await mkdir(nodePath.join(root, 'scripts'), { recursive: true })
      await writeFile(
        nodePath.join(root, 'scripts', 'tool.ts'),
        "import { own } from '../packages/b/src/own'\nexport const twice = own * 2\n",
      )
      await mkdir(nodePath.join(root, 'packages', 'b', 'dist'), { recursive: true })
      await writeFile(nodePath.join(root, 'packages', 'b', 'dist', 'own.js'), 'export const own = 1\n')
      const before = await listing(root)
      const result = await indexJson(root)
      expect(await listing(root)).toEqual(before)
      expect(result.documents).toBe(sources.length + 2)
      const entry = await readStoredIndex(result.directory)
      expect(Object.keys(entry?.sidecar.documents ?? {})).toEqual(
        expect.arrayContaining(['packages/b/src/own.ts', 'scripts/tool.ts', ...sources.map((name) => `packages/a/src/${name}`)]),
      )
      // The generated config of the files of no project stays in the entry; the second run's own index was appended.
      const generated = JSON.parse(await readFile(nodePath.join(result.directory, 'files-of-no-project', 'tsconfig.json'), 'utf8')) as {
        files: string[]
      }
      expect(generated.files).toEqual([nodePath.join(root, 'scripts', 'tool.ts')])
      expect(
        (await readdir(result.directory)).sort().map((name) => name.replace(/^outlines-[0-9a-f]{16}\.bin$/, 'outlines-BUILD.bin')),
      ).toEqual(['disk-hashes.json', 'files-of-no-project', 'index-table.json', 'index.scip', 'outlines-BUILD.bin', 'sidecar.json'])
      // Which projects were given is part of the entry's variant, so an entry from an older rule is not reused.
      expect(entry?.sidecar.variant).toEqual(['files-of-no-project', 'packages/a', 'packages/b'])
      // The files keyed but not indexed are listed with their hashes: unchanged, they are not new since (RFC 0034).
      expect(Object.keys(entry?.sidecar.unindexed ?? {})).toEqual([
        'package.json',
        'packages/a/tsconfig.json',
        'packages/b/dist/own.js',
        'packages/b/tsconfig.json',
      ])
    },
  )

  it('refuses a root without tsconfig.json rather than writing one into it', { timeout: 60_000 }, async () => {
    const root = await fixture()
    await unlink(nodePath.join(root, 'tsconfig.json'))
    const before = await listing(root)
    const run = await index(root)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('has no tsconfig.json')
    expect(await listing(root)).toEqual(before)
  })
})

test('docs/cli.md and `codeseam doctor` state the install command the indexer record gives', async () => {
  const repo = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
  expect(indexer, 'a TypeScript indexer record').toBeDefined()
  const install = indexer?.install ?? 'none'
  expect(await readFile(nodePath.join(repo, 'docs', 'cli.md'), 'utf8')).toContain(
    `\`codeseam install ${indexer?.id}\` runs\n\`${install}\``,
  )
  const doctor = await runBuiltCli(['doctor', '--json'], { cwd: repo, env: process.env, deadlineMs: 60_000 })
  const listed = (JSON.parse(doctor.stdout) as { indexers: Array<{ id: string; install: string; found: boolean }> }).indexers
  expect(listed).toEqual([expect.objectContaining({ id: indexer?.id, install, found: installed })])
})
