import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { parse as parseToml } from 'smol-toml'

/**
 * Which Python files pyright's own configuration makes part of a workspace folder's program. pyright searches
 * (references, rename, call hierarchy, workspace symbols) only the files of its program: the files its
 * configuration includes (`include`, default the folder; minus `exclude`, default `**\/node_modules`,
 * `**\/__pycache__`, `**\/.*`) and the files open. A repository whose configuration includes only `src` and
 * part of `tests` (flask's does) has its examples and most tests outside the program: those must be opened
 * before a workspace-wide query, like TypeScript's files of no project.
 */
export interface PyrightScope {
  /** The folder the configuration belongs to (include/exclude are relative to it). */
  readonly folder: string
  readonly includes: ReadonlyArray<RegExp>
  readonly excludes: ReadonlyArray<RegExp>
}

const defaultExcludes = ['**/node_modules', '**/__pycache__', '**/.*']

/** The include/exclude of a folder's pyrightconfig.json, else its pyproject.toml `[tool.pyright]`, else the defaults. */
export function pyrightScope(folder: string): PyrightScope {
  const config = readConfig(folder)
  const include = stringList(config?.['include']) ?? ['.']
  const exclude = stringList(config?.['exclude']) ?? defaultExcludes
  return { folder, includes: include.map((spec) => specPattern(folder, spec)), excludes: exclude.map((spec) => specPattern(folder, spec)) }
}

/** Whether a file is in the program the scope's configuration describes. */
export function inScope(scope: PyrightScope, file: string): boolean {
  return scope.includes.some((pattern) => pattern.test(file)) && !scope.excludes.some((pattern) => pattern.test(file))
}

function readConfig(folder: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(nodePath.join(folder, 'pyrightconfig.json'), 'utf8'))
    if (parsed !== null && typeof parsed === 'object') return parsed as Record<string, unknown>
  } catch {
    // absent or not plain JSON: fall through to pyproject.toml
  }
  try {
    const toml = parseToml(readFileSync(nodePath.join(folder, 'pyproject.toml'), 'utf8')) as {
      tool?: { pyright?: Record<string, unknown> }
    }
    return toml.tool?.pyright
  } catch {
    return undefined
  }
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : undefined
}

/**
 * A file spec as pyright reads it: a path relative to the config folder, with `**` (any folders), `*` and `?`
 * (within one path component); it matches the path itself and everything under it.
 */
function specPattern(folder: string, spec: string): RegExp {
  const absolute = nodePath.resolve(folder, spec)
  let pattern = ''
  for (let i = 0; i < absolute.length; i++) {
    const char = absolute[i] as string
    if (char === '*' && absolute[i + 1] === '*') {
      i++
      // `**/` is any number of whole folders (none included); a trailing `**` is anything below.
      if (absolute[i + 1] === '/') {
        pattern += '(?:.*/)?'
        i++
      } else pattern += '.*'
    } else if (char === '*') pattern += '[^/]*'
    else if (char === '?') pattern += '[^/]'
    else pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${pattern}(?:/|$)`)
}
