import { createHash } from 'node:crypto'
import { lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import * as nodePath from 'node:path'

/*
 * The index store (issue 52, RFC 0031 "The store and the sidecar"): `codeseam index` writes each index into a folder
 * of codeseam's cache named by a content key, beside a sidecar saying what was indexed. A composition (item 2) finds
 * the entry of its root with `findStoredIndex` and asks `documentFreshness` which documents the disk still holds as
 * they were indexed: those it may answer from the index, the rest from a live server. Nothing here runs `git` or
 * anything else; it reads files and hashes them.
 */

/** The index in a store entry, and its sidecar. */
export const storedIndexFile = 'index.scip'
export const sidecarFile = 'sidecar.json'

/** What `codeseam index` wrote beside an index: the contract a composition reads (format 1). */
export interface IndexSidecar {
  readonly format: 1
  /** The root indexed, canonical (symlinks resolved), absolute. */
  readonly root: string
  /** The entry's key (its folder's name). */
  readonly key: string
  readonly indexer: { readonly name: string; readonly version: string }
  /** The indexer's arguments that change what it indexes (part of the key): `--pnpm-workspaces` for a trusted pnpm workspace. */
  readonly variant: ReadonlyArray<string>
  /** The compiler the indexer bundles and ran, e.g. `typescript 5.9.3`. */
  readonly compiler?: string
  /** When indexing started (ISO 8601, UTC). */
  readonly indexedAt: string
  /** Wall time of the indexer, milliseconds. */
  readonly indexMs: number
  /** sha-256 (hex) over the sorted `path\0sha-256\n` lines of every file the key covers (see `workspaceFiles`). */
  readonly contentDigest: string
  /** Each indexed document (by the index's relative path, `/`-separated) → sha-256 (hex) of its bytes at index time. */
  readonly documents: Readonly<Record<string, string>>
  /**
   * The keyed files that were there at index time but are not documents of the index (no project the indexer loaded
   * held them), → sha-256 as keyed (RFC 0034): unchanged, they are not new since indexing, only not indexed.
   * Absent in entries written before it existed: then every file the index does not hold counts as added.
   */
  readonly unindexed?: Readonly<Record<string, string>>
}

/** A store entry: its folder, its index file and its sidecar. */
export interface StoredIndex {
  readonly directory: string
  readonly indexPath: string
  readonly sidecar: IndexSidecar
}

/** Whether the disk still holds a document as it was indexed. */
export type DocumentFreshness = 'unchanged' | 'changed' | 'missing'

type Env = Readonly<Record<string, string | undefined>>

/** The store: `$XDG_CACHE_HOME/codeseam/index`, else `~/.cache/codeseam/index`. */
export function indexStoreDirectory(env: Env = process.env): string {
  const cache =
    env['XDG_CACHE_HOME'] !== undefined && env['XDG_CACHE_HOME'] !== '' ? env['XDG_CACHE_HOME'] : nodePath.join(homedir(), '.cache')
  return nodePath.join(cache, 'codeseam', 'index')
}

/** sha-256 of bytes, hex. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/**
 * Writes `value` as JSON to a cache file beside a store entry, atomically (a temporary file renamed); false when it
 * could not (the temporary file removed): a cache, so the caller goes on without it.
 */
export async function writeCacheFile(file: string, value: unknown): Promise<boolean> {
  const temporary = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`
  try {
    await writeFile(temporary, JSON.stringify(value))
    await rename(temporary, file)
    return true
  } catch {
    await rm(temporary, { force: true }).catch(() => {})
    return false
  }
}

/** The prefix of every entry of one root: 16 hex digits of the sha-256 of its canonical path. */
export function rootPrefix(canonicalRoot: string): string {
  return sha256(canonicalRoot).slice(0, 16)
}

/**
 * An entry's key: root, indexer and version, content, and the indexer's arguments that change what it indexes (a
 * workspace list) — any of them changing is another entry.
 */
export function storeKey(
  canonicalRoot: string,
  indexer: { name: string; version: string },
  contentDigest: string,
  variant: ReadonlyArray<string> = [],
): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, '_')
  const content = variant.length === 0 ? contentDigest : sha256(`${contentDigest}\0${variant.join('\0')}`)
  return `${rootPrefix(canonicalRoot)}-${safe(indexer.name)}-${safe(indexer.version)}-${content.slice(0, 16)}`
}

/** The files whose content the key covers: sources a TypeScript project may hold, and JSON (tsconfig, package.json). */
const keyedExtensions = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'])

/**
 * Every keyed file under `root` → sha-256 of its bytes, by `/`-separated relative path. `node_modules` and folders
 * whose name starts with a dot are skipped, symbolic links are not followed: the key covers the workspace's own
 * files (a dependency changed in `node_modules` can change hover text, not the documents' positions).
 */
export async function workspaceFiles(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  const walk = async (folder: string, relative: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true })
    for (const entry of entries) {
      const path = nodePath.join(folder, entry.name)
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
        await walk(path, name)
      } else if (entry.isFile() && keyedExtensions.has(nodePath.extname(entry.name))) {
        files.set(name, sha256(await readFile(path)))
      }
    }
  }
  await walk(root, '')
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** The digest of a file map (`workspaceFiles`): sha-256 over its sorted `path\0hash\n` lines. */
export function contentDigest(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256')
  for (const path of [...files.keys()].sort()) hash.update(`${path}\0${files.get(path) ?? ''}\n`)
  return hash.digest('hex')
}

/** Reads one entry; undefined when it is not a complete entry (no sidecar, or one of another format). */
export async function readStoredIndex(directory: string): Promise<StoredIndex | undefined> {
  try {
    const sidecar = JSON.parse(await readFile(nodePath.join(directory, sidecarFile), 'utf8')) as IndexSidecar
    if (sidecar.format !== 1) return undefined
    const indexPath = nodePath.join(directory, storedIndexFile)
    await lstat(indexPath)
    return { directory, indexPath, sidecar }
  } catch {
    return undefined
  }
}

/**
 * The newest entry of `canonicalRoot` in the store (by its sidecar's `indexedAt`), of one indexer and version when
 * given; undefined when there is none. Entries are found by their key's root prefix, then checked by the sidecar's
 * own `root`.
 */
export async function findStoredIndex(
  canonicalRoot: string,
  options: { readonly store?: string; readonly indexer?: { name: string; version: string } } = {},
): Promise<StoredIndex | undefined> {
  const store = options.store ?? indexStoreDirectory()
  let names: string[]
  try {
    names = await readdir(store)
  } catch {
    return undefined
  }
  const prefix = `${rootPrefix(canonicalRoot)}-`
  const entries = await Promise.all(
    names.filter((name) => name.startsWith(prefix) && !name.includes('.tmp-')).map((name) => readStoredIndex(nodePath.join(store, name))),
  )
  const wanted = options.indexer
  return entries
    .filter((entry): entry is StoredIndex => entry !== undefined && entry.sidecar.root === canonicalRoot)
    .filter(
      (entry) => wanted === undefined || (entry.sidecar.indexer.name === wanted.name && entry.sidecar.indexer.version === wanted.version),
    )
    .sort((a, b) => (a.sidecar.indexedAt < b.sidecar.indexedAt ? 1 : a.sidecar.indexedAt > b.sidecar.indexedAt ? -1 : 0))[0]
}

/** How many entries of one root `codeseam index` keeps (the newest, by `indexedAt`) when it writes another. */
export const keptEntriesPerRoot = 3

/**
 * Removes the entries of `canonicalRoot` beyond the newest `keep` (by the sidecar's `indexedAt`; default
 * {@link keptEntriesPerRoot}), never `except` (the entry just written). Only complete entries whose sidecar names the
 * root are removed: another root's entries, folders being written (`.tmp-`) and folders that are not entries stay. A
 * process answering from a removed entry is not affected (it read the index whole). Returns the removed folders.
 */
export async function pruneStoredIndexes(
  canonicalRoot: string,
  options: { readonly store?: string; readonly keep?: number; readonly except?: string } = {},
): Promise<string[]> {
  const store = options.store ?? indexStoreDirectory()
  const keep = Math.max(0, options.keep ?? keptEntriesPerRoot)
  let names: string[]
  try {
    names = await readdir(store)
  } catch {
    return []
  }
  const prefix = `${rootPrefix(canonicalRoot)}-`
  const entries = (
    await Promise.all(
      names.filter((name) => name.startsWith(prefix) && !name.includes('.tmp-')).map((name) => readStoredIndex(nodePath.join(store, name))),
    )
  )
    .filter((entry): entry is StoredIndex => entry !== undefined && entry.sidecar.root === canonicalRoot)
    .sort((a, b) => (a.sidecar.indexedAt < b.sidecar.indexedAt ? 1 : a.sidecar.indexedAt > b.sidecar.indexedAt ? -1 : 0))
  const kept = new Set(entries.slice(0, keep).map((entry) => entry.directory))
  if (options.except !== undefined) kept.add(options.except)
  const removed = entries.filter((entry) => !kept.has(entry.directory)).map((entry) => entry.directory)
  await Promise.all(removed.map((directory) => rm(directory, { recursive: true, force: true })))
  return removed
}

/**
 * Per indexed document, whether the disk under `root` (default: the sidecar's) still holds what was indexed: the
 * sha-256 of its bytes now against the sidecar's. A file that cannot be read is `missing`.
 */
export async function documentFreshness(
  sidecar: IndexSidecar,
  root: string = sidecar.root,
): Promise<ReadonlyMap<string, DocumentFreshness>> {
  const states = await Promise.all(
    Object.entries(sidecar.documents).map(async ([path, indexed]): Promise<[string, DocumentFreshness]> => {
      try {
        const now = sha256(await readFile(nodePath.join(root, ...path.split('/'))))
        return [path, now === indexed ? 'unchanged' : 'changed']
      } catch {
        return [path, 'missing']
      }
    }),
  )
  return new Map(states)
}

/** The documents of a freshness map that are not `unchanged` (changed or missing), sorted. */
export function staleDocuments(freshness: ReadonlyMap<string, DocumentFreshness>): string[] {
  return [...freshness]
    .filter(([, state]) => state !== 'unchanged')
    .map(([path]) => path)
    .sort()
}

/**
 * The projects the indexer is given: every `tsconfig.json` / `jsconfig.json` of the root outside `node_modules` and
 * dot-folders (the files the store keys), so a monorepo without a root solution config is indexed whole at either
 * trust level, without running its package manager. A `tsconfig.json` is named by its folder, as project references
 * usually name it: the indexer then skips a project it already indexed through a reference (it keys them by path).
 */
export function indexedProjects(root: string, files: ReadonlyMap<string, string>): string[] {
  const projects: string[] = []
  for (const relative of [...files.keys()].sort()) {
    const base = nodePath.posix.basename(relative)
    if (base === 'tsconfig.json') projects.push(nodePath.join(root, nodePath.posix.dirname(relative)))
    else if (base === 'jsconfig.json') projects.push(nodePath.join(root, relative))
  }
  return projects
}

/*
 * Files of no project (docs/index.md, "Files of no project"). The live TypeScript server answers for a source file no
 * project holds in an inferred project (lsp-local opens them: "files of no project"); `codeseam index` indexes them
 * too, in a second indexer run over a tsconfig.json it generates in the store entry being written (never in the
 * workspace), whose `files` name them by absolute path. The indexer writes each document's path relative to `--cwd`
 * (the root), so the documents of that run are named as the projects' are, and its index is appended to theirs (a
 * SCIP index is a sequence of `Index` messages: the indexer itself writes one per document).
 */

/** The variant entry of an index that holds the files of no project (an entry built before it is another entry). */
export const looseVariant = 'files-of-no-project'

/** The source extensions the live TypeScript server takes (lsp-local's `typeScriptExtensions`). */
const looseExtensions = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'])

/**
 * Folders whose files the live server's load never opens (lsp-local's `skippedFolders`: dependencies, build output,
 * caches); `workspaceFiles` already leaves out `node_modules` and dot-folders.
 */
const looseSkippedFolders = new Set(['dist', 'build', 'out', 'target', 'venv', '__pycache__', 'coverage'])

/**
 * The keyed source files (`workspaceFiles`) that are not documents of the index, but for those under a folder the live
 * server's load skips (build output, caches): the files of no project the live server answers for. Sorted.
 */
export function looseFiles(files: ReadonlyMap<string, string>, documents: ReadonlySet<string>): string[] {
  return [...files.keys()]
    .filter((relative) => !documents.has(relative) && looseExtensions.has(nodePath.posix.extname(relative)))
    .filter(
      (relative) =>
        !relative
          .split('/')
          .slice(0, -1)
          .some((folder) => looseSkippedFolders.has(folder)),
    )
    .sort()
}

/**
 * The tsconfig.json of the files of no project (as JSON text): the compiler options of the native TypeScript server's
 * inferred project (allowJs, ESNext modules resolved as a bundler does, react-jsx, …; skipLibCheck and noEmit since
 * nothing is checked or written), `files` by absolute path, the root's `node_modules/@types` as type roots (an
 * inferred project's folder is the root; the generated config's is the store's). It extends nothing and names no
 * plugin: nothing of the workspace chooses what runs.
 */
export function looseProjectConfig(root: string, loose: ReadonlyArray<string>, typeRoots: ReadonlyArray<string> = []): string {
  const config = {
    compilerOptions: {
      allowJs: true,
      module: 'esnext',
      moduleResolution: 'bundler',
      target: 'es2022',
      jsx: 'react-jsx',
      allowImportingTsExtensions: true,
      strictNullChecks: true,
      strictFunctionTypes: true,
      esModuleInterop: true,
      resolveJsonModule: true,
      skipLibCheck: true,
      noEmit: true,
      typeRoots: [...typeRoots],
    },
    files: loose.map((relative) => nodePath.join(root, ...relative.split('/'))),
  }
  return `${JSON.stringify(config, null, 2)}\n`
}

/** The folder of the generated tsconfig.json in an entry being written; the project the indexer's second run is given. */
export const looseProjectFolder = 'files-of-no-project'

/**
 * Writes the tsconfig.json of the files of no project into `folder` (an entry being written, in codeseam's cache)
 * for the keyed `files` of `root` that are not `documents` of the projects' run; returns them and the project folder
 * to give the indexer, none when there are no such files. Nothing is written into the workspace.
 */
export async function writeLooseProject(
  folder: string,
  root: string,
  files: ReadonlyMap<string, string>,
  documents: ReadonlySet<string>,
): Promise<{ readonly loose: string[]; readonly project?: string }> {
  const loose = looseFiles(files, documents)
  if (loose.length === 0) return { loose }
  const project = nodePath.join(folder, looseProjectFolder)
  await mkdir(project, { recursive: true })
  const types = nodePath.join(root, 'node_modules', '@types')
  const typeRoots = await stat(types).then(
    (found) => (found.isDirectory() ? [types] : []),
    () => [],
  )
  await writeFile(nodePath.join(project, 'tsconfig.json'), looseProjectConfig(root, loose, typeRoots))
  return { loose, project }
}
