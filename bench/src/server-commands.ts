import * as nodePath from 'node:path'

import { builtinProfiles, type ServerProfile, type TrustLevel } from '@codeseam/lsp-local'

// Not part of lsp-local's public surface: the bench runs from sources and starts the bare server exactly as
// the host's slot does (pool/slot.ts: planSpawn, then the heap cap).
import { serverEnvironment } from '../../packages/lsp-local/src/policy/environment.js'
import { resolveResourceLimits, withHeapCap } from '../../packages/lsp-local/src/policy/limits.js'
import { planSpawn } from '../../packages/lsp-local/src/policy/trust.js'
import type { ServerCommand } from './floor-client.js'

/** The floor's command line for a built-in profile: the same executable the host would start. */
export function serverCommandOf(profile: ServerProfile): ServerCommand {
  return {
    command: profile.command,
    args: profile.args,
    languageIdFor: (path) => profile.extensions[nodePath.extname(path).toLowerCase()] ?? 'plaintext',
    ...(profile.initializationOptions === undefined ? {} : { initializationOptions: profile.initializationOptions }),
    ...(profile.settings === undefined ? {} : { settings: profile.settings }),
  }
}

/**
 * The floor's command for a built-in profile as codeseam's host would spawn it for `root` at `trust`: the
 * executable, arguments, complete environment, initialization options and settings of lsp-local's own
 * `planSpawn` (untrusted roots: the record's hardening), with the host's default heap cap (GOMEMLIMIT for
 * gopls). What the plan changed is returned beside it, for the report.
 */
export function plannedServerCommand(
  profile: ServerProfile,
  root: string,
  trust: TrustLevel,
): { readonly command: ServerCommand; readonly hardening: ReadonlyArray<string> } {
  // The host's defaults: no extra variables allowed through (`envAllow` []), the machine's default limits.
  const plan = planSpawn(profile, { root, workspaceRoot: root, trust, env: serverEnvironment([], profile) })
  const capped = withHeapCap(profile, plan, resolveResourceLimits().nodeHeapMb)
  return {
    command: {
      command: plan.command,
      args: capped.args,
      env: capped.env,
      languageIdFor: (path) => profile.extensions[nodePath.extname(path).toLowerCase()] ?? 'plaintext',
      ...(capped.initializationOptions === undefined ? {} : { initializationOptions: capped.initializationOptions }),
      settings: plan.settings,
    },
    hardening: plan.hardening,
  }
}

/** A built-in profile by id; throws with the reason when it cannot run here. */
export async function builtinProfile(id: string): Promise<ServerProfile> {
  const profile = (await builtinProfiles()).find((p) => p.id === id)
  if (profile === undefined) throw new Error(`lsp-local has no built-in profile "${id}"`)
  return profile
}

/**
 * The built-in profile that serves a language by default: the one enabled record whose profile claims the
 * language id (`typescript`, `python`, `go`, `rust`). The bench names languages; the records name the servers.
 */
export async function defaultProfile(languageId: string): Promise<ServerProfile> {
  const serving = (await builtinProfiles()).filter(
    (profile) => profile.enabled !== false && Object.values(profile.extensions).includes(languageId),
  )
  if (serving.length !== 1) {
    throw new Error(
      `expected one built-in profile serving ${languageId} by default, found ${serving.map((p) => p.id).join(', ') || 'none'}`,
    )
  }
  return serving[0] as ServerProfile
}
