import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { readPom, type NamedPlugin, type ParentPom, type PomReading } from './m2e-mappings.js'
import { pomRisk } from './untrusted.js'

/*
 * The parent POMs of an untrusted root's POMs (issue 48). A parent can declare and bind plugins no root file names
 * (its `<build><plugins>`, `<pluginManagement>`, `<profiles>`), and m2e runs a bound goal whose plugin's jar maps it to
 * run on configuration: so each parent chain is read, and its plugins' goals join the workspace mappings file. m2e
 * takes a parent, as Maven's model builder does, from its `<relativePath>` (default `../pom.xml`) when that file's
 * coordinates match, else from the workspace's projects, else from the local repository, else from the remote
 * repositories; an untrusted import's are codeseam's own local repository and Maven Central only (its settings mirror
 * every `<repository>` a POM names to Central), so codeseam fetches a missing parent from Central into that same local
 * repository (`fetchParents`, before the server starts): m2e then reads the bytes codeseam judged.
 */

/** Maven Central, the only remote repository of an untrusted import (untrustedMavenSettings' mirror). */
export const mavenCentral = 'https://repo.maven.apache.org/maven2'

export interface ParentChains {
  /** Each root POM's ancestors, nearest first. */
  readonly chains: ReadonlyMap<string, ReadonlyArray<ParentPom>>
  /** Parents in no folder codeseam reads: to fetch (`group:artifact:version`). */
  readonly missing: ReadonlyArray<string>
  /** Why a parent cannot be judged (malformed, too large, names what loads code): the import is then unsafe. */
  readonly unreadable?: string
}

const coordinate = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/

/** The artifact path of a POM in a Maven repository layout (coordinates already checked). */
export const pomPath = (g: string, a: string, v: string) => [...g.split('.'), a, v, `${a}-${v}.pom`].join('/')

/** `group:artifact:version` of a POM as Maven sees it (inherited group and version), when its text names them. */
function coordinatesOf(reading: PomReading): string | undefined {
  const [g, a, v] = ['groupId', 'artifactId', 'version'].map((key) => reading.properties.get(`project.${key}`))
  return g === undefined || a === undefined || v === undefined || `${g}${a}${v}`.includes('${') ? undefined : `${g}:${a}:${v}`
}

/** A POM outside the root, with what it names that loads code; a string says why it cannot be read. */
function readParentFile(path: string): { readonly reading: PomReading; readonly risk?: string } | string {
  try {
    if (statSync(path).size > 4 * 1024 ** 2) return 'it is over 4 MiB'
    const text = readFileSync(path, 'utf8')
    if (!/<project[\s>]/.test(text)) return 'it is not a POM (no <project>)'
    const risk = pomRisk(text, true)
    return { reading: readPom(text), ...(risk === undefined ? {} : { risk }) }
  } catch (error) {
    return (error as Error).message
  }
}

/** The parent chain of every root POM, read from the root, the files they point at and `repository`; nothing fetched. */
export function parentChains(root: string, poms: ReadonlyArray<string>, repository: string): ParentChains {
  const readings = new Map<string, PomReading>()
  for (const pom of poms) {
    try {
      readings.set(pom, readPom(readFileSync(pom, 'utf8')))
    } catch {
      // Unreadable root POMs are not Maven's either.
    }
  }
  const byCoordinates = new Map(
    [...readings].flatMap(([pom, reading]) => {
      const id = coordinatesOf(reading)
      return id === undefined ? [] : [[id, pom] as const]
    }),
  )
  const chains = new Map<string, ParentPom[]>()
  const missing = new Set<string>()
  for (const [pom, own] of readings) {
    const chain: ParentPom[] = []
    chains.set(pom, chain)
    let reading = own
    let from = pom
    for (let depth = 0; reading.parent !== undefined; depth++) {
      const { groupId = '', artifactId = '', version = '', relativePath } = reading.parent
      const id = `${groupId}:${artifactId}:${version}`
      const fail = (why: string) => ({
        chains,
        missing: [...missing],
        unreadable: `the parent POM ${id} of ${nodePath.relative(root, pom)} ${why}`,
      })
      if (depth >= 16) return fail('is more than 16 parents deep')
      if (![groupId, artifactId, version].every((part) => coordinate.test(part)))
        return fail('is not named by plain coordinates (a property, a version range or a path)')
      let next: { path: string; label: string } | undefined
      if (relativePath !== '') {
        let candidate = nodePath.resolve(nodePath.dirname(from), relativePath ?? '../pom.xml')
        if (statSync(candidate, { throwIfNoEntry: false })?.isDirectory() === true) candidate = nodePath.join(candidate, 'pom.xml')
        // A file there that is not this parent is passed over, as Maven does.
        const there = readings.get(candidate) ?? (existsSync(candidate) ? readParentFile(candidate) : undefined)
        const seen = typeof there === 'string' || there === undefined ? undefined : 'reading' in there ? there.reading : there
        if (seen !== undefined && coordinatesOf(seen) === id) next = { path: candidate, label: nodePath.relative(root, candidate) }
      }
      const inRoot = byCoordinates.get(id)
      if (next === undefined && inRoot !== undefined) next = { path: inRoot, label: nodePath.relative(root, inRoot) }
      if (next === undefined) {
        const path = nodePath.join(repository, pomPath(groupId, artifactId, version))
        if (!existsSync(path)) {
          missing.add(id)
          break
        }
        next = { path, label: id }
      }
      const read = readings.get(next.path) ?? readParentFile(next.path)
      if (typeof read === 'string') return fail(`cannot be judged: ${read}`)
      if ('risk' in read && read.risk !== undefined) return fail(`names ${read.risk}`)
      const parent = 'reading' in read ? read.reading : read
      if (coordinatesOf(parent) !== id) return fail(`is malformed: ${next.label} names ${coordinatesOf(parent) ?? 'no plain coordinates'}`)
      chain.push({ label: next.label, reading: parent })
      reading = parent
      from = next.path
    }
    // m2e asks for the profiles a project's `.settings/org.eclipse.m2e.core.prefs` names (a file the repository can hold).
    const namedProfiles = existsSync(nodePath.join(nodePath.dirname(pom), '.settings', 'org.eclipse.m2e.core.prefs'))
    const loaded = loadedExtension(own, chain, namedProfiles)
    if (loaded !== undefined)
      return { chains, missing: [...missing], unreadable: `${loaded} (in the parent chain of ${nodePath.relative(root, pom)})` }
  }
  return { chains, missing: [...missing] }
}

/**
 * A plugin a parent marks `<extensions>true</extensions>` that the build uses (declared outside `<pluginManagement>`
 * by the POM or a parent): Maven loads it into the import. Named by a property, it is taken as used.
 */
function loadedExtension(own: PomReading, chain: ReadonlyArray<ParentPom>, namedProfiles: boolean): string | undefined {
  const key = (plugin: { groupId: string; artifactId: string }) => `${plugin.groupId}:${plugin.artifactId}`
  const uses = (plugin: NamedPlugin) => plugin.managed !== true && (namedProfiles || plugin.namedProfile !== true)
  const used = new Set([own, ...chain.map((parent) => parent.reading)].flatMap((r) => r.plugins.filter(uses).map(key)))
  for (const parent of chain)
    for (const plugin of parent.reading.plugins)
      if (plugin.extensions === true && (uses(plugin) || used.has(key(plugin)) || key(plugin).includes('${')))
        return `the parent POM ${parent.label} marks ${key(plugin)} <extensions>true</extensions>, and the build uses it (Maven loads it into the import)`
  return undefined
}

/**
 * Fetches the parents `parentChains` finds missing from `remote` into `repository` (written whole, then renamed), a
 * level at a time, until none is missing or `deadline`; returns what failed, in words (empty when nothing did).
 */
export async function fetchParents(
  root: string,
  poms: ReadonlyArray<string>,
  repository: string,
  options: { readonly deadline: number; readonly signal?: AbortSignal; readonly remote?: string },
): Promise<ReadonlyArray<string>> {
  const remote = options.remote ?? mavenCentral
  for (let level = 0; level < 17; level++) {
    const { missing, unreadable } = parentChains(root, poms, repository)
    if (unreadable !== undefined || missing.length === 0) return []
    const failed = await Promise.all(missing.map((id) => fetchOne(id, remote, repository, options)))
    const said = failed.filter((why): why is string => why !== undefined)
    if (said.length > 0) return said
  }
  return []
}

async function fetchOne(
  id: string,
  remote: string,
  repository: string,
  options: { readonly deadline: number; readonly signal?: AbortSignal },
): Promise<string | undefined> {
  const [g = '', a = '', v = ''] = id.split(':')
  const left = options.deadline - Date.now()
  if (left <= 0) return `${id} was not fetched: the deadline passed`
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), left)
  const stop = () => controller.abort()
  options.signal?.addEventListener('abort', stop)
  try {
    const response = await fetch(`${remote}/${pomPath(g, a, v)}`, { signal: controller.signal })
    if (!response.ok) return `${remote} answered ${response.status} for ${id}`
    const text = await response.text()
    if (text.length > 4 * 1024 ** 2) return `${id} from ${remote} is over 4 MiB`
    const path = nodePath.join(repository, pomPath(g, a, v))
    mkdirSync(nodePath.dirname(path), { recursive: true })
    const partial = `${path}.${process.pid}.part`
    writeFileSync(partial, text)
    renameSync(partial, path)
    return undefined
  } catch (error) {
    return controller.signal.aborted
      ? `${id} was not fetched from ${remote} within ${Math.max(1, Math.ceil(left / 1000))} s`
      : `fetching ${id} from ${remote} failed: ${(error as Error).message}`
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', stop)
  }
}
