import { existsSync, readFileSync, readdirSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, test } from 'vitest'

/*
 * LAYERS: a module of src/ imports only from its own folder or a folder on a lower floor (README "Layers"). The
 * floors, lowest first. Two folders share a floor only when neither imports the other (checked below), so the order
 * is strict: no folder imports one that imports it back. A new folder needs a floor here before it can hold code.
 */
const floors: ReadonlyArray<ReadonlyArray<string>> = [
  ['documents'],
  // The profile vocabulary the records are written in: ServerProfile, support tables, files, executables.
  ['profile'],
  // The language records; the hooks take interfaces defined here or below.
  ['languages'],
  // What derives from the records: config, trust, limits, environment; beside it the indexers (their install data is
  // written in the records' vocabulary; neither imports the other).
  ['policy', 'indexers'],
  ['server'],
  ['workspace'],
  ['pool'],
  // Side by side, not stacked: neither imports the other; the top level composes both (features answer through
  // pool/, a companion answers beside a server).
  ['features', 'companions'],
  // The files directly in src/: host.ts, provider.ts, providers.ts, index.ts.
  ['.'],
]

const src = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), '..', 'src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = nodePath.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : []
  })
}

/** A path relative to src/, with `/`. */
const relative = (path: string): string => nodePath.relative(src, path).split(nodePath.sep).join('/')

/** The folder of src/ a file belongs to (its first path segment; `.` for a file directly in src/). */
function folderOf(path: string): string {
  const parts = relative(path).split('/')
  return parts.length === 1 ? '.' : (parts[0] ?? '.')
}

function floorOf(folder: string): number | undefined {
  const floor = floors.findIndex((names) => names.includes(folder))
  return floor === -1 ? undefined : floor
}

/** Relative specifiers of `… from '…'` (imports and re-exports), `import '…'` and `import('…')`. */
function relativeImports(text: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\1/g
  return [...text.matchAll(pattern)].map((match) => match[2] ?? '')
}

interface Edge {
  readonly from: string
  readonly to: string
  readonly fromFolder: string
  readonly toFolder: string
}

const edges: Edge[] = sourceFiles(src).flatMap((file) =>
  relativeImports(readFileSync(file, 'utf8')).map((specifier) => {
    const target = nodePath.resolve(nodePath.dirname(file), specifier).replace(/\.js$/, '.ts')
    return { from: relative(file), to: relative(target), fromFolder: folderOf(file), toFolder: folderOf(target) }
  }),
)

describe('import layers of src/', () => {
  test('finds the imports (a wrong folder or pattern would pass vacuously)', () => {
    expect(edges.length).toBeGreaterThan(200)
    expect(edges).toContainEqual(expect.objectContaining({ from: 'pool/slot.ts', to: 'server/language-server.ts' }))
    expect(edges).toContainEqual(expect.objectContaining({ from: 'index.ts', to: 'host.ts' }))
    expect(edges).toContainEqual(expect.objectContaining({ from: 'languages/record.ts', to: 'profile/profiles.ts' }))
    expect(edges).toContainEqual(expect.objectContaining({ from: 'policy/trust.ts', to: 'languages/index.ts' }))
  })

  test('every relative import names a file of src/', () => {
    const dangling = edges.filter((e) => e.to.startsWith('..') || !existsSync(nodePath.join(src, e.to))).map((e) => `${e.from} → ${e.to}`)
    expect(dangling).toEqual([])
  })

  test('every folder of src/ has a floor', () => {
    const folders = [...new Set(sourceFiles(src).map(folderOf))]
    expect(folders.filter((folder) => floorOf(folder) === undefined)).toEqual([])
  })

  test('no import runs upward (to a folder on a higher floor)', () => {
    const upward = edges
      .filter((e) => (floorOf(e.toFolder) ?? -1) > (floorOf(e.fromFolder) ?? Number.POSITIVE_INFINITY))
      .map((e) => `${e.from} (${e.fromFolder}/, floor ${floorOf(e.fromFolder)}) → ${e.to} (${e.toFolder}/, floor ${floorOf(e.toFolder)})`)
    expect(upward).toEqual([])
  })

  test('no folder imports another folder of its own floor', () => {
    const sideways = edges
      .filter((e) => e.fromFolder !== e.toFolder && floorOf(e.fromFolder) === floorOf(e.toFolder))
      .map((e) => `${e.from} (${e.fromFolder}/) → ${e.to} (${e.toFolder}/), both on floor ${floorOf(e.fromFolder)}`)
    expect(sideways).toEqual([])
  })
})
