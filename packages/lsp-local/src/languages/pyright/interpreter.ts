import { execFileSync } from 'node:child_process'
import { readdirSync, realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import * as nodePath from 'node:path'

import { isWithin } from '@codeseam/lsp'

/**
 * The Python interpreter an untrusted root's pyright runs: the one the user would get OUTSIDE the
 * workspace. A version manager's shim picks its interpreter from files in the folder it runs in
 * (`.python-version`, `.tool-versions`, …) and that folder's parents, so the candidate is run once in a
 * folder outside the workspace (the user's home, else the filesystem root) and asked which interpreter it
 * is; pyright then gets that absolute path as `python.pythonPath` and never runs `python3` from PATH itself.
 * docs/security.md ("pyright") has the rule and the evidence.
 */
export interface UserPython {
  /**
   * `sys.executable` as the interpreter reports it: a virtual environment's own `bin/python3`, not the base
   * interpreter its symlink points at (that one would lose the environment's site-packages).
   */
  readonly executable: string
  /** `major.minor`, when the interpreter said. */
  readonly version?: string
  /** The candidate that was run (e.g. `/home/u/.pyenv/shims/python3`). */
  readonly via: string
  /** The folder it was run in: outside the workspace. */
  readonly cwd: string
}

export interface UserPythonOptions {
  /** Canonical workspace root: nothing inside it is run, consulted or chosen. */
  readonly workspaceRoot: string
  /** PATH without entries that resolve inside the workspace (executables.ts `sanitizePath`). */
  readonly path: string
  /** The environment the candidate runs with: the server's minimal environment. */
  readonly env: Readonly<Record<string, string>>
  /** The user's interpreter selection (`pythonSelectionEnvironment()`): VIRTUAL_ENV, PYENV_VERSION, …. */
  readonly selection: Readonly<Record<string, string>>
  /** The user's home folder (default: `env.HOME`, else the OS's). */
  readonly home?: string
}

/** How long one candidate may take to say which interpreter it is (a cold pyenv shim takes ~0.25 s). */
const runTimeoutMs = 10_000
/** At most this many candidates are run when earlier ones fail. */
const maxCandidates = 6
const snippet = 'import sys; print(sys.executable); print("%d.%d" % sys.version_info[:2])'

/** What one candidate said, per (candidate, folder, environment): one spawn per host process. */
const answers = new Map<string, { executable: string; version?: string } | null>()

/** Forgets every cached answer (tests; a user who switched interpreters restarts the host). */
export function forgetUserPython(): void {
  answers.clear()
}

function canonical(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return nodePath.resolve(path)
  }
}

/** Inside the workspace by its path or by what it resolves to (symlinks). */
function inside(workspaceRoot: string, path: string): boolean {
  return isWithin(workspaceRoot, nodePath.resolve(path)) || isWithin(workspaceRoot, canonical(path))
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** A folder outside the workspace to run candidates in: home, else the filesystem root; none if the workspace holds both. */
export function outsideFolder(workspaceRoot: string, home: string | undefined): string | undefined {
  for (const dir of [home, nodePath.parse(workspaceRoot).root]) {
    if (dir !== undefined && dir !== '' && nodePath.isAbsolute(dir) && isDirectory(dir) && !inside(workspaceRoot, dir))
      return canonical(dir)
  }
  return undefined
}

/** The activated virtual environment's interpreter (if outside the workspace), then `python3`, then `python` along PATH. */
function candidates(options: UserPythonOptions): string[] {
  const found: string[] = []
  const venv = options.selection['VIRTUAL_ENV']
  if (venv !== undefined && nodePath.isAbsolute(venv) && !inside(options.workspaceRoot, venv)) {
    for (const exe of [
      ['bin', 'python3'],
      ['bin', 'python'],
      ['Scripts', 'python.exe'],
    ])
      found.push(nodePath.join(venv, ...exe))
  }
  const dirs = options.path.split(nodePath.delimiter).filter((dir) => dir !== '' && nodePath.isAbsolute(dir))
  for (const name of ['python3', 'python']) for (const dir of dirs) found.push(nodePath.join(dir, name))
  return [...new Set(found)].filter((path) => isFile(path) && !inside(options.workspaceRoot, path)).slice(0, maxCandidates)
}

/** Runs one candidate (no shell, bounded) in `cwd` and reads which interpreter it is; null when it fails. */
function ask(candidate: string, cwd: string, env: Readonly<Record<string, string>>): { executable: string; version?: string } | null {
  const key = JSON.stringify([candidate, cwd, Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])
  const cached = answers.get(key)
  if (cached !== undefined) return cached
  let answer: { executable: string; version?: string } | null = null
  try {
    // -E: no PYTHON* variables (PYTHONPATH, PYTHONSTARTUP, …); -s: no user site-packages. Neither changes sys.executable.
    const out = execFileSync(candidate, ['-E', '-s', '-c', snippet], {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: runTimeoutMs,
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024,
      windowsHide: true,
    })
    const [executable = '', version = ''] = out.split(/\r?\n/).map((line) => line.trim())
    if (executable !== '') answer = /^\d+\.\d+$/.test(version) ? { executable, version } : { executable }
  } catch {
    answer = null
  }
  answers.set(key, answer)
  return answer
}

/**
 * The interpreter the user would get outside the workspace, or undefined when there is none (no candidate
 * outside the workspace answers, or no folder outside the workspace to run it in). Never an interpreter
 * that lives inside the workspace, never one a workspace file selected. Cached per host process.
 */
export function userPython(options: UserPythonOptions): UserPython | undefined {
  const cwd = outsideFolder(options.workspaceRoot, options.home ?? options.env['HOME'] ?? homedir())
  if (cwd === undefined) return undefined
  const env: Record<string, string> = { ...options.env, ...options.selection, PATH: options.path, PWD: cwd }
  // PYENV_DIR is where pyenv starts looking for .python-version (default: the cwd): the user's own choice is
  // respected unless it points into the workspace.
  const pyenvDir = env['PYENV_DIR']
  if (pyenvDir !== undefined && (!nodePath.isAbsolute(pyenvDir) || inside(options.workspaceRoot, pyenvDir))) env['PYENV_DIR'] = cwd
  for (const candidate of candidates(options)) {
    const answer = ask(candidate, cwd, env)
    if (
      answer === null ||
      !nodePath.isAbsolute(answer.executable) ||
      !isFile(answer.executable) ||
      inside(options.workspaceRoot, answer.executable)
    )
      continue
    return { ...answer, via: candidate, cwd }
  }
  return undefined
}

/**
 * The site-packages of a virtual environment the project keeps inside the workspace (`.venv` or `venv` in
 * the project root or the workspace root, or an activated VIRTUAL_ENV inside the workspace): read by
 * path, its interpreter never run. Only folders whose real path stays inside the workspace (symlinks
 * checked); those that leave it are returned as `ignored`. The interpreter's own version comes first.
 */
export function projectSitePackages(options: { root: string; workspaceRoot: string; virtualEnv?: string; version?: string }): {
  paths: string[]
  ignored: string[]
} {
  const { workspaceRoot } = options
  const envs = [options.root, workspaceRoot].flatMap((base) => ['.venv', 'venv'].map((name) => nodePath.join(base, name)))
  if (
    options.virtualEnv !== undefined &&
    nodePath.isAbsolute(options.virtualEnv) &&
    isWithin(workspaceRoot, nodePath.resolve(options.virtualEnv))
  )
    envs.push(options.virtualEnv)
  const paths: string[] = []
  const ignored: string[] = []
  for (const env of [...new Set(envs)]) {
    if (!isDirectory(env) || !isWithin(workspaceRoot, nodePath.resolve(env))) continue
    const found: string[] = []
    const lib = nodePath.join(env, 'lib')
    let entries: string[] = []
    try {
      entries = readdirSync(lib).filter((name) => /^(python|pypy)\d+(\.\d+)?t?$/.test(name))
    } catch {
      entries = []
    }
    const preferred = options.version === undefined ? undefined : `python${options.version}`
    entries.sort((a, b) => (a === preferred ? -1 : b === preferred ? 1 : a < b ? 1 : a > b ? -1 : 0))
    for (const name of entries) found.push(nodePath.join(lib, name, 'site-packages'))
    found.push(nodePath.join(env, 'Lib', 'site-packages'))
    for (const site of found) {
      if (!isDirectory(site)) continue
      const real = canonical(site)
      if (!isWithin(workspaceRoot, real)) ignored.push(site)
      else if (!paths.includes(real)) paths.push(real)
    }
  }
  return { paths, ignored }
}
