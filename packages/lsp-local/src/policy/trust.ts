import * as nodePath from 'node:path'

import { LspError, isWithin } from '@codeseam/lsp'

import { pythonSelectionEnvironment } from './environment.js'
import { canonical, isRegularFile, lookUp, ownTsserverPath, sanitizePath } from './executables.js'
import type { ServerProfile } from './profiles.js'
import { projectSitePackages, userPython } from './python-interpreter.js'
import { serverKind } from './server-kind.js'

/** Whether the host may let a root's own files choose code to run. Roots are untrusted by default. */
export type TrustLevel = 'trusted' | 'untrusted'

/**
 * Untrusted mode, per profile: what a server may run or load because the WORKSPACE says so, switched
 * off. Every rule below is backed by the server's own source; docs/security.md quotes file and line.
 */

/** Everything the host needs to start one server. */
export interface SpawnPlan {
  /** Absolute path (untrusted mode always resolves bare names) or, when trusted, the profile's command. */
  readonly command: string
  readonly args: ReadonlyArray<string>
  /** The complete environment (the host's minimal environment with these changes applied). */
  readonly env: Readonly<Record<string, string>>
  readonly initializationOptions?: unknown
  readonly settings: Readonly<Record<string, unknown>>
  /** What untrusted mode changed, for status and logs (empty when trusted). */
  readonly hardening: ReadonlyArray<string>
}

export interface TrustContext {
  /** Canonical project root the server runs in (its cwd). */
  readonly root: string
  /** Canonical workspace root: the trust boundary (default `root`). Nothing inside it may be executed. */
  readonly workspaceRoot?: string
  readonly trust: TrustLevel
  /** The environment the server would get (already the host's minimal environment). */
  readonly env: Readonly<Record<string, string>>
  /**
   * Interpreter pyright may run in untrusted mode (absolute, outside the workspace); default: the one the
   * user would get outside the workspace (python-interpreter.ts `userPython`).
   */
  readonly pythonInterpreter?: string
  /** How the user selects their default Python (VIRTUAL_ENV, PYENV_VERSION, …); default: read from the host's environment. */
  readonly pythonSelection?: Readonly<Record<string, string>>
}

function untrusted(profile: ServerProfile, workspaceRoot: string, why: string, fix: string): LspError {
  return new LspError('UNTRUSTED', `the ${profile.id} server ${why}, and ${workspaceRoot} is untrusted: ${fix}`, {
    data: { profile: profile.id, root: workspaceRoot },
  })
}

const trustFix = (root: string) =>
  `mark the root trusted (openWorkspace(root, { trust: 'trusted' }) / --trust ${root}) if you have vetted it`

/** Interpreters that run their first operand: that script is what really runs. */
const scriptRunners = /^(node|nodejs|bun|deno|python[0-9.]*|pypy[0-9.]*|ruby|perl|php|java|sh|bash|dash|zsh)(\.exe)?$/

/** The absolute command to run, refusing anything the workspace supplies. */
function resolveCommand(profile: ServerProfile, root: string, workspaceRoot: string, path: string): string {
  const { command } = profile
  let resolved: string | undefined
  if (nodePath.isAbsolute(command)) resolved = command
  else if (command.includes('/') || command.includes('\\')) resolved = nodePath.resolve(root, command)
  else resolved = lookUp(command, path)
  if (resolved === undefined) return command // not installed: the spawn fails with a clear error, nothing runs
  // A bundled profile's files are codeseam's own dependencies: they may sit inside the workspace only when
  // codeseam itself is installed there (running codeseam on its own repository), which the workspace did not choose.
  if (profile.bundled === true) return canonical(resolved)
  if (isWithin(workspaceRoot, nodePath.resolve(resolved)) || isWithin(workspaceRoot, canonical(resolved))) {
    throw untrusted(
      profile,
      workspaceRoot,
      `command ${command} resolves to ${resolved}, inside the workspace`,
      `point "command" at an installed server outside the workspace, or ${trustFix(workspaceRoot)}`,
    )
  }
  // A script runner (node, python, …) runs its first operand: that file must not be the workspace's either.
  if (scriptRunners.test(nodePath.basename(resolved))) {
    const script = profile.args.find((a) => !a.startsWith('-'))
    if (script !== undefined && (script.includes('/') || script.includes('\\') || /\.(m?js|cjs|py|rb|pl|sh)$/.test(script))) {
      const scriptPath = nodePath.resolve(root, script)
      if (isWithin(workspaceRoot, scriptPath) || isWithin(workspaceRoot, canonical(scriptPath))) {
        throw untrusted(
          profile,
          workspaceRoot,
          `runs the script ${script}, inside the workspace`,
          `install the server outside the workspace, or ${trustFix(workspaceRoot)}`,
        )
      }
    }
  }
  return canonical(resolved)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Deep merge where `over` wins; arrays and scalars replace. */
export function mergeSettings(base: unknown, over: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = isRecord(base) ? { ...base } : {}
  for (const [key, value] of Object.entries(over)) out[key] = isRecord(value) && isRecord(out[key]) ? mergeSettings(out[key], value) : value
  return out
}

/** Drops `--flag value` / `--flag=value` (one or two dashes) from an argument list. */
function dropFlag(args: ReadonlyArray<string>, flag: string): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const name = arg.replace(/^--?/, '').split('=')[0]
    if (arg.startsWith('-') && name === flag) {
      if (!arg.includes('=')) i++
      continue
    }
    out.push(arg)
  }
  return out
}

/**
 * The spawn plan for a profile at a trust level. Trusted: the profile as configured. Untrusted: the
 * profile's {@link ServerProfile.untrusted} policy, then every workspace-driven execution path of the
 * server turned off; a profile that cannot be made safe throws LspError('UNTRUSTED') saying what to do.
 */
export function planSpawn(profile: ServerProfile, context: TrustContext): SpawnPlan {
  const policy = context.trust === 'untrusted' ? profile.untrusted : undefined
  if (context.trust === 'trusted') {
    return {
      command: profile.command,
      args: profile.args,
      env: { ...context.env },
      initializationOptions: profile.initializationOptions,
      settings: profile.settings ?? {},
      hardening: [],
    }
  }
  const workspaceRoot = context.workspaceRoot ?? context.root
  if (policy === 'refuse') {
    throw untrusted(
      profile,
      workspaceRoot,
      'would run code chosen by the workspace (its profile says `untrusted: "refuse"`)',
      trustFix(workspaceRoot),
    )
  }
  const hardening: string[] = []
  const env: Record<string, string> = { ...context.env, ...(policy?.env ?? {}) }
  const safePath = sanitizePath(env['PATH'], workspaceRoot)
  if (safePath !== (env['PATH'] ?? '')) hardening.push('PATH entries that resolve inside the workspace removed')
  env['PATH'] = safePath
  // Preloads and module paths are the user's to allow, never inherited into an untrusted root.
  for (const name of ['NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'CLANGD_FLAGS']) {
    if (name in env && !(name in (policy?.env ?? {}))) {
      delete env[name]
      hardening.push(`${name} not passed`)
    }
  }
  // `python -m server` and `python -c` put the cwd (the root) first on sys.path: a workspace module of the
  // same name would run. Python 3.11+ honours this switch for any Python-based server.
  if (env['PYTHONSAFEPATH'] === undefined) env['PYTHONSAFEPATH'] = '1'
  const command = resolveCommand(profile, context.root, workspaceRoot, safePath)
  let args = [...(policy?.args ?? profile.args)]
  let initializationOptions: unknown = policy?.initializationOptions ?? profile.initializationOptions
  let settings: Record<string, unknown> = { ...(policy?.settings ?? profile.settings ?? {}) }

  switch (serverKind(profile)) {
    case 'native-typescript': {
      // tsgo has no plugin loader; its one workspace-driven execution is automatic type acquisition, which
      // runs `npm install` for packages the workspace's package.json names.
      settings = mergeSettings(settings, {
        'js/ts': { tsserver: { automaticTypeAcquisition: { enabled: false } } },
        typescript: { disableAutomaticTypeAcquisition: true, tsserver: { automaticTypeAcquisition: { enabled: false } } },
        javascript: { disableAutomaticTypeAcquisition: true, tsserver: { automaticTypeAcquisition: { enabled: false } } },
      })
      hardening.push('automatic type acquisition (npm install) off')
      if (args.some((a) => /^--?pprofDir\b/.test(a))) {
        args = dropFlag(args, 'pprofDir')
        hardening.push('--pprofDir dropped')
      }
      break
    }
    case 'typescript-language-server': {
      const options = isRecord(initializationOptions) ? initializationOptions : {}
      const tsserver = isRecord(options['tsserver']) ? options['tsserver'] : {}
      const given = typeof tsserver['path'] === 'string' ? tsserver['path'] : undefined
      // An invalid or missing tsserver.path makes the server fall back to the WORKSPACE's
      // node_modules/typescript, whose tsserver.js it then forks: the path must be ours and valid.
      const usable =
        given !== undefined &&
        nodePath.isAbsolute(given) &&
        nodePath.basename(given) === 'tsserver.js' &&
        isRegularFile(given) &&
        !isWithin(workspaceRoot, canonical(given))
      const path = usable ? given : ownTsserverPath()
      if (path === undefined) {
        throw untrusted(
          profile,
          workspaceRoot,
          "would fall back to the workspace's own node_modules/typescript because no TypeScript is installed with codeseam",
          `install typescript next to @codeseam/lsp-local, or ${trustFix(workspaceRoot)}`,
        )
      }
      const plugins = Array.isArray(options['plugins'])
        ? options['plugins'].filter(
            (p) =>
              !(isRecord(p) && typeof p['location'] === 'string' && isWithin(workspaceRoot, nodePath.resolve(context.root, p['location']))),
          )
        : []
      const { npmLocation: _npm, ...rest } = options
      const { fallbackPath: _fallback, ...tsserverRest } = tsserver
      initializationOptions = { ...rest, plugins, disableAutomaticTypingAcquisition: true, tsserver: { ...tsserverRest, path } }
      hardening.push(
        "tsserver is codeseam's own TypeScript",
        'automatic typing acquisition (npm) off',
        'workspace plugin locations dropped',
      )
      args = args.filter((a) => a !== '--allowLocalPluginLoads')
      break
    }
    case 'pyright': {
      // pyright runs a Python interpreter (python.pythonPath, else `python3` then `python` on PATH, with the
      // root as cwd) to learn its search paths. We choose it: the interpreter the user would get OUTSIDE the
      // workspace (their activated virtualenv, their version manager's global choice, or `python3` on PATH),
      // found by running the candidate once in a folder outside the workspace, so a workspace
      // .python-version / .tool-versions never selects it; absolute, and never one living in the workspace.
      const selection = context.pythonSelection ?? pythonSelectionEnvironment()
      const found = context.pythonInterpreter === undefined ? userPython({ workspaceRoot, path: safePath, env, selection }) : undefined
      const chosen = context.pythonInterpreter ?? found?.executable
      if (
        chosen !== undefined &&
        (!nodePath.isAbsolute(chosen) || isWithin(workspaceRoot, nodePath.resolve(chosen)) || isWithin(workspaceRoot, canonical(chosen)))
      ) {
        throw untrusted(
          profile,
          workspaceRoot,
          `would run the Python interpreter ${chosen}, inside the workspace`,
          `choose an interpreter outside the workspace, or ${trustFix(workspaceRoot)}`,
        )
      }
      // No interpreter: name one that cannot exist, so pyright's own PATH fallback never runs; it then
      // analyses with its bundled typeshed stubs only.
      const pythonPath =
        chosen === undefined
          ? nodePath.join(nodePath.parse(workspaceRoot).root, 'nonexistent', 'codeseam-no-python', 'python3')
          : nodePath.resolve(chosen)
      const python = isRecord(settings['python']) ? settings['python'] : {}
      const analysis = isRecord(python['analysis']) ? python['analysis'] : {}
      // A project virtual environment inside the workspace is used by path only: its site-packages become
      // extra search paths; its interpreter (a workspace file) never runs.
      const venv = projectSitePackages({
        root: context.root,
        workspaceRoot,
        ...(selection['VIRTUAL_ENV'] === undefined ? {} : { virtualEnv: selection['VIRTUAL_ENV'] }),
        ...(found?.version === undefined ? {} : { version: found.version }),
      })
      const given = Array.isArray(analysis['extraPaths']) ? analysis['extraPaths'] : []
      const extraPaths = [...given, ...venv.paths.filter((path) => !given.includes(path))]
      settings = {
        ...settings,
        python: { ...python, pythonPath, ...(venv.paths.length > 0 ? { analysis: { ...analysis, extraPaths } } : {}) },
      }
      // Pin version managers too, in case anything else resolves `python` through a shim.
      env['PYENV_VERSION'] = 'system'
      hardening.push(`Python interpreter pinned to ${pythonPath}`)
      if (found !== undefined) hardening.push(`Python interpreter chosen outside the workspace (${found.via}, asked in ${found.cwd})`)
      hardening.push('PYENV_VERSION=system')
      if (venv.paths.length > 0)
        hardening.push(`workspace virtual environment read by path, its interpreter never run: ${venv.paths.join(', ')}`)
      if (venv.ignored.length > 0)
        hardening.push(`virtual environment site-packages leaving the workspace ignored: ${venv.ignored.join(', ')}`)
      break
    }
    case 'clangd': {
      // --query-driver globs let clangd execute the compilers compile_commands.json names; .clangd files
      // in the tree can change flags and the compiler. Neither may come from an untrusted workspace.
      if (args.some((a) => /^--?query-driver\b/.test(a))) hardening.push('--query-driver dropped')
      args = dropFlag(args, 'query-driver').filter((a) => !/^--?enable-config\b/.test(a))
      args.push('--enable-config=false')
      hardening.push('project .clangd config ignored (--enable-config=false)')
      break
    }
    case 'other':
      break
  }
  return { command, args, env, initializationOptions, settings, hardening }
}
