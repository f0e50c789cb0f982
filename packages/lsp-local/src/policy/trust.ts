import * as nodePath from 'node:path'

import { LspError, isWithin } from '@codeseam/lsp'

import { languageRecords, recordFor } from '../languages/index.js'
import type { DraftPlan } from '../languages/record.js'
import { canonical, lookUp, sanitizePath } from '../profile/executables.js'
import type { ServerProfile } from '../profile/profiles.js'

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
  /** Untrusted: true when the workspace files the plan was judged on changed so that it must be made again. */
  readonly stale?: () => boolean
  /** Untrusted: what the hardening costs in answers, for the status (DraftPlan.degraded). */
  readonly degraded?: string
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
  /** What the record's `prepare` step said (see {@link prepareUntrusted}). */
  readonly prepared?: ReadonlyArray<string>
}

/**
 * The record's async step before an untrusted root's plan (RFC 0029: JDT LS fetches the parent POMs it judges), by
 * `deadline`; its result goes to {@link planSpawn} as `prepared`. Undefined when trusted or the record has none.
 */
export async function prepareUntrusted(
  profile: ServerProfile,
  context: { readonly root: string; readonly trust: TrustLevel; readonly deadline: number; readonly signal?: AbortSignal },
): Promise<ReadonlyArray<string> | undefined> {
  const prepare = context.trust === 'untrusted' && profile.untrusted !== 'refuse' ? recordFor(profile)?.trust.prepare : undefined
  const { root, deadline, signal } = context
  return prepare?.({ root, deadline, ...(signal === undefined ? {} : { signal }) })
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
  // Preloads, module paths and toolchain choices are the user's to allow, never inherited into an untrusted
  // root: the generic ones and every record's (docs/security.md).
  for (const name of untrustedStrip()) {
    if (name in env && !(name in (policy?.env ?? {}))) {
      delete env[name]
      hardening.push(`${name} not passed`)
    }
  }
  // `python -m server` and `python -c` put the cwd (the root) first on sys.path: a workspace module of the
  // same name would run. Python 3.11+ honours this switch for any Python-based server.
  if (env['PYTHONSAFEPATH'] === undefined) env['PYTHONSAFEPATH'] = '1'
  const command = resolveCommand(profile, context.root, workspaceRoot, safePath)
  const draft: DraftPlan = {
    args: [...(policy?.args ?? profile.args)],
    env,
    initializationOptions: policy?.initializationOptions ?? profile.initializationOptions,
    settings: { ...(policy?.settings ?? profile.settings ?? {}) },
    hardening,
  }
  const record = recordFor(profile)
  if (record === undefined && policy === undefined) {
    // A server codeseam has no record of may run anything a workspace file names: its profile must say what
    // untrusted mode changes (`{}` when nothing needs to).
    throw untrusted(
      profile,
      workspaceRoot,
      'is not a server codeseam knows, and its profile states no rule for untrusted roots',
      `add \`"untrusted": {}\` to the profile if the server runs nothing the workspace chooses (or settings that make it so, or "refuse"), or ${trustFix(workspaceRoot)}`,
    )
  }
  record?.trust.harden(draft, {
    profile,
    root: context.root,
    workspaceRoot,
    safePath,
    ...(context.pythonInterpreter === undefined ? {} : { pythonInterpreter: context.pythonInterpreter }),
    ...(context.pythonSelection === undefined ? {} : { pythonSelection: context.pythonSelection }),
    ...(context.prepared === undefined ? {} : { prepared: context.prepared }),
    refuse: (why, fix) =>
      untrusted(profile, workspaceRoot, why, fix === undefined ? trustFix(workspaceRoot) : `${fix}, or ${trustFix(workspaceRoot)}`),
  })
  return {
    command,
    args: draft.args,
    env: draft.env,
    initializationOptions: draft.initializationOptions,
    settings: draft.settings,
    hardening: draft.hardening,
    ...(draft.stale === undefined ? {} : { stale: draft.stale }),
    ...(draft.degraded === undefined ? {} : { degraded: draft.degraded }),
  }
}

/** Host variables no untrusted root's server inherits: preloads and module paths, and every record's strip list. */
export function untrustedStrip(): ReadonlyArray<string> {
  return [
    ...new Set(['NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', ...languageRecords.flatMap((record) => record.trust.strip)]),
  ]
}
