import { readFileSync, statSync } from 'node:fs'
import * as nodePath from 'node:path'

import type { ServerProfile } from '../profile/profiles.js'
import { recordFor } from '../languages/index.js'
import { mergeSettings } from '../languages/settings.js'
import { listFiles } from '../profile/files.js'

/**
 * Nested projects under a server's root, for a `workspaceFolders` profile (pyright). A nested folder with a
 * configuration of its own (`ownConfig`: a pyrightconfig.json, a pyproject.toml with `[tool.pyright]`) is a
 * further LSP workspace folder of the root's one server, so its own settings apply. A nested folder with only a
 * plain marker (a pyproject.toml or setup.py without such a section) is not: pyright would walk up from it to
 * the root's configuration anyway, and a second workspace folder would send the files no folder's
 * configuration includes to a default workspace of their own, whose imports resolve elsewhere and whose files
 * the root's references never see. Such a folder (and its `src`) is listed in `nestedFoldersSetting` instead,
 * so its imports resolve as they would in a server started there, while its files stay in the root's program.
 */
export interface NestedProjects {
  /** Further workspace folders (nested folders with a configuration of their own). */
  readonly folders: ReadonlyArray<string>
  /** Nested folders without a configuration of their own. */
  readonly plain: ReadonlyArray<string>
  /** Import roots of those (each folder and its `src`, when present). */
  readonly searchPaths: ReadonlyArray<string>
}

/** The nested projects of every root a server serves (its own and the roots it shares, RFC 0025), together. */
export async function nestedProjectsOf(roots: ReadonlyArray<string>, profile: ServerProfile): Promise<NestedProjects> {
  const each = await Promise.all(roots.map((root) => nestedProjects(root, profile)))
  return {
    folders: each.flatMap((nested) => nested.folders),
    plain: each.flatMap((nested) => nested.plain),
    searchPaths: each.flatMap((nested) => nested.searchPaths),
  }
}

export async function nestedProjects(root: string, profile: ServerProfile): Promise<NestedProjects> {
  if (profile.projectRoot !== 'workspaceFolders' || (profile.rootMarkers ?? []).length === 0)
    return { folders: [], plain: [], searchPaths: [] }
  const markers = await listFiles(root, { names: new Set(profile.rootMarkers ?? []) }, 1_000)
  const nested = [...new Set(markers.files.map((file) => nodePath.dirname(file)))].filter((dir) => dir !== root).sort()
  const ownConfig = profile.ownConfig
  const hasOwnConfig = (dir: string) =>
    ownConfig === undefined || ownConfig.some((rule) => fileHolds(nodePath.join(dir, rule.file), rule.contains))
  const folders = nested.filter(hasOwnConfig)
  const plain = nested.filter((dir) => !hasOwnConfig(dir))
  return { folders, plain, searchPaths: plain.flatMap((dir) => withSrc(dir)) }
}

/**
 * The server's settings for its root (its record's `rootSettings`: graphql's own graphql-config) and its nested
 * projects: the search paths appended to `nestedFoldersSetting` for
 * every scope; when there are further workspace folders, the answer to requests that name no scope (pyright's
 * default workspace) also lists the root, every folder and their `src`.
 */
export function nestedSettings(
  root: string,
  profile: ServerProfile,
  settings: Readonly<Record<string, unknown>>,
  nested: NestedProjects,
): { settings: Readonly<Record<string, unknown>>; unscoped?: Readonly<Record<string, unknown>> } {
  settings = recordFor(profile)?.rootSettings?.(root, settings) ?? settings
  const setting = profile.nestedFoldersSetting
  if (setting === undefined) return { settings }
  const scoped = nested.searchPaths.length === 0 ? settings : withFolderList(settings, setting, nested.searchPaths)
  if (nested.folders.length === 0) return { settings: scoped }
  return {
    settings: scoped,
    unscoped: withFolderList(
      scoped,
      setting,
      [root, ...nested.folders].flatMap((dir) => withSrc(dir)),
    ),
  }
}

function withSrc(dir: string): string[] {
  const src = nodePath.join(dir, 'src')
  return statSync(src, { throwIfNoEntry: false })?.isDirectory() === true ? [dir, src] : [dir]
}

function fileHolds(path: string, text: string | undefined): boolean {
  try {
    if (text === undefined) return statSync(path).isFile()
    return readFileSync(path, 'utf8').includes(text)
  } catch {
    return false
  }
}

/** `settings` with `folders` appended to the array at the dotted `setting` path. */
function withFolderList(
  settings: Readonly<Record<string, unknown>>,
  setting: string,
  folders: ReadonlyArray<string>,
): Record<string, unknown> {
  const parts = setting.split('.')
  let current: unknown = settings
  for (const part of parts)
    current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[part] : undefined
  const existing = Array.isArray(current) ? current.filter((entry): entry is string => typeof entry === 'string') : []
  let patch: unknown = [...existing, ...folders.filter((folder) => !existing.includes(folder))]
  for (const part of [...parts].reverse()) patch = { [part]: patch }
  return mergeSettings(settings, patch as Record<string, unknown>)
}

/** The environment a project's layout needs, from its language record (gopls: a go.work over every module). */
export async function layoutEnvironment(root: string, profile: ServerProfile): Promise<Readonly<Record<string, string>>> {
  const hook = recordFor(profile)?.workspaceEnvironment
  return hook === undefined ? {} : hook(root, async (names) => (await listFiles(root, { names: new Set(names) }, 1_000)).files, profile)
}
