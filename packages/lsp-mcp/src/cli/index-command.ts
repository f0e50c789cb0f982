import { spawn } from 'node:child_process'
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { appendFile, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { createInterface } from 'node:readline'

import { builtinIndexers, projectRootMarkers, type BuiltinIndexer } from '@codeseam/lsp-local'

import { parseFlags, UsageError } from './arguments.js'
import { exitCodes, indexHelp } from './help.js'
import type { CliIo } from './io.js'
import { discoverRoot, rootNote } from './root-discovery.js'

/*
 * `codeseam index`: builds a SCIP index of a workspace with the installed indexer into the content-addressed store of
 * codeseam's cache (`~/.cache/codeseam/index/<key>/index.scip` + `sidecar.json`, RFC 0031), or reuses the entry whose
 * key matches. Nothing is written into the workspace. An untrusted root runs nothing the workspace chooses: only the
 * indexer from codeseam's cache with codeseam's Node, on the tsconfig.json / jsconfig.json files codeseam finds under
 * the root, then on a tsconfig.json codeseam writes in the entry for the files of no project (see docs/index.md,
 * "Trust" and "Files of no project").
 */

const options = {
  root: { type: 'string' },
  trust: { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Environment variables an untrusted root's indexer never gets: preloads and module paths. */
const untrustedStrip = ['NODE_OPTIONS', 'NODE_PATH']

/** The indexer's flags for a root: the workspace lists (which run the workspace's pnpm or yarn) only when trusted. */
export function indexerWorkspaceFlags(root: string, trusted: boolean): string[] {
  if (!trusted) return []
  if (existsSync(nodePath.join(root, 'pnpm-workspace.yaml'))) return ['--pnpm-workspaces']
  try {
    const manifest = JSON.parse(readFileSync(nodePath.join(root, 'package.json'), 'utf8')) as { workspaces?: unknown }
    if (manifest.workspaces !== undefined) return ['--yarn-workspaces']
  } catch {
    // no package.json: one project
  }
  return []
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`
}

/** Runs the indexer; its output lines are progress on stderr. Resolves to its exit code or a failure's words. */
function runIndexer(indexer: BuiltinIndexer, args: string[], root: string, env: NodeJS.ProcessEnv, progress: (line: string) => void) {
  return new Promise<number | string>((resolve) => {
    const child = spawn(process.execPath, [indexer.entry ?? '', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => progress(line))
    child.on('error', (error) => resolve(error.message))
    child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown'))
  })
}

/** `codeseam index [--root DIR] [--trust LEVEL] [--json] [-q]`. */
export async function runIndex(args: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const { values } = parseFlags('index', args, options)
  if (values.help === true) {
    io.stdout.write(`${indexHelp()}\n`)
    return exitCodes.ok
  }
  if (values.trust !== undefined && values.trust !== 'trusted' && values.trust !== 'untrusted')
    throw new UsageError(`--trust must be "trusted" or "untrusted", got "${values.trust}"`, 'index')
  const trusted = values.trust === 'trusted'
  const say = (line: string) => (values.quiet === true || values.json === true ? undefined : io.stderr.write(`${line}\n`))
  const discovered = values.root === undefined ? discoverRoot(io.cwd, projectRootMarkers()) : undefined
  const chosen = discovered?.root ?? nodePath.resolve(io.cwd, values.root ?? '.')
  const note = discovered === undefined ? undefined : rootNote(discovered, io.cwd)
  if (note !== undefined) say(note)
  let root: string
  try {
    root = realpathSync(chosen)
  } catch {
    io.stderr.write(`codeseam index: no such folder: ${chosen}\n`)
    return exitCodes.failed
  }
  const indexer = (await builtinIndexers(io.env)).find((i) => i.language.includes('TypeScript'))
  if (indexer?.found !== true || indexer.entry === undefined || indexer.version === undefined) {
    io.stderr.write(`codeseam index: the indexer is missing (${indexer?.why ?? 'none'}): codeseam install ${indexer?.id ?? ''}\n`)
    return exitCodes.failed
  }
  const workspaceFlags = indexerWorkspaceFlags(root, trusted)
  const store = await import('@codeseam/lsp-index')
  const name = indexer.id
  const started = performance.now()
  const files = await store.workspaceFiles(root)
  const projects = store.indexedProjects(root, files)
  if (workspaceFlags.length === 0 && projects.length === 0) {
    io.stderr.write(
      `codeseam index: ${root} has no tsconfig.json (the indexer's --infer-tsconfig would write one into the workspace, which codeseam never does): index a folder with one${trusted ? '' : ', or a trusted pnpm/yarn workspace'}\n`,
    )
    return exitCodes.failed
  }
  const digest = store.contentDigest(files)
  // The projects named are part of the variant: an entry built from the root's tsconfig.json alone is another entry;
  // so is indexing the files of no project (an entry built before it holds only the projects' files).
  const variant = [...workspaceFlags, store.looseVariant, ...projects.map((project) => nodePath.relative(root, project) || '.')]
  const key = store.storeKey(root, { name, version: indexer.version }, digest, variant)
  const storeDir = store.indexStoreDirectory(io.env)
  const directory = nodePath.join(storeDir, key)
  const report = async (
    entry: { directory: string; indexPath: string; sidecar: { documents: object; indexMs: number } },
    reused: boolean,
  ) => {
    const bytes = (await stat(entry.indexPath)).size
    const documents = Object.keys(entry.sidecar.documents).length
    const ms = Math.round(performance.now() - started)
    if (values.json === true)
      io.stdout.write(
        `${JSON.stringify({ root, key, directory: entry.directory, reused, documents, bytes, ms, indexMs: entry.sidecar.indexMs })}\n`,
      )
    else
      io.stdout.write(
        `${reused ? 'reused' : 'indexed'} ${root}: ${documents} documents, ${size(bytes)}, ${reused ? `checked in ${ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`} (nothing changed since it was built)` : `in ${(ms / 1000).toFixed(1)} s`}\n  ${entry.indexPath}\n`,
      )
    return exitCodes.ok
  }
  const existing = await store.readStoredIndex(directory)
  if (existing !== undefined) {
    // The caches beside it that this build lacks (an entry another build of codeseam wrote has its own outlines).
    await store.prepareStoredEntry(directory)
    return report(existing, true)
  }

  say(
    `indexing ${root} with ${name} ${indexer.version}${indexer.compilerVersion === undefined ? '' : ` (${indexer.compilerVersion})`}, ${files.size} files keyed${trusted ? '' : ', untrusted'}`,
  )
  await mkdir(storeDir, { recursive: true })
  const building = await mkdtemp(nodePath.join(storeDir, `${key}.tmp-`))
  try {
    const output = nodePath.join(building, store.storedIndexFile)
    const env = { ...io.env }
    if (!trusted) for (const variable of untrustedStrip) delete env[variable]
    const indexedAt = new Date().toISOString()
    const indexStarted = performance.now()
    const args = ['index', '--cwd', root, '--output', output, '--no-progress-bar', ...workspaceFlags, ...projects]
    // Its last line names the temporary output (`done PATH`); the entry's path is printed instead.
    const result = await runIndexer(indexer, args, root, env, (line) => (line.startsWith('done ') ? undefined : say(`  ${line}`)))
    if (result !== 0) {
      io.stderr.write(`codeseam index: the indexer failed (exit ${result})\n`)
      return exitCodes.failed
    }
    const indexedPaths = new Set(store.decodeScipIndex(await readFile(output)).documents.map((document) => document.relativePath))
    // The files of no project, in a second run over a tsconfig.json generated in this entry (docs/index.md, "Files of no project").
    const { loose, project: looseFolder } = await store.writeLooseProject(building, root, files, indexedPaths)
    if (looseFolder !== undefined) {
      const looseOutput = nodePath.join(building, 'files-of-no-project.scip')
      say(`  ${loose.length} ${loose.length === 1 ? 'file' : 'files'} of no project, in an inferred project`)
      const looseArgs = ['index', '--cwd', root, '--output', looseOutput, '--no-progress-bar', looseFolder]
      // Exit 1 with `error: no files got indexed` when none of them has an occurrence: nothing to add.
      let none = false
      const looseResult = await runIndexer(indexer, looseArgs, root, env, (line) => {
        if (line.startsWith('error: no files got indexed')) none = true
        else if (!line.startsWith('done ')) say(`  ${line.replace(looseFolder, 'files of no project')}`)
      })
      // Appended: a SCIP index is a sequence of `Index` messages. When the run fails, the files stay `unindexed`.
      if (looseResult === 0) {
        const bytes = await readFile(looseOutput)
        await appendFile(output, bytes)
        for (const document of store.decodeScipIndex(bytes).documents) indexedPaths.add(document.relativePath)
        await rm(looseOutput, { force: true })
      } else if (!none) say(`  the files of no project were not indexed (exit ${looseResult}): the sidecar lists them as unindexed`)
    }
    const indexMs = Math.round(performance.now() - indexStarted)
    const documents: Record<string, string> = {}
    for (const relativePath of [...indexedPaths].sort()) {
      const hash = store.sha256(await readFile(nodePath.join(root, ...relativePath.split('/'))))
      // What was keyed before indexing must be what was indexed: a file changed meanwhile is another index.
      if (files.has(relativePath) && files.get(relativePath) !== hash) {
        io.stderr.write(`codeseam index: ${relativePath} changed while indexing; run codeseam index again\n`)
        return exitCodes.failed
      }
      documents[relativePath] = hash
    }
    const sidecar = {
      format: 1 as const,
      root,
      key,
      indexer: { name, version: indexer.version },
      variant,
      ...(indexer.compilerVersion === undefined ? {} : { compiler: indexer.compilerVersion }),
      indexedAt,
      indexMs,
      contentDigest: digest,
      documents,
      // Keyed but not indexed (no project the indexer loaded held them): unchanged, they are not new since (RFC 0034).
      unindexed: Object.fromEntries([...files].filter(([relative]) => !Object.hasOwn(documents, relative)).sort()),
    }
    await writeFile(nodePath.join(building, store.sidecarFile), `${JSON.stringify(sidecar, null, 2)}\n`)
    try {
      await rename(building, directory)
    } catch {
      // Another `codeseam index` of the same content finished first: its entry is this one.
      const other = await store.readStoredIndex(directory)
      if (other !== undefined) return report(other, true)
      throw new Error(`could not store the index at ${directory}`)
    }
    // Older entries of the root beyond the newest few are removed (the one just written is always kept).
    const pruned = await store.pruneStoredIndexes(root, { store: storeDir, except: directory }).catch((error: unknown) => {
      io.stderr.write(
        `codeseam index: older entries of ${root} were not removed: ${error instanceof Error ? error.message : String(error)}\n`,
      )
      return []
    })
    if (pruned.length > 0) say(`removed ${pruned.length} older ${pruned.length === 1 ? 'entry' : 'entries'} of ${root} from the store`)
    // The scan's table and the files' hashes beside the index: the first `codeseam mcp` answering from it neither scans
    // the index nor reads the files that did not change.
    await store.prepareStoredEntry(directory)
    return report({ directory, indexPath: nodePath.join(directory, store.storedIndexFile), sidecar }, false)
  } finally {
    await rm(building, { recursive: true, force: true })
  }
}
