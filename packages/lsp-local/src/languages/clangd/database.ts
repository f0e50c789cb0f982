// compile_commands.json as the JSON Compilation Database format defines it, for clangd: a relative `directory`
// resolved against the database's folder, in a copy codeseam writes to its own cache (never the user's file).
import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import type { ConfigWatch } from '../record.js'
import { listFiles, skippedFolders } from '../../profile/files.js'
import { codeseamCacheDir } from '../lookup.js'

/*
 * clangd 19 keys a database's entries by `directory` + `file`; with a relative `directory` that key is a
 * relative path no source file ever matches, so every file is parsed with clangd's fallback command (no
 * defines, no include paths, no -std: C++20 module files misread). The format ("directory: The working
 * directory of the compilation. All paths specified in the command or file fields must be either absolute or
 * relative to this directory") leaves a relative `directory` to the tool; tools that accept one resolve it
 * against the database's folder, and so does codeseam.
 *
 * clangd finds each file's database itself: the nearest folder above the file holding `compile_commands.json`,
 * `build/compile_commands.json` or `compile_flags.txt` (in that order), interpolating from that database for
 * files it does not list. A copy elsewhere can only be given with `--compile-commands-dir`, and then clangd
 * reads that one database for every file. So nothing changes for a tree whose databases all have absolute
 * directories (clangd's own search, untouched); when one needs its directories resolved, the copy is one
 * database for the whole root that keeps what the per-file search would have given: every database in the
 * tree, each entry kept only when that database is the one clangd's search picks for its file (the nearest),
 * and each folder served by a `compile_flags.txt` given one entry per C/C++ file with those flags. Only
 * interpolation differs: a file no database lists borrows from the closest listed file of the whole root
 * rather than of its own database (closest by path, so usually the same).
 */

/** The file names clangd's search looks for in each folder, in its order (`build/` is a subfolder). */
const databaseNames = ['compile_commands.json', nodePath.join('build', 'compile_commands.json'), 'compile_flags.txt'] as const

/** Folders walked looking for databases; a larger tree is left to clangd's own search. */
const folderLimit = 20_000

/** What a root's clangd was started with: the copy it reads, when it reads one. */
interface RootState {
  readonly copy: string
  readonly extensions: ReadonlySet<string>
  written: Promise<void>
}
const redirected = new Map<string, RootState>()

/** Where the copy for a root lives: `$XDG_CACHE_HOME/codeseam/clangd-databases/<hash of the root>/compile_commands.json`. */
export function databaseCopyFor(root: string): string {
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 16)
  return nodePath.join(codeseamCacheDir('clangd-databases'), hash, 'compile_commands.json')
}

/** The last rewrite of a root's copy started by a change of one of its databases, finished. */
export async function databaseCopyWritten(root: string): Promise<void> {
  await redirected.get(root)?.written
}

/** One database clangd's search would find, and the folder whose files it serves. */
interface Database {
  /** The folder clangd's search stops at (for `build/compile_commands.json`, the folder above `build`). */
  readonly owner: string
  readonly path: string
  readonly kind: 'json' | 'flags'
}

/** The databases of the root, one per folder as clangd picks them; undefined when the tree is too large to walk. */
async function findDatabases(root: string): Promise<Database[] | undefined> {
  const found: Database[] = []
  const queue = [root]
  let visited = 0
  while (queue.length > 0) {
    const dir = queue.shift() as string
    if (++visited > folderLimit) return undefined
    let entries: import('node:fs').Dirent[]
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch {
      continue
    }
    const names = new Set(entries.map((entry) => entry.name))
    for (const name of databaseNames) {
      const first = name.split(nodePath.sep)[0] as string
      if (!names.has(first)) continue
      const path = nodePath.join(dir, name)
      // Only files inside the root are read: a database linked in from outside is left to clangd.
      if (!inside(root, path)) continue
      found.push({ owner: dir, path, kind: name === 'compile_flags.txt' ? 'flags' : 'json' })
      break
    }
    for (const entry of entries)
      if (entry.isDirectory() && !skippedFolders.has(entry.name) && !entry.name.startsWith('.')) queue.push(nodePath.join(dir, entry.name))
  }
  return found
}

function inside(root: string, path: string): boolean {
  try {
    const real = realpathSync(path)
    return real.startsWith(root + nodePath.sep)
  } catch {
    return false
  }
}

interface Entry {
  directory?: unknown
  file?: unknown
  [field: string]: unknown
}

async function readEntries(path: string): Promise<Entry[] | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'))
    return Array.isArray(parsed) ? parsed.filter((e): e is Entry => e !== null && typeof e === 'object' && !Array.isArray(e)) : undefined
  } catch {
    return undefined
  }
}

/** The folder whose database serves `file`: the nearest owner above it. */
function ownerOf(file: string, owners: ReadonlySet<string>, root: string): string | undefined {
  let dir = nodePath.dirname(file)
  while (dir === root || dir.startsWith(root + nodePath.sep)) {
    if (owners.has(dir)) return dir
    dir = nodePath.dirname(dir)
  }
  return undefined
}

/**
 * The one database for the root, or undefined when clangd's own search already reads every database right
 * (none has a relative `directory`).
 */
async function mergedDatabase(root: string, extensions: ReadonlySet<string>, always = false): Promise<Entry[] | undefined> {
  const databases = await findDatabases(root)
  if (databases === undefined) return undefined
  const parsed = new Map<Database, Entry[]>()
  let relative = false
  for (const database of databases.filter((d) => d.kind === 'json')) {
    const entries = await readEntries(database.path)
    if (entries === undefined) continue
    parsed.set(database, entries)
    if (entries.some((e) => typeof e.directory === 'string' && !nodePath.isAbsolute(e.directory))) relative = true
  }
  if (!relative && !always) return undefined
  const owners = new Set(databases.map((d) => d.owner))
  const merged: Entry[] = []
  for (const database of databases) {
    if (database.kind === 'flags') {
      merged.push(...(await flagsEntries(database, owners, root, extensions)))
      continue
    }
    for (const entry of parsed.get(database) ?? []) {
      if (typeof entry.directory !== 'string' || typeof entry.file !== 'string') continue
      const directory = nodePath.resolve(nodePath.dirname(database.path), entry.directory)
      const owner = ownerOf(nodePath.resolve(directory, entry.file), owners, root)
      // clangd would ask another database about this file: that one's entry (or none) stands.
      if (owner !== undefined && owner !== database.owner) continue
      merged.push({ ...entry, directory })
    }
  }
  return merged
}

/** A `compile_flags.txt` as entries: its flags (one a line) for each C/C++ file of the folders it serves. */
async function flagsEntries(
  database: Database,
  owners: ReadonlySet<string>,
  root: string,
  extensions: ReadonlySet<string>,
): Promise<Entry[]> {
  let flags: string[]
  try {
    flags = (await readFile(database.path, 'utf8'))
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '')
  } catch {
    return []
  }
  const { files } = await listFiles(database.owner, { extensions }, 10_000)
  return files
    .filter((file) => ownerOf(file, owners, root) === database.owner)
    .map((file) => ({ directory: database.owner, file, arguments: ['clang', ...flags, file] }))
}

async function writeCopy(root: string, entries: ReadonlyArray<Entry>): Promise<string> {
  const copy = databaseCopyFor(root)
  await mkdir(nodePath.dirname(copy), { recursive: true, mode: 0o700 })
  // Written aside and renamed: clangd never reads half a file.
  const partial = `${copy}.${process.pid}.partial`
  await writeFile(partial, `${JSON.stringify(entries, null, 1)}\n`, { mode: 0o600 })
  await rename(partial, copy)
  return copy
}

/** A value for clangd's command-line tokenizer (GNU rules): quoted, with `\` and `"` escaped. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`
}

/**
 * The environment a root's clangd needs: when a database has a relative `directory`, the copy is written and
 * `CLANGD_FLAGS` points clangd at it (`--compile-commands-dir`); otherwise nothing. A profile that chooses its
 * own `--compile-commands-dir` keeps it.
 */
export async function databaseEnvironment(
  root: string,
  args: ReadonlyArray<string>,
  extensions: ReadonlySet<string>,
): Promise<Readonly<Record<string, string>>> {
  redirected.delete(root)
  if (args.some((arg) => /^--?compile-commands-dir\b/.test(arg))) return {}
  const merged = await mergedDatabase(root, extensions)
  if (merged === undefined) return {}
  const copy = await writeCopy(root, merged)
  redirected.set(root, { copy, extensions, written: Promise.resolve() })
  return { CLANGD_FLAGS: `--compile-commands-dir=${quoted(nodePath.dirname(copy))}` }
}

/**
 * A database under the root created, changed or deleted while clangd runs: the copy is written again (clangd
 * re-reads a database whose file changed, as it does one it reads itself). A root that had no copy gets one at
 * clangd's next start: the flag that points clangd at it is given at start.
 */
export function databaseWatch(root: string): ConfigWatch {
  return {
    isConfig: (path) =>
      path.startsWith(root + nodePath.sep) &&
      (nodePath.basename(path) === 'compile_commands.json' || nodePath.basename(path) === 'compile_flags.txt'),
    onConfigChange: () => {
      const state = redirected.get(root)
      if (state === undefined) return
      state.written = state.written
        .then(async () => {
          if (redirected.get(root) !== state) return
          // Written even when every directory is absolute again: clangd reads the copy until it restarts.
          const merged = await mergedDatabase(root, state.extensions, true)
          if (merged !== undefined) await writeCopy(root, merged)
        })
        .catch(() => undefined)
    },
  }
}
