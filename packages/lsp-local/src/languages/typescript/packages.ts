import { statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { listFiles } from '../../profile/files.js'

// The workspace's packages, as what reaches a target (reach.ts) reads them: package.json files, never resolved the
// way the compiler resolves them, but enough to tell an import of a package that cannot resolve into it.

/** A workspace package: its folder, `name` and the names its dependencies list. */
export interface WorkspacePackage {
  readonly dir: string
  readonly name?: string
  readonly depends: ReadonlyArray<string>
  /**
   * Every path its package.json gives an importer (`types`, `typings`, `main`, `module`, `exports`, `typesVersions`),
   * and `index`: an import of the package resolves only when one of them exists (see {@link resolvable}).
   */
  readonly entries: ReadonlyArray<string>
}

const entryFields = ['types', 'typings', 'main', 'module', 'exports', 'typesVersions'] as const

/**
 * The paths in a package.json field: a string, or nested in `exports`' subpaths and conditions and typesVersions' maps.
 * A condition the compiler never applies unless a config's `customConditions` names it (`browser`, `@scope/source`:
 * none applies in an inferred project) leads nowhere; nor does a JSON file (it declares no symbol).
 */
function pathsIn(value: unknown, into: string[]): string[] {
  if (typeof value === 'string') {
    if (!value.endsWith('.json')) into.push(value)
  } else if (Array.isArray(value)) for (const each of value) pathsIn(each, into)
  else if (typeof value === 'object' && value !== null)
    for (const [key, each] of Object.entries(value))
      if (!isCondition(key) || appliedConditions.has(key) || key.startsWith('types@')) pathsIn(each, into)
  return into
}

/** The conditions the compiler applies of itself, under any module resolution. */
const appliedConditions = new Set(['types', 'import', 'require', 'node', 'default', 'module-sync'])

/** An `exports` key naming a condition (a subpath starts with `.`; typesVersions' keys are version ranges and patterns). */
function isCondition(key: string): boolean {
  return !key.startsWith('.') && !key.includes('*') && !/^[<>=~^\d]/.test(key)
}

const entryExtensions = ['', '.ts', '.tsx', '.d.ts', '.mts', '.cts', '.d.mts', '.d.cts', '.js', '.jsx', '.mjs', '.cjs']

/**
 * Whether an import of the package by name can resolve into it: one of its entries exists as given, with a script
 * extension (the compiler tries `x.ts` for `x.js`) or as a folder holding an index; a pattern (`*`) counts as one. A
 * package whose entries point only at outputs not built (and that has no index) gives an importer nothing of it.
 */
export function resolvable(pkg: WorkspacePackage): boolean {
  const exists = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true
  return pkg.entries.some((entry) => {
    if (entry.includes('*')) return true
    const path = nodePath.resolve(pkg.dir, entry)
    if (!isWithinPath(pkg.dir, path)) return true
    const bases = [path, stripped(path), stripped(path).replace(/\.d$/, ''), nodePath.join(path, 'index')]
    return bases.some((base) => entryExtensions.some((extension) => exists(base + extension)))
  })
}

function isWithinPath(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir + nodePath.sep)
}

const dependencyFields = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const

/** Reads the workspace's package.json files (node_modules and dot folders are not walked). */
export async function workspacePackages(folder: string): Promise<ReadonlyMap<string, WorkspacePackage>> {
  const { files } = await listFiles(folder, { names: new Set(['package.json']) }, 5_000)
  const byDir = new Map<string, WorkspacePackage>()
  await Promise.all(
    files.map(async (file) => {
      try {
        const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
        const depends = dependencyFields.flatMap((field) => Object.keys((json[field] as object | null | undefined) ?? {}))
        const name = typeof json['name'] === 'string' ? json['name'] : undefined
        const entries = entryFields.reduce((into, field) => pathsIn(json[field], into), ['index'])
        byDir.set(nodePath.dirname(file), { dir: nodePath.dirname(file), ...(name === undefined ? {} : { name }), depends, entries })
      } catch {
        // Unreadable: whatever an importer may find in it.
        byDir.set(nodePath.dirname(file), { dir: nodePath.dirname(file), depends: [], entries: ['*'] })
      }
    }),
  )
  return byDir
}

/** The package a path lies in: the nearest package.json at or above it, within the folder. */
export function packageOf(packages: ReadonlyMap<string, WorkspacePackage>, folder: string, path: string): WorkspacePackage | undefined {
  for (let dir = path; dir.length >= folder.length; dir = nodePath.dirname(dir)) {
    const found = packages.get(dir)
    if (found !== undefined) return found
    if (dir === nodePath.dirname(dir)) break
  }
  return undefined
}

/** A path without a script extension (`./units.js` may be `units.ts`). */
export function stripped(path: string): string {
  return path.replace(/\.[cm]?[jt]sx?$/, '')
}
