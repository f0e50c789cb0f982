import { execFile } from 'node:child_process'
import { readdirSync, realpathSync, statSync } from 'node:fs'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import {
  clangdOperations,
  clangdOperationsFor,
  nativeTypeScriptOperations,
  pyrightOperations,
  typeScriptLanguageServerOperations,
  type ServerProfile,
} from './profiles.js'
import { ownPackageRequire } from './own-packages.js'

/*
 * The built-in profiles, resolved from this package's own dependencies (and clangd from PATH). What each
 * must answer (its operation list) is in profiles.ts.
 */

function packageDir(name: string): string | undefined {
  try {
    return nodePath.dirname(ownPackageRequire().resolve(`${name}/package.json`))
  } catch {
    return undefined
  }
}

let nativeExe: Promise<string | undefined> | undefined

/** The native TypeScript 7 executable from the `typescript-native` alias, via its own lookup (looked up once per process). */
function nativeTypeScriptExe(): Promise<string | undefined> {
  nativeExe ??= (async () => {
    const dir = packageDir('typescript-native')
    if (dir === undefined) return undefined
    try {
      const module = (await import(pathToFileURL(nodePath.join(dir, 'lib', 'getExePath.js')).href)) as { default: () => string }
      return module.default()
    } catch {
      return undefined
    }
  })()
  return nativeExe
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

/** `clangd --version` answers, by real path and modification time. */
const probedVersions = new Map<string, Promise<number | undefined>>()

/**
 * The major version of a clangd executable, without running it when its name (`clangd-19`) or its real path
 * (Debian's `/usr/bin/clangd` → `/usr/lib/llvm-14/bin/clangd`) tells; otherwise `clangd --version`, run
 * asynchronously without a shell and bounded, so the host's start never blocks the event loop on it, and
 * once per process for each real path and modification time.
 */
export async function clangdMajor(executable: string): Promise<number | undefined> {
  const fromName = versionedClangd.exec(nodePath.basename(executable))
  if (fromName !== null) return Number(fromName[1])
  let real: string
  let mtime: number
  try {
    real = realpathSync(executable)
    mtime = statSync(real).mtimeMs
  } catch {
    return undefined
  }
  const fromPath = /[/\\]llvm-(\d+)[/\\]/.exec(real)
  if (fromPath !== null) return Number(fromPath[1])
  // Asked once per executable and modification time: every host a process creates reuses the answer.
  const key = `${real}\0${mtime}`
  let probe = probedVersions.get(key)
  if (probe === undefined) {
    probe = new Promise<number | undefined>((resolve) => {
      execFile(executable, ['--version'], { encoding: 'utf8', timeout: 10_000, windowsHide: true }, (_error, out) => {
        const match = /clangd version (\d+)/.exec(typeof out === 'string' ? out : '')
        resolve(match?.[1] === undefined ? undefined : Number(match[1]))
      })
    })
    probedVersions.set(key, probe)
  }
  return probe
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
  const clangd = findClangd()
  // Concurrent: the native executable's lookup (a module import) and clangd's version (at worst a process).
  const [nativeExe, clangdVersion] = await Promise.all([nativeTypeScriptExe(), clangd === undefined ? undefined : clangdMajor(clangd)])
  const tlsDir = packageDir('typescript-language-server')
  const typescriptDir = packageDir('typescript')
  const pyrightDir = packageDir('pyright')
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
      deferredDiscovery: true,
      operations: pyrightOperations,
      // ruff in process: formatting, organize imports, fix-all, quick fixes and lint diagnostics beside pyright's.
      companions: [{ id: 'ruff', operations: ['format', 'codeActions', 'resolveCodeAction', 'diagnostics'] }],
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
