import { existsSync } from 'node:fs'
import * as nodePath from 'node:path'

import { BoundedCache, LspError, isWithin, type LspDocumentSnapshot } from '@codeseam/lsp'
import { parse } from 'smol-toml'

/** ruff's settings for one file, and the config file they came from (absent: ruff's defaults). */
export interface RuffSettings {
  /** ruff's option keys as in `ruff.toml` (`line-length`, `lint.select`, `format.quote-style`, ...), `extend` resolved. */
  readonly options: Readonly<Record<string, unknown>>
  readonly source?: string
}

/** What config discovery reads files with: contained reads (OUTSIDE_WORKSPACE for a path or link out of the root). */
export interface ConfigReader {
  readonly root: string
  readFile(path: string): Promise<LspDocumentSnapshot>
}

/** In one folder ruff prefers `.ruff.toml`, then `ruff.toml`, then a `pyproject.toml` with a `[tool.ruff]` table. */
const configNames = ['.ruff.toml', 'ruff.toml', 'pyproject.toml'] as const

/** Parsed config files by content hash: a file is parsed again only when its text changed. */
const parsed = new BoundedCache<string, { readonly table: Record<string, unknown> | undefined }>({ entries: 256, size: 4 * 1024 * 1024 })

/**
 * ruff's configuration discovery, which its WebAssembly build does not do: the closest folder from the file up
 * to the workspace root holding a config file wins; `extend` is followed (relative to the file naming it),
 * never out of the root, and a cycle fails. ruff configuration is data (it runs no code), so it applies in
 * untrusted roots too.
 */
export async function ruffSettingsFor(path: string, reader: ConfigReader): Promise<RuffSettings> {
  let dir = nodePath.dirname(path)
  while (isWithin(reader.root, dir)) {
    for (const name of configNames) {
      const candidate = nodePath.join(dir, name)
      if (!existsSync(candidate)) continue
      const settings = await readConfig(candidate, reader)
      if (settings !== undefined) return { options: await resolveExtend(settings, candidate, reader, [candidate]), source: candidate }
    }
    const parent = nodePath.dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return { options: {} }
}

/** A config file's ruff table: the whole file, or `[tool.ruff]` of a pyproject.toml (undefined when it has none). */
async function readConfig(file: string, reader: ConfigReader): Promise<Record<string, unknown> | undefined> {
  const snapshot = await reader.readFile(file)
  let table = parsed.get(snapshot.hash)?.table
  if (parsed.get(snapshot.hash) === undefined) {
    let document: Record<string, unknown>
    try {
      document = parse(snapshot.text) as Record<string, unknown>
    } catch (error) {
      throw new LspError('INVALID_ARGUMENT', `the ruff configuration ${file} is not valid TOML: ${(error as Error).message}`, {
        cause: error,
        data: { path: file },
      })
    }
    table = nodePath.basename(file) === 'pyproject.toml' ? tableAt(document, ['tool', 'ruff']) : document
    parsed.set(snapshot.hash, { table }, snapshot.text.length)
  }
  return table
}

function tableAt(document: Record<string, unknown>, keys: ReadonlyArray<string>): Record<string, unknown> | undefined {
  let value: unknown = document
  for (const key of keys) value = isTable(value) ? value[key] : undefined
  return isTable(value) ? value : undefined
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Follows `extend`: the base's settings under this file's, checked for containment and cycles. */
async function resolveExtend(
  settings: Record<string, unknown>,
  file: string,
  reader: ConfigReader,
  chain: ReadonlyArray<string>,
): Promise<Record<string, unknown>> {
  const { extend, ...own } = settings
  if (extend === undefined) return own
  if (typeof extend !== 'string') throw new LspError('INVALID_ARGUMENT', `"extend" in ${file} must be a path`, { data: { path: file } })
  const base = nodePath.resolve(nodePath.dirname(file), extend)
  if (!isWithin(reader.root, base)) {
    throw new LspError(
      'OUTSIDE_WORKSPACE',
      `the ruff configuration ${file} extends ${base}, outside the workspace root ${reader.root}; codeseam reads no configuration outside the root`,
      { data: { path: file, root: reader.root } },
    )
  }
  if (chain.includes(base)) {
    throw new LspError('INVALID_ARGUMENT', `the ruff configuration extends itself: ${[...chain, base].join(' → ')}`, {
      data: { path: file },
    })
  }
  // A pyproject.toml named by `extend` counts with or without [tool.ruff] (ruff reads it as empty then).
  const baseSettings = (await readConfig(base, reader)) ?? {}
  return mergeSettings(await resolveExtend(baseSettings, base, reader, [...chain, base]), own)
}

/**
 * `own` over `base`, table by table as ruff combines an extended configuration: a value replaces the base's,
 * `extend-*` lists add to the base's, and a `select` drops the base's `extend-select` (it starts the selection over).
 */
export function mergeSettings(base: Record<string, unknown>, own: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base }
  if ('select' in own) delete merged['extend-select']
  for (const [key, value] of Object.entries(own)) {
    const before = merged[key]
    if (isTable(before) && isTable(value)) merged[key] = mergeSettings(before, value)
    else if (key.startsWith('extend-') && Array.isArray(before) && Array.isArray(value)) merged[key] = [...before, ...value]
    else merged[key] = value
  }
  return merged
}
