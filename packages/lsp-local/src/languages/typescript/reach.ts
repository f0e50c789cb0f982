import { readFile, stat } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { packageOf, resolvable, stripped, workspacePackages, type WorkspacePackage } from './packages.js'
import type { TsProjectGraph } from './projects.js'

/*
 * The projects a question about one file needs (RFC 0035): the file's projects and, transitively, every project that
 * can reach one of them. A sound over-approximation, read cheaply from the graph, the workspace's package.json files
 * and the text of the sources (never by resolving imports the way the compiler does): an edge is any hint that a
 * project's program can include a file of another — a project reference; the same package; a
 * workspace package named in its package.json dependencies, in a string literal of its files or in its `types`
 * (a file of no project: only in what it imports); a
 * `paths` / `baseUrl` / `rootDirs` / `typeRoots` prefix or a relative specifier that leads into the other's folder
 * or onto one of its files. Files of no project (inferred projects) are nodes of their own.
 */

/** A project, or one file of no project. */
interface Node {
  readonly files: ReadonlyArray<string>
  /** The config's folder; a loose file's own path. */
  readonly dir: string
  readonly config?: string
  readonly references: ReadonlyArray<string>
  readonly aliases: ReadonlyArray<string>
  readonly types: ReadonlyArray<string>
}

/** What reaches the target: the configs of the projects and the loose files. */
export interface Reaching {
  readonly configs: ReadonlySet<string>
  readonly looseFiles: ReadonlyArray<string>
}

const relativeSpecifier = /(['"`])(\.{1,2}(?:\/[^'"`\n\r]*)?)\1/g
const referencePath = /<reference\s+path\s*=\s*(['"])([^'"\n\r]+)\1/g
const literal = /(['"`])([@\w][^'"`\s]*)\1/g
const importSpecifier = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*(['"`])([^'"`\n\r]+)\1/g
const referenceTypes = /<reference\s+types\s*=\s*(['"])([^'"\n\r]+)\1/g

/** The package name a bare specifier names (`@scope/name/sub` → `@scope/name`). */
function bareName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}

/** What a node points at: alias prefixes (any file under them), relative specifiers' paths, workspace package names. */
interface Points {
  readonly prefixes: ReadonlyArray<string>
  readonly paths: ReadonlyArray<string>
  readonly packages: ReadonlySet<string>
  /** Packages its imports name with a path inside (`name/sub`). */
  readonly deep: ReadonlySet<string>
}

/** What one file's text points at: relative paths, and the package names its string literals could name. */
interface FileScan {
  readonly key: string
  readonly paths: ReadonlyArray<string>
  readonly names: ReadonlyArray<string>
  /** The same, from what it imports only (import, export … from, import(), require(), `/// <reference>`). */
  readonly imports: { readonly paths: ReadonlyArray<string>; readonly names: ReadonlyArray<string>; readonly deep: ReadonlyArray<string> }
}

/**
 * A copy of `name` that does not hold the text it was cut from: V8 keeps a slice of 13 characters or more as a view of
 * its parent string, so a name kept from a match would keep the whole file's text alive (issue 51: 5.9 MB of this
 * repository's sources were held so, by {@link scans}, in a `codeseam mcp` heap snapshot). JSON's round trip copies
 * every code unit, lone surrogates included.
 */
function detached(name: string): string {
  return name.length < 13 ? name : (JSON.parse(JSON.stringify(name)) as string)
}

/** Scans by file, kept while the file's stat holds (a question reads only the files changed since the last). */
const scans = new Map<string, FileScan>()

async function scanOf(file: string): Promise<FileScan | undefined> {
  const info = await stat(file).catch(() => undefined)
  if (info === undefined) return undefined
  const key = `${info.mtimeMs}:${info.size}:${info.ino}`
  const kept = scans.get(file)
  if (kept?.key === key) return kept
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return undefined
  }
  const dir = nodePath.dirname(file)
  const paths = new Set<string>()
  for (const match of text.matchAll(relativeSpecifier)) paths.add(stripped(nodePath.resolve(dir, match[2] ?? '.')))
  for (const match of text.matchAll(referencePath)) paths.add(stripped(nodePath.resolve(dir, match[2] ?? '.')))
  const names = new Set<string>()
  for (const match of text.matchAll(literal)) names.add(bareName(match[2] ?? ''))
  const imports = { paths: new Set<string>(), names: new Set<string>(), deep: new Set<string>() }
  for (const match of [...text.matchAll(importSpecifier), ...text.matchAll(referenceTypes)]) {
    const specifier = match[2] ?? ''
    if (specifier.startsWith('.')) imports.paths.add(stripped(nodePath.resolve(dir, specifier)))
    else {
      imports.names.add(bareName(specifier))
      if (bareName(specifier) !== specifier) imports.deep.add(bareName(specifier))
    }
  }
  for (const match of text.matchAll(referencePath)) imports.paths.add(stripped(nodePath.resolve(dir, match[2] ?? '.')))
  const imported = { paths: [...imports.paths], names: [...imports.names].map(detached), deep: [...imports.deep].map(detached) }
  const scan = { key, paths: [...paths], names: [...names].map(detached), imports: imported }
  if (scans.size >= 50_000) scans.clear()
  scans.set(file, scan)
  return scan
}

/**
 * Reads and scans files ahead of {@link reachingTarget} (beside the project graph's child, so the scans it needs are
 * kept by then), a few at a time.
 */
export async function prescan(files: ReadonlyArray<string>): Promise<void> {
  for (let at = 0; at < files.length; at += 32) await Promise.all(files.slice(at, at + 32).map(scanOf))
}

async function pointsOf(node: Node, names: ReadonlySet<string>): Promise<Points> {
  const paths = new Set<string>()
  const packages = new Set(node.types.map(bareName).filter((name) => names.has(name)))
  const deep = new Set<string>()
  for (const file of node.files) {
    const scan = await scanOf(file)
    // A file of no project is in an inferred project with what it imports: only its imports lead elsewhere.
    const read = node.config === undefined ? scan?.imports : scan
    for (const path of read?.paths ?? []) paths.add(path)
    for (const name of read?.names ?? []) if (names.has(name)) packages.add(name)
    for (const name of scan?.imports.deep ?? []) deep.add(name)
  }
  return { prefixes: node.aliases, paths: [...paths], packages, deep }
}

/** Index of the first element of a sorted array not below `value`. */
function lowerBound(sorted: ReadonlyArray<string>, value: string): number {
  let [low, high] = [0, sorted.length]
  while (low < high) {
    const middle = (low + high) >> 1
    if ((sorted[middle] as string) < value) low = middle + 1
    else high = middle
  }
  return low
}

/** The projects and files of no project of a folder as nodes, with each node's edges to those it can reach. */
interface ReachGraph {
  readonly nodes: ReadonlyArray<Node>
  /** The nodes each file belongs to. */
  readonly owners: ReadonlyMap<string, ReadonlyArray<number>>
  readonly reaches: ReadonlyArray<ReadonlySet<number>>
}

/**
 * The projects and loose files that can reach `target` (sources: the folder's source files the load may open);
 * undefined when the target belongs to no project (what reaches a loose file is not worked out: load everything).
 */
export async function reachingTarget(
  graph: TsProjectGraph,
  sources: ReadonlyArray<string>,
  folder: string,
  target: string,
  accept: (path: string) => boolean,
  /** The workspace's packages ({@link workspacePackages}), when read already (beside the project graph). */
  packagesRead?: Promise<ReadonlyMap<string, WorkspacePackage>>,
): Promise<Reaching | undefined> {
  if (!graph.projects.some((project) => project.files.includes(target) && project.files.some(accept))) return undefined
  const { nodes, owners, reaches } = await reachGraph(graph, sources, folder, accept, packagesRead)
  const targets = owners.get(target) ?? []
  // Backwards from the target's projects: every node with a path to one of them.
  const reachedFrom: number[][] = nodes.map(() => [])
  reaches.forEach((edges, index) => edges.forEach((other) => reachedFrom[other]?.push(index)))
  const needed = new Set(targets)
  for (const queue = [...targets]; queue.length > 0;) {
    const at = queue.pop() as number
    for (const from of reachedFrom[at] ?? []) {
      if (needed.has(from)) continue
      needed.add(from)
      queue.push(from)
    }
  }
  const picked = [...needed].map((index) => nodes[index] as Node)
  return {
    configs: new Set(picked.flatMap((node) => (node.config === undefined ? [] : [node.config]))),
    looseFiles: picked.flatMap((node) => (node.config === undefined ? node.files : [])).sort(),
  }
}

/**
 * For each of `looseFiles` (files of no project among the sources), the configs of the projects it reaches,
 * transitively (through other files of no project too): a question about a file of none of them does not need it.
 */
export async function looseReach(
  graph: TsProjectGraph,
  sources: ReadonlyArray<string>,
  folder: string,
  looseFiles: ReadonlyArray<string>,
  accept: (path: string) => boolean,
): Promise<Map<string, ReadonlySet<string>>> {
  const { nodes, owners, reaches } = await reachGraph(graph, sources, folder, accept)
  const closures = new Map<string, ReadonlySet<string>>()
  for (const file of looseFiles) {
    const configs = new Set<string>()
    const seen = new Set(owners.get(file) ?? [])
    for (const queue = [...seen]; queue.length > 0;) {
      const at = queue.pop() as number
      const config = nodes[at]?.config
      if (config !== undefined) configs.add(config)
      for (const next of reaches[at] ?? []) {
        if (seen.has(next)) continue
        seen.add(next)
        queue.push(next)
      }
    }
    closures.set(file, configs)
  }
  return closures
}

async function reachGraph(
  graph: TsProjectGraph,
  sources: ReadonlyArray<string>,
  folder: string,
  accept: (path: string) => boolean,
  packagesRead?: Promise<ReadonlyMap<string, WorkspacePackage>>,
): Promise<ReachGraph> {
  const owners = new Map<string, number[]>()
  const nodes: Node[] = []
  for (const project of graph.projects) {
    const files = project.files.filter(accept)
    if (files.length === 0) continue
    const index = nodes.length
    nodes.push({ ...project, files, dir: nodePath.dirname(project.config), aliases: project.aliases ?? [], types: project.types ?? [] })
    for (const file of project.files) owners.set(file, [...(owners.get(file) ?? []), index])
  }
  for (const file of sources) {
    if (owners.has(file) || !accept(file)) continue
    owners.set(file, [nodes.length])
    nodes.push({ files: [file], dir: file, references: [], aliases: [], types: [] })
  }
  const packages = await (packagesRead ?? workspacePackages(folder))
  const named = new Map<string, WorkspacePackage>()
  for (const each of packages.values()) if (each.name !== undefined) named.set(each.name, each)
  const packageOfNode = nodes.map((node) => packageOf(packages, folder, node.dir))
  const resolving = new Map<WorkspacePackage, boolean>()
  const resolves = (pkg: WorkspacePackage) => resolving.get(pkg) ?? resolving.set(pkg, resolvable(pkg)).get(pkg) === true
  const byConfig = new Map(nodes.flatMap((node, index) => (node.config === undefined ? [] : [[node.config, index] as const])))
  const byDir = new Map<string, number[]>()
  nodes.forEach((node, index) => byDir.set(node.dir, [...(byDir.get(node.dir) ?? []), index]))
  const sortedFiles = [...owners.keys()].sort()
  // Edges from each node to those it can reach.
  const reaches: Array<Set<number>> = nodes.map(() => new Set())
  const byPackage = new Map<WorkspacePackage, number[]>()
  packageOfNode.forEach((pkg, index) => pkg !== undefined && byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), index]))
  // A few nodes at a time, each file after the other: never thousands of files open at once.
  const points: Points[] = []
  for (let at = 0; at < nodes.length; at += 32)
    points.push(...(await Promise.all(nodes.slice(at, at + 32).map((node) => pointsOf(node, new Set(named.keys()))))))
  nodes.forEach((node, index) => {
    const edges = reaches[index] as Set<number>
    for (const config of node.references) if (byConfig.has(config)) edges.add(byConfig.get(config) as number)
    // A project: its own package's other projects, and the workspace packages it or its package names. A file of no
    // project: only what its own text names (an inferred project holds the file and what it imports, never its
    // package's dependencies): the configs and scripts of a package that depends on the target's reach nothing.
    const own = node.config === undefined ? undefined : packageOfNode[index]
    for (const other of own === undefined ? [] : (byPackage.get(own) ?? [])) edges.add(other)
    const names = new Set([...(points[index]?.packages ?? []), ...(own?.depends ?? [])])
    for (const name of names) {
      const pkg = named.get(name)
      // A file of no project resolves a package the way its inferred project does: never into one it cannot resolve.
      // (An import of a path inside it, `name/sub`, is left to resolve.)
      if (pkg === undefined || (node.config === undefined && !points[index]?.deep.has(name) && !resolves(pkg))) continue
      for (const other of byPackage.get(pkg) ?? []) edges.add(other)
    }
    const linked = (path: string, exact: boolean) => {
      // Onto files of others: under an alias prefix; a specifier's path with an extension, or its folder's index.
      let onto = false
      for (let at = lowerBound(sortedFiles, path); at < sortedFiles.length && (sortedFiles[at] as string).startsWith(path); at++) {
        const file = sortedFiles[at] as string
        if (exact && !/^(\.[^/]*|\/index\.[^/]*)$/.test(file.slice(path.length))) continue
        onto = true
        for (const other of owners.get(file) ?? []) edges.add(other)
      }
      if (onto) return
      // A workspace package's folder (its package.json's entry points), else the nearest project above (its outputs).
      const pkg = packages.get(path)
      for (const other of pkg === undefined ? [] : (byPackage.get(pkg) ?? [])) edges.add(other)
      for (let dir = path; dir.length >= folder.length; dir = nodePath.dirname(dir)) {
        const enclosing = byDir.get(dir) ?? []
        for (const other of enclosing) edges.add(other)
        if (enclosing.length > 0 || dir === nodePath.dirname(dir)) break
      }
    }
    for (const prefix of points[index]?.prefixes ?? []) linked(prefix, false)
    for (const path of points[index]?.paths ?? []) linked(path, true)
  })
  return { nodes, owners, reaches }
}
