import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import * as nodePath from 'node:path'

import { installedFolders, installRecipe, packageLabel, type InstallSource } from '../languages/install.js'
import { indexerRecords } from './list.js'
import type { IndexerRecord } from './record.js'

export type { IndexerRecord } from './record.js'

export { indexerRecords } from './list.js'

/** An indexer as this machine has it: what `codeseam doctor`, `codeseam install` and `codeseam index` read. */
export interface BuiltinIndexer {
  readonly id: string
  readonly language: string
  readonly indexer: string
  readonly found: boolean
  /** The script Node runs (found only): inside codeseam's cache, never a workspace. */
  readonly entry?: string
  /** The installed package's version (found only). */
  readonly version?: string
  /** The bundled compiler's name and version, e.g. `typescript 5.9.3` (found only, when its package is readable). */
  readonly compilerVersion?: string
  /** Why it is missing. */
  readonly why?: string
  readonly install: string
  readonly installSource: InstallSource
  readonly installLands?: string
  readonly installPackage: string
}

async function packageVersion(manifest: string): Promise<string | undefined> {
  try {
    const version = (JSON.parse(await readFile(manifest, 'utf8')) as { version?: unknown }).version
    return typeof version === 'string' ? version : undefined
  } catch {
    return undefined
  }
}

/** Where the record's pinned install is, and what it holds; never PATH (the indexer is only ever run from the cache). */
export async function locateIndexer(
  record: IndexerRecord,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<BuiltinIndexer> {
  const recipe = installRecipe(record.id, record.install, env)
  const base = {
    id: record.id,
    language: record.language,
    indexer: record.indexer,
    install: recipe.command,
    installSource: recipe.source,
    ...(recipe.lands === undefined ? {} : { installLands: recipe.lands }),
    installPackage: packageLabel(record.install),
  }
  const folder = installedFolders(record.id, record.install, env)[0]
  const wanted = /@([^@/]+)$/.exec(record.install.purl)?.[1]
  if (folder === undefined) return { ...base, found: false, why: 'no install folder' }
  const version = await packageVersion(nodePath.join(folder, 'package.json'))
  if (version === undefined) return { ...base, found: false, why: `not installed in ${folder}` }
  if (version !== wanted) return { ...base, found: false, why: `${folder} holds ${version}, codeseam runs ${wanted ?? 'a pinned version'}` }
  let compilerVersion: string | undefined
  try {
    // The compiler as the indexer's own `require` resolves it: from its install folder, never a workspace.
    const manifest = createRequire(nodePath.join(folder, record.entry)).resolve(`${record.compiler}/package.json`)
    const found = await packageVersion(manifest)
    compilerVersion = found === undefined ? undefined : `${record.compiler} ${found}`
  } catch {
    compilerVersion = undefined
  }
  return {
    ...base,
    found: true,
    entry: nodePath.join(folder, record.entry),
    version,
    ...(compilerVersion === undefined ? {} : { compilerVersion }),
  }
}

/** Every built-in indexer, found or missing. */
export async function builtinIndexers(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<ReadonlyArray<BuiltinIndexer>> {
  return Promise.all(indexerRecords.map((record) => locateIndexer(record, env)))
}
