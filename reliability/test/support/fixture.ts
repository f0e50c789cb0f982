// A small real TypeScript workspace inside a scratch folder, with a sentinel folder next to it (outside the
// root) and symlinks from inside the root to it: the ground on which containment and atomicity are tested.
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

export const aText = "export function greet(name: string): string {\n  return 'hello ' + name\n}\n"
export const bText = "import { greet } from './a.js'\n\nexport const message = greet('world')\n"
export const cText = "import { greet } from '../src/a.js'\n\nexport const other = greet('again')\n"
export const sentinelText = "export const secret = 'SENTINEL: nothing may read or write me'\n"

export interface Fixture {
  /** The scratch folder holding the root and the outside folder. */
  readonly scratch: string
  /** The workspace root. */
  readonly root: string
  /** A folder outside the root with the sentinel file. */
  readonly outside: string
  readonly sentinel: string
  dispose(): Promise<void>
}

/** Writes the workspace: src/a.ts, src/b.ts, lib/c.ts, tsconfig, and symlinks that escape the root. */
export async function createFixture(prefix: string): Promise<Fixture> {
  const scratch = realpathSync(await mkdtemp(nodePath.join(tmpdir(), prefix)))
  const root = nodePath.join(scratch, 'workspace')
  const outside = nodePath.join(scratch, 'outside')
  for (const dir of [nodePath.join(root, 'src'), nodePath.join(root, 'lib'), nodePath.join(root, 'links'), outside])
    mkdirSync(dir, { recursive: true })
  writeFileSync(nodePath.join(root, 'package.json'), '{ "name": "reliability-fixture", "private": true, "type": "module" }\n')
  writeFileSync(
    nodePath.join(root, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src', 'lib'] }, null, 2)}\n`,
  )
  writeFileSync(nodePath.join(root, 'src', 'a.ts'), aText)
  writeFileSync(nodePath.join(root, 'src', 'b.ts'), bText)
  writeFileSync(nodePath.join(root, 'lib', 'c.ts'), cText)
  const sentinel = nodePath.join(outside, 'secret.ts')
  writeFileSync(sentinel, sentinelText)
  // Old times, atime before mtime: any read updates atime even under relatime, so a read is visible.
  const day = 24 * 3600
  const now = Date.now() / 1000
  utimesSync(sentinel, now - 3 * day, now - 2 * day)
  // links/ is not part of the TypeScript project, so the language server itself never opens what they point to.
  symlinkSync(sentinel, nodePath.join(root, 'links', 'escape.ts'))
  symlinkSync(outside, nodePath.join(root, 'links', 'outside-dir'))
  return { scratch, root, outside, sentinel, dispose: () => rm(scratch, { recursive: true, force: true }) }
}

/** Every file and folder under `dir` (not following symlinks), relative paths. */
export function listTree(dir: string, prefix = ''): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`
    out.push(relative)
    if (entry.isDirectory()) out.push(...listTree(nodePath.join(dir, entry.name), relative))
  }
  return out.sort()
}

/** Content hash, access and modification time of a file. */
export function fileState(path: string): { hash: string; atimeMs: number; mtimeMs: number } {
  const stat = statSync(path)
  return { hash: createHash('sha256').update(readFileSync(path)).digest('hex'), atimeMs: stat.atimeMs, mtimeMs: stat.mtimeMs }
}

/** Content hashes of every regular file under `dir`. */
export function treeHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const relative of listTree(dir)) {
    const path = nodePath.join(dir, relative)
    const stat = statSync(path, { throwIfNoEntry: false })
    if (stat?.isFile() === true && !relative.startsWith('links/'))
      out[relative] = createHash('sha256').update(readFileSync(path)).digest('hex')
  }
  return out
}
