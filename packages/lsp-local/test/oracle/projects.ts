// Which project each file belongs to, to tell whether a symbol's references span two or more projects.
// TypeScript: every tsconfig.json / jsconfig.json under the root plus every config they reference,
// transitively, whatever its file name — read with the TypeScript compiler API (extends, files, include,
// exclude, references), never by hand. Python: the nearest enclosing folder with a project marker, or the root.
// Go: the package (folder). Rust: the crate target (package and cargo's target layout). Java: the source set of a
// build module (Maven's and Gradle's `src/<set>/java` layout, else the module).
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import ts from 'typescript'

import { pythonFolders, walkFiles, type OracleLanguage } from './oracle.js'

/** Files that no config claims belong to this pseudo-project (the server's inferred project). */
export const noProject = '(no project)'

export interface ProjectModel {
  /** Project ids (workspace-relative config paths, or Python folders; '.' is the root) with their file counts. */
  readonly projects: ReadonlyArray<{ readonly id: string; readonly files: number }>
  /** The projects a workspace-relative file belongs to (never empty: {@link noProject} when none). */
  projectsOf(path: string): ReadonlyArray<string>
}

function relativeTo(root: string, path: string): string {
  return nodePath.relative(root, path).split(nodePath.sep).join('/') || '.'
}

/** One TypeScript project the server would load: its id (the workspace-relative config path) and parsed config. */
export interface TypeScriptConfig {
  readonly id: string
  readonly parsed: ts.ParsedCommandLine
}

/**
 * Every TypeScript project under `root` (canonical path), as the server would load them: each tsconfig.json /
 * jsconfig.json and every config they reference, transitively; sorted by id.
 */
export function typeScriptConfigs(root: string): TypeScriptConfig[] {
  const host: ts.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} }
  const queue = walkFiles(root, (name) => name === 'tsconfig.json' || name === 'jsconfig.json')
  const seen = new Set<string>()
  const configs: TypeScriptConfig[] = []
  while (queue.length > 0) {
    const config = nodePath.resolve(queue.shift() as string)
    if (seen.has(config)) continue
    seen.add(config)
    const parsed = ts.getParsedCommandLineOfConfigFile(config, undefined, host)
    if (parsed === undefined) continue
    configs.push({ id: relativeTo(root, config), parsed })
    for (const reference of parsed.projectReferences ?? []) {
      const target = nodePath.resolve(ts.resolveProjectReferencePath(reference))
      const inside = !nodePath.relative(root, target).startsWith('..')
      if (inside && ts.sys.fileExists(target) && !seen.has(target)) queue.push(target)
    }
  }
  return configs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** The TypeScript project graph under `root` (canonical path), as the server would load it. */
export function typeScriptProjects(root: string): ProjectModel {
  const owners = new Map<string, string[]>()
  const projects = typeScriptConfigs(root).map(({ id, parsed }) => {
    for (const file of parsed.fileNames) {
      const key = relativeTo(root, nodePath.resolve(file))
      owners.set(key, [...(owners.get(key) ?? []), id])
    }
    return { id, files: parsed.fileNames.length }
  })
  return { projects, projectsOf: (path) => owners.get(path) ?? [noProject] }
}

/** The Python projects under `root`: the root and every nested folder with a marker; a file belongs to the nearest. */
export function pythonProjects(root: string): ProjectModel {
  const folders = pythonFolders(root).map((folder) => relativeTo(root, folder))
  const nearest = (path: string) =>
    folders.filter((folder) => folder === '.' || path.startsWith(`${folder}/`)).sort((a, b) => b.length - a.length)[0] ?? '.'
  return { projects: folders.map((id) => ({ id, files: -1 })), projectsOf: (path) => [nearest(path)] }
}

/**
 * Go: a project is a package — the folder of a file, inside the module of the nearest go.mod (a folder path
 * already names both).
 */
export function goProjects(root: string): ProjectModel {
  const packages = new Map<string, number>()
  for (const file of walkFiles(root, (name) => name.endsWith('.go'))) {
    const id = relativeTo(root, nodePath.dirname(file))
    packages.set(id, (packages.get(id) ?? 0) + 1)
  }
  return {
    projects: [...packages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, files]) => ({ id, files })),
    projectsOf: (path) => [nodePath.posix.dirname(path)],
  }
}

/**
 * Rust: a project is a crate target — the package of the nearest Cargo.toml with a `[package]`, then which of its
 * targets a file is compiled in by cargo's layout conventions: `tests/x.rs` or `tests/x/…` (an integration
 * test), `benches/…`, `examples/…`, `build.rs`, else the package's own crate (`src/…`).
 */
export function rustProjects(root: string): ProjectModel {
  const packages = walkFiles(root, (name) => name === 'Cargo.toml')
    .filter((manifest) => /^\s*\[package\]/m.test(readFileSync(manifest, 'utf8')))
    .map((manifest) => relativeTo(root, nodePath.dirname(manifest)))
    .sort((a, b) => b.length - a.length)
  const counts = new Map<string, number>()
  const projectOf = (path: string): string => {
    const pkg = packages.find((folder) => folder === '.' || path.startsWith(`${folder}/`)) ?? '.'
    const inside = pkg === '.' ? path : path.slice(pkg.length + 1)
    const [first, second] = inside.split('/')
    const target =
      inside === 'build.rs'
        ? 'build'
        : (first === 'tests' || first === 'benches' || first === 'examples') && second !== undefined
          ? `${first}/${second.replace(/\.rs$/, '')}`
          : 'crate'
    return `${pkg}:${target}`
  }
  for (const file of walkFiles(root, (name) => name.endsWith('.rs'))) {
    const id = projectOf(relativeTo(root, file))
    counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  return {
    projects: [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, files]) => ({ id, files })),
    projectsOf: (path) => [projectOf(path)],
  }
}

/** The build files that make a folder a Java build module of its own. */
const javaBuildFiles = ['pom.xml', 'build.gradle', 'build.gradle.kts']

/**
 * Java: a project is a source set of a build module — the nearest folder with a pom.xml or Gradle build file, then
 * `src/<set>/…` of Maven's and Gradle's standard layout (`main`, `test`: compiled separately, the tests against
 * the main classes), else the module's own sources.
 */
export function javaProjects(root: string): ProjectModel {
  const modules = walkFiles(root, (name) => javaBuildFiles.includes(name))
    .map((file) => relativeTo(root, nodePath.dirname(file)))
    .sort((a, b) => b.length - a.length)
  const projectOf = (path: string): string => {
    const module = modules.find((folder) => folder === '.' || path.startsWith(`${folder}/`)) ?? '.'
    const [first, second] = (module === '.' ? path : path.slice(module.length + 1)).split('/')
    return `${module}:${first === 'src' && second !== undefined && second !== '' ? second : 'sources'}`
  }
  const counts = new Map<string, number>()
  for (const file of walkFiles(root, (name) => name.endsWith('.java'))) {
    const id = projectOf(relativeTo(root, file))
    counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  return {
    projects: [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, files]) => ({ id, files })),
    projectsOf: (path) => [projectOf(path)],
  }
}

export function projectModel(root: string, language: OracleLanguage): ProjectModel {
  switch (language) {
    case 'typescript':
      return typeScriptProjects(root)
    case 'python':
      return pythonProjects(root)
    case 'go':
      return goProjects(root)
    case 'rust':
      return rustProjects(root)
    case 'java':
      return javaProjects(root)
  }
}
