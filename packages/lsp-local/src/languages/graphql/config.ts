import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { codeseamCacheDir } from '../lookup.js'
import { isRecord } from '../settings.js'

/*
 * The graphql-config codeseam gives graphql-language-service-server. The server loads its configuration with
 * graphql-config, from the `load` options of its `graphql-config` settings section: `filepath` names the one file it
 * reads (no search of the workspace), `rootDir` the folder it serves. Codeseam's own is JSON in codeseam's cache, never
 * in the repository, and names only the root's GraphQL files (SDL globs: no code loader, no URL).
 */

/** The settings section the server asks for (workspace/configuration), and the one an editor extension adds over it. */
export const configSection = 'graphql-config'
export const editorSection = 'vscode-graphql'

/** The files the server reads as GraphQL (its DEFAULT_SUPPORTED_GRAPHQL_EXTENSIONS). */
export const graphqlExtensions = ['.graphql', '.graphqls', '.gql'] as const

/** Where graphql-config looks for a workspace's own configuration (its cosmiconfig search places, legacy ones too). */
const configNames = [
  ...['ts', 'cts', 'mts', 'js', 'cjs', 'mjs', 'json', 'yaml', 'yml', 'toml'].flatMap((ext) => [
    `graphql.config.${ext}`,
    `.graphqlrc.${ext}`,
  ]),
  '.graphqlrc',
  '.graphqlconfig',
  '.graphqlconfig.json',
  '.graphqlconfig.yaml',
  '.graphqlconfig.yml',
]

/** The workspace files that make a root's graphql-config (a change restarts the server). */
export const graphqlConfigFiles: ReadonlyArray<string> = [...configNames, 'package.json']

/** Whether the root holds a graphql-config of its own (a config file, or a package.json with a `graphql` key). */
export function hasOwnConfig(root: string): boolean {
  if (configNames.some((name) => existsSync(nodePath.join(root, name)))) return true
  try {
    const manifest: unknown = JSON.parse(readFileSync(nodePath.join(root, 'package.json'), 'utf8'))
    return isRecord(manifest) && manifest['graphql'] !== undefined
  } catch {
    return false
  }
}

/** A path as a glob matches it literally (fast-glob and glob 7 both read a backslash as an escape). */
const literal = (path: string) => path.replace(/[*?[\]{}()!@+\\]/g, '\\$&')

/**
 * Writes codeseam's graphql-config for a root into codeseam's cache (one file per root, named by a hash of its path)
 * and answers the server's `graphql-config` section with it. Schema and documents are the root's GraphQL files, each
 * extension a glob of its own (the server treats a schema of such globs as SDL only, so it generates nothing) and
 * node_modules left out; the server sorts type definitions from operations itself.
 */
export function ownConfigSection(root: string): Record<string, unknown> {
  const dir = codeseamCacheDir('graphql-config')
  mkdirSync(dir, { recursive: true })
  const file = nodePath.join(dir, `${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`)
  const globs = graphqlExtensions.map((ext) => `${literal(root)}/**/*${ext}`)
  const ignored = graphqlExtensions.map((ext) => `!${literal(root)}/**/node_modules/**/*${ext}`)
  const config = { schema: [...globs, ...ignored], documents: [...globs, ...ignored] }
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`)
  return { load: { filepath: file, rootDir: root } }
}

/** Whether a settings section names the one file the server reads (`load.filepath`: codeseam's, or a profile's). */
function namesFile(section: unknown): boolean {
  return isRecord(section) && isRecord(section['load']) && typeof section['load']['filepath'] === 'string'
}

/**
 * The settings a root's server is answered with: the root's own graphql-config when it has one (or a profile named a
 * file), else codeseam's. An untrusted root's trust rule has already set codeseam's.
 */
export function graphqlRootSettings(root: string, settings: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  if (namesFile(settings[configSection]) || hasOwnConfig(root)) return settings
  const section = isRecord(settings[configSection]) ? settings[configSection] : {}
  return { ...settings, [configSection]: { ...section, ...ownConfigSection(root) } }
}
