import { execFile } from 'node:child_process'
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import type { LspOperation } from '@codeseam/lsp'

import { clangdSupport, nativeTypeScriptSupport, pyrightSupport, supportedOperations } from './profile-operations.js'

/**
 * When a server counts as ready to answer. `initialized`: as soon as the initialize handshake is done
 * (servers that block requests until their project is loaded). `progressQuiet`: additionally wait until
 * no work-done progress is active, bounded by `readinessTimeoutMs`.
 */
export type ReadinessRule = 'initialized' | 'progressQuiet'

/**
 * Which directory a server runs in for a given file. `workspace`: one server for the whole workspace root
 * (servers that find nested projects themselves, like TypeScript). `workspaceFolders`: one server for the
 * workspace root, with every nested folder holding one of `rootMarkers` passed to it as a further LSP
 * workspace folder (each keeps its own configuration and imports: pyright). `nearest`: one server per
 * nearest ancestor of the file, inside the workspace, that holds one of `rootMarkers`.
 */
export type ProjectRootRule = 'workspace' | 'workspaceFolders' | 'nearest'

/** What changes when a root is untrusted: `refuse` refuses to start, otherwise these settings replace the trusted ones. */
export type UntrustedPolicy =
  | 'refuse'
  | {
      readonly args?: ReadonlyArray<string>
      readonly initializationOptions?: unknown
      readonly settings?: Readonly<Record<string, unknown>>
      readonly env?: Readonly<Record<string, string>>
    }

/**
 * A language server described as plain data. Everything needed to start it, talk to it and hold it to
 * its contract; no code. A fixture server is one such record.
 */
export interface ServerProfile {
  /** Stable id, e.g. `typescript`; the provider id becomes `local:<id>`. */
  readonly id: string
  /** Executable: an absolute path, or a bare name looked up on PATH (never run through a shell). */
  readonly command: string
  readonly args: ReadonlyArray<string>
  /** Extension (with dot) → LSP language id. */
  readonly extensions: Readonly<Record<string, string>>
  /** Files whose presence marks a project root (used with `projectRoot: 'nearest'`). */
  readonly rootMarkers?: ReadonlyArray<string>
  /** Default `workspace`. */
  readonly projectRoot?: ProjectRootRule
  /**
   * With `projectRoot: 'workspaceFolders'`: a setting (dotted path, an array of folders) that lists the nested
   * project folders (and their `src` folders) in the answer to configuration requests that name no scope.
   * pyright analyses a file that no workspace folder's configuration includes in a default workspace of its
   * own, which asks without a scope; with the folders as `python.analysis.extraPaths` its imports resolve as
   * they would in a server started in that folder.
   */
  readonly nestedFoldersSetting?: string
  /**
   * With `projectRoot: 'workspaceFolders'`: what makes a nested marker folder a workspace folder of its own (a
   * file, optionally holding some text); other nested marker folders only add search paths
   * (`nestedFoldersSetting`). Default: every nested marker folder is a workspace folder.
   */
  readonly ownConfig?: ReadonlyArray<{ readonly file: string; readonly contains?: string }>
  readonly initializationOptions?: unknown
  /**
   * Answers to workspace/configuration, by section. A request for section `a.b` gets `settings['a.b']`, or
   * `settings.a.b` walked as a path; an unknown section gets null. Also sent once with
   * workspace/didChangeConfiguration after initialize.
   */
  readonly settings?: Readonly<Record<string, unknown>>
  /** Extra environment variables for the server (added to the minimal environment). */
  readonly env?: Readonly<Record<string, string>>
  /** Names of host environment variables passed through in addition to the host-wide allow-list. */
  readonly envAllow?: ReadonlyArray<string>
  /**
   * Operations the server must answer (its minimum set). The provider declares exactly these; the
   * integration tests hold built-ins to them. Default: every operation, checked against the server's
   * capabilities at run time.
   */
  readonly operations?: ReadonlyArray<LspOperation>
  /** Default `initialized`. */
  readonly readiness?: ReadinessRule
  /** Upper bound for the readiness wait, ms (default 60 000). */
  readonly readinessTimeoutMs?: number
  /**
   * Before workspace-wide queries, make the server load everything (servers that search only what they have
   * loaded): `tsconfig` opens one file of every TypeScript project and the files of no project; `pyright` opens
   * the files no pyright configuration includes (docs/lsp-local.md, "The project model").
   */
  readonly loadAllProjects?: 'tsconfig' | 'pyright' | false
  /** Behaviour for untrusted roots. Default: run with the trusted settings (the profile runs no workspace code). */
  readonly untrusted?: UntrustedPolicy
  /** Set when the profile cannot run here (e.g. its executable is missing): why, and what to install. */
  readonly unavailable?: string
  /** Disabled profiles are ignored. Default true for built-ins except alternatives. */
  readonly enabled?: boolean
  /**
   * Set only by {@link builtinProfiles}: the command and script were resolved from codeseam's own
   * dependencies, so they are codeseam's files even when codeseam is installed inside the workspace it
   * serves. User profiles never carry it; overriding `command` or `args` clears it.
   */
  readonly bundled?: boolean
}

const require = createRequire(import.meta.url)

function packageDir(name: string): string | undefined {
  try {
    return nodePath.dirname(require.resolve(`${name}/package.json`))
  } catch {
    return undefined
  }
}

/** Looks a bare executable name up on PATH without a shell. */
export function findOnPath(name: string, path = process.env['PATH'] ?? ''): string | undefined {
  for (const dir of path.split(nodePath.delimiter)) {
    if (dir === '') continue
    const candidate = nodePath.join(dir, name)
    if (existsSync(candidate)) return candidate
  }
  return undefined
}

/** The native TypeScript 7 executable from the `typescript-native` alias, via its own lookup. */
async function nativeTypeScriptExe(): Promise<string | undefined> {
  const dir = packageDir('typescript-native')
  if (dir === undefined) return undefined
  try {
    const module = (await import(pathToFileURL(nodePath.join(dir, 'lib', 'getExePath.js')).href)) as { default: () => string }
    return module.default()
  } catch {
    return undefined
  }
}

const typeScriptExtensions = {
  '.ts': 'typescript',
  '.tsx': 'typescriptreact',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'javascript',
  '.jsx': 'javascriptreact',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
} as const

/** The minimum set of the native TS 7 server: everything but declaration and type hierarchy. */
export const nativeTypeScriptOperations: ReadonlyArray<LspOperation> = supportedOperations(nativeTypeScriptSupport)

/** typescript-language-server on TypeScript 6 also has no type hierarchy; it answers declaration via definition. */
export const typeScriptLanguageServerOperations: ReadonlyArray<LspOperation> = nativeTypeScriptOperations

/**
 * pyright: everything but implementation, formatting, inlay hints and type hierarchy — and code actions:
 * pyright 1.1.414 advertises them but only ever returns "create type stub" for an installed third-party
 * package without stubs (organize imports exists only as a command), so no fixture can hold it to them.
 */
export const pyrightOperations: ReadonlyArray<LspOperation> = supportedOperations(pyrightSupport)

/**
 * clangd adds declaration and (from clangd 17, the standard LSP form) type hierarchy. What it offers
 * depends on its version: 14 (Debian 12) has neither standard type hierarchy nor standard inlay hints
 * (16) nor outgoing calls (20). {@link clangdOperationsFor} picks the set for the installed version.
 */
export const clangdOperations: ReadonlyArray<LspOperation> = supportedOperations(clangdSupport)

/** The clangd minimum set for a major version (see {@link clangdOperations}). */
export function clangdOperationsFor(major: number | undefined): ReadonlyArray<LspOperation> {
  return supportedOperations(clangdSupport, major ?? 0)
}

/** True when `path` is a regular file (or a link to one) someone may execute. */
function isExecutableFile(path: string): boolean {
  try {
    const stat = statSync(path)
    return stat.isFile() && (process.platform === 'win32' || (stat.mode & 0o111) !== 0)
  } catch {
    return false
  }
}

const versionedClangd = /^clangd-(\d+)$/

/**
 * The clangd executables on PATH, newest first, without running any: `clangd-NN` by descending NN (Debian's
 * `clangd-19` package installs `/usr/bin/clangd-19`), then plain `clangd`, whose version its name does not
 * tell. Equal versions keep PATH order; relative PATH entries are ignored.
 */
export function findClangdCandidates(path = process.env['PATH'] ?? ''): ReadonlyArray<string> {
  const versioned: Array<{ readonly path: string; readonly major: number; readonly order: number }> = []
  const plain: string[] = []
  const seen = new Set<string>()
  for (const dir of path.split(nodePath.delimiter)) {
    // A relative entry names a different folder for every working directory (and the workspace's own `bin`
    // when the host runs in it): never an installed clangd.
    if (!nodePath.isAbsolute(dir) || seen.has(dir)) continue
    seen.add(dir)
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      continue
    }
    for (const name of names) {
      const match = versionedClangd.exec(name)
      const candidate = nodePath.join(dir, name)
      if (match !== null && isExecutableFile(candidate))
        versioned.push({ path: candidate, major: Number(match[1]), order: versioned.length })
      else if (name === 'clangd' && isExecutableFile(candidate)) plain.push(candidate)
    }
  }
  versioned.sort((a, b) => b.major - a.major || a.order - b.order)
  return [...versioned.map((v) => v.path), ...plain]
}

/** The newest clangd on PATH (see {@link findClangdCandidates}), or undefined when there is none. */
export function findClangd(path = process.env['PATH'] ?? ''): string | undefined {
  return findClangdCandidates(path)[0]
}

/**
 * The major version of a clangd executable, without running it when its name (`clangd-19`) or its real path
 * (Debian's `/usr/bin/clangd` → `/usr/lib/llvm-14/bin/clangd`) tells; otherwise `clangd --version`, run
 * asynchronously without a shell and bounded, so the host's start never blocks the event loop on it.
 */
export async function clangdMajor(executable: string): Promise<number | undefined> {
  const fromName = versionedClangd.exec(nodePath.basename(executable))
  if (fromName !== null) return Number(fromName[1])
  try {
    const fromPath = /[/\\]llvm-(\d+)[/\\]/.exec(realpathSync(executable))
    if (fromPath !== null) return Number(fromPath[1])
  } catch {
    return undefined
  }
  const stdout = await new Promise<string>((resolve) => {
    execFile(executable, ['--version'], { encoding: 'utf8', timeout: 10_000, windowsHide: true }, (_error, out) =>
      resolve(typeof out === 'string' ? out : ''),
    )
  })
  const match = /clangd version (\d+)/.exec(stdout)
  return match?.[1] === undefined ? undefined : Number(match[1])
}

/** Editor preferences both TypeScript servers read through workspace/configuration (inlay hints on, so the seam can ask for them). */
const typeScriptPreferences = {
  inlayHints: {
    parameterNames: { enabled: 'all', suppressWhenArgumentMatchesName: false },
    parameterTypes: { enabled: true },
    variableTypes: { enabled: true, suppressWhenTypeMatchesName: false },
    propertyDeclarationTypes: { enabled: true },
    functionLikeReturnTypes: { enabled: true },
    enumMemberValues: { enabled: true },
  },
}
const typeScriptSettings = { typescript: typeScriptPreferences, javascript: typeScriptPreferences, 'js/ts': typeScriptPreferences }

/** Why the clangd profile cannot run, and what to install. */
export const clangdUnavailable =
  'neither clangd nor clangd-NN is on PATH: install it (e.g. `apt-get install -y clangd-19`; type hierarchy needs clangd 17 or newer) to get C/C++ support'

/** The built-in profiles, resolved from this package's own dependencies (nothing global). */
export async function builtinProfiles(): Promise<ReadonlyArray<ServerProfile>> {
  const nativeExe = await nativeTypeScriptExe()
  const tlsDir = packageDir('typescript-language-server')
  const typescriptDir = packageDir('typescript')
  const pyrightDir = packageDir('pyright')
  const clangd = findClangd()
  const clangdVersion = clangd === undefined ? undefined : await clangdMajor(clangd)
  const node = process.execPath
  const missing = (what: string) => `${what} is not installed in @codeseam/lsp-local's dependencies; run pnpm install`
  return [
    {
      id: 'typescript',
      command: nativeExe ?? 'tsc',
      args: ['--lsp', '--stdio'],
      extensions: typeScriptExtensions,
      rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
      projectRoot: 'workspace',
      operations: nativeTypeScriptOperations,
      readiness: 'initialized',
      loadAllProjects: 'tsconfig',
      settings: typeScriptSettings,
      ...(nativeExe === undefined ? { unavailable: missing('typescript-native (npm:typescript@7.0.2)') } : { bundled: true }),
    },
    {
      id: 'typescript-language-server',
      command: node,
      args: [tlsDir === undefined ? 'typescript-language-server' : nodePath.join(tlsDir, 'lib', 'cli.mjs'), '--stdio'],
      extensions: typeScriptExtensions,
      rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
      projectRoot: 'workspace',
      operations: typeScriptLanguageServerOperations,
      // The partial syntax server answers `any` and stops definitions at imports: never use it, so every
      // answer comes from the loaded project.
      initializationOptions: {
        tsserver: {
          useSyntaxServer: 'never',
          ...(typescriptDir === undefined ? {} : { path: nodePath.join(typescriptDir, 'lib', 'tsserver.js') }),
        },
        preferences: {
          includeInlayParameterNameHints: 'all',
          includeInlayVariableTypeHints: true,
          includeInlayFunctionLikeReturnTypeHints: true,
        },
      },
      readiness: 'progressQuiet',
      loadAllProjects: 'tsconfig',
      settings: typeScriptSettings,
      enabled: false,
      ...(tlsDir === undefined || typescriptDir === undefined
        ? { unavailable: missing('typescript-language-server with typescript 6') }
        : { bundled: true }),
    },
    {
      id: 'pyright',
      command: node,
      args: [pyrightDir === undefined ? 'pyright-langserver' : nodePath.join(pyrightDir, 'langserver.index.js'), '--stdio'],
      extensions: { '.py': 'python', '.pyi': 'python' },
      rootMarkers: ['pyproject.toml', 'pyrightconfig.json', 'setup.py', 'setup.cfg'],
      projectRoot: 'workspaceFolders',
      nestedFoldersSetting: 'python.analysis.extraPaths',
      ownConfig: [{ file: 'pyrightconfig.json' }, { file: 'pyproject.toml', contains: '[tool.pyright' }],
      loadAllProjects: 'pyright',
      operations: pyrightOperations,
      settings: { python: { analysis: { diagnosticMode: 'openFilesOnly', autoSearchPaths: true } } },
      readiness: 'initialized',
      ...(pyrightDir === undefined ? { unavailable: missing('pyright') } : { bundled: true }),
    },
    {
      id: 'clangd',
      command: clangd ?? 'clangd',
      args: ['--background-index=false', '--log=error'],
      extensions: { '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp' },
      rootMarkers: ['compile_commands.json', 'compile_flags.txt', '.clangd'],
      // One clangd per workspace root: it finds each file's compile_commands.json / compile_flags.txt by
      // walking up from the file, so nested C/C++ projects need no server of their own.
      projectRoot: 'workspace',
      operations: clangd === undefined ? clangdOperations : clangdOperationsFor(clangdVersion),
      // textDocument/clangd.fileStatus tells when clangd has caught up with a document (empty answers are
      // retried until it reports the document idle). The untrusted policy below keeps these options.
      initializationOptions: { clangdFileStatus: true },
      readiness: 'initialized',
      // A workspace's .clangd file can point clangd at arbitrary compiler drivers; untrusted roots ignore it.
      untrusted: { args: ['--background-index=false', '--log=error', '--enable-config=false'] },
      ...(clangd === undefined ? { unavailable: clangdUnavailable } : {}),
    },
  ]
}
