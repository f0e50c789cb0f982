import { readFile } from 'node:fs/promises'

import { LspError, normalizeExtension } from '@codeseam/lsp'

import { checkCompanionFields, checkCompanionIds } from './companions.js'
import { resolveResourceLimits, type ResourceLimits, type ResourceLimitsConfig } from './limits.js'
import type { ServerProfile } from '../profile/profiles.js'
import type { TrustLevel } from './trust.js'

/** Trust lives with the rules it switches (trust.ts); re-exported here, where the host options name it. */
export type { TrustLevel }

/**
 * A profile entry of the user config: a whole new profile, or a partial override of a built-in with the
 * same id (`enabled: false` disables it).
 */
export type ProfileConfig = ServerProfile | (Partial<ServerProfile> & { readonly id: string })

/** The user config: JSON file or object. */
export interface HostConfig {
  /** Added or overriding profiles, matched to built-ins by id. */
  readonly profiles?: ReadonlyArray<ProfileConfig>
  /** Host environment variables passed to every server on top of the minimal set (names, not values). */
  readonly envAllow?: ReadonlyArray<string>
  /** Per-request deadline, ms (default 60 000). */
  readonly requestTimeoutMs?: number
  /** Idle servers are stopped after this long without a query, ms (default 10 minutes; 0 disables). */
  readonly idleTtlMs?: number
  /**
   * Deprecated alias of `limits.maxOpenDocuments` (the documented key), still accepted; giving both with
   * different values is INVALID_ARGUMENT.
   */
  readonly maxOpenDocuments?: number
  /** Restarts allowed within `restartWindowMs` before the server is UNAVAILABLE (default 5 within 5 minutes). */
  readonly maxRestarts?: number
  readonly restartWindowMs?: number
  /** Largest single message a server may send, bytes (default 64 MiB). */
  readonly maxMessageBytes?: number
  /** Lines of server stderr kept for error messages (default 200). */
  readonly stderrLines?: number
  /** Quiescence window for pushed diagnostics, ms (default 400). */
  readonly diagnosticsQuietMs?: number
  /** Default bound on the diagnostics wait, ms (default 10 000). */
  readonly diagnosticsWaitMs?: number
  /** Workspace diagnostics open at most this many files (default 50). */
  readonly workspaceDiagnosticsMaxFiles?: number
  /** A server that answers nothing (not even the liveness probe) for this long is restarted, ms (default 30 000). */
  readonly livenessGraceMs?: number
  /** Process-count, memory and heap limits (defaults sized for this machine; see docs/security.md). */
  readonly limits?: ResourceLimitsConfig
}

/** Host options: the user config plus where to read more of it. */
export interface HostOptions extends HostConfig {
  /** A JSON file with a {@link HostConfig}; merged under the inline options. */
  readonly configFile?: string
  /** Start from the built-in profiles (default true). False: only the profiles given here, e.g. a fixture server. */
  readonly builtins?: boolean
}

/** The resolved settings every part of the host reads. */
export interface ResolvedHostConfig {
  readonly profiles: ReadonlyArray<ServerProfile>
  readonly envAllow: ReadonlyArray<string>
  readonly requestTimeoutMs: number
  readonly idleTtlMs: number
  readonly maxRestarts: number
  readonly restartWindowMs: number
  readonly maxMessageBytes: number
  readonly stderrLines: number
  readonly diagnosticsQuietMs: number
  readonly diagnosticsWaitMs: number
  readonly workspaceDiagnosticsMaxFiles: number
  readonly livenessGraceMs: number
  readonly limits: ResourceLimits
}

/** Reads a JSON config file. */
export async function readConfigFile(file: string): Promise<HostConfig> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new LspError('INVALID_ARGUMENT', `cannot read the lsp-local config file ${file}: ${(error as Error).message}`, { cause: error })
  }
  try {
    return JSON.parse(text) as HostConfig
  } catch (error) {
    throw new LspError('INVALID_ARGUMENT', `the lsp-local config file ${file} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    })
  }
}

function validateProfile(profile: ServerProfile): ServerProfile {
  const fail = (what: string) => new LspError('INVALID_ARGUMENT', `profile "${profile.id}": ${what}`)
  if (typeof profile.id !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(profile.id)) {
    throw new LspError('INVALID_ARGUMENT', `profile id ${JSON.stringify(profile.id)} must be letters, digits, dot, dash or underscore`)
  }
  if (typeof profile.command !== 'string' || profile.command.length === 0) throw fail('command must be a non-empty string')
  if (!Array.isArray(profile.args) || profile.args.some((a) => typeof a !== 'string')) throw fail('args must be an array of strings')
  const extensions: Record<string, string> = {}
  for (const [key, languageId] of Object.entries(profile.extensions ?? {})) {
    const extension = normalizeExtension(key)
    if (extension === undefined) throw fail(`"${key}" is not a file extension`)
    extensions[extension] = languageId
  }
  // A profile may claim files by name only (Docker Compose: `compose.yaml`, whose extension is YAML's).
  if (Object.keys(extensions).length === 0 && Object.keys(profile.fileNames ?? {}).length === 0) throw fail('claims no extensions')
  checkCompanionFields(profile)
  return { ...profile, extensions }
}

/**
 * Merges built-ins with the user's profiles: same id overrides field by field, new ids are added. Two
 * enabled profiles may not claim the same extension (the seam gives each extension to one provider).
 */
export function mergeProfiles(
  builtins: ReadonlyArray<ServerProfile>,
  user: ReadonlyArray<ProfileConfig> = [],
): ReadonlyArray<ServerProfile> {
  const byId = new Map<string, ServerProfile>(builtins.map((p) => [p.id, p]))
  for (const entry of user) {
    const base = byId.get(entry.id)
    // Only codeseam marks a profile as bundled, and a different command or script is no longer its own.
    const { bundled: _claimed, ...fields } = entry
    const { bundled: baseBundled, ...baseFields } = base ?? ({} as Partial<ServerProfile>)
    const keepsBundled = baseBundled === true && entry.command === undefined && entry.args === undefined
    const merged = { ...baseFields, ...fields, ...(keepsBundled ? { bundled: true } : {}) } as ServerProfile
    // An override that changes the command is a different server: whatever made the built-in unavailable no longer applies.
    if (base?.unavailable !== undefined && entry.command !== undefined && entry.unavailable === undefined) {
      const { unavailable: _dropped, ...rest } = merged
      byId.set(entry.id, validateProfile(rest))
    } else {
      byId.set(entry.id, validateProfile(merged))
    }
  }
  // A companion whose profile is turned off is dropped (the Compose server without the YAML server's outline).
  const disabled = new Set([...byId.values()].filter((p) => p.enabled === false).map((p) => p.id))
  const enabled = [...byId.values()]
    .filter((p) => p.enabled !== false)
    .map((p) =>
      p.companions?.some((c) => disabled.has(c.id)) === true ? { ...p, companions: p.companions.filter((c) => !disabled.has(c.id)) } : p,
    )
  checkCompanionIds(enabled)
  const owners = new Map<string, string>()
  // A companion-only profile is no provider of its own: its extensions only give its server language ids.
  for (const profile of enabled.filter((p) => p.companionOnly !== true)) {
    for (const extension of Object.keys(profile.extensions)) {
      const owner = owners.get(extension)
      if (owner !== undefined) {
        throw new LspError(
          'CONFLICT',
          `profiles "${owner}" and "${profile.id}" both claim "${extension}": disable one (\`{ id: "${owner}", enabled: false }\`)`,
        )
      }
      owners.set(extension, profile.id)
    }
  }
  return enabled
}

/** Resolves host options against the built-in profiles. */
export async function resolveHostConfig(options: HostOptions, builtins: ReadonlyArray<ServerProfile>): Promise<ResolvedHostConfig> {
  const fromFile = options.configFile === undefined ? {} : await readConfigFile(options.configFile)
  const config: HostConfig = { ...fromFile, ...options, profiles: [...(fromFile.profiles ?? []), ...(options.profiles ?? [])] }
  const positive = (value: number | undefined, fallback: number, name: string): number => {
    if (value === undefined) return fallback
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new LspError('INVALID_ARGUMENT', `${name} must be a non-negative number of milliseconds or a count, got ${String(value)}`)
    }
    return value
  }
  const alias = config.maxOpenDocuments
  if (alias !== undefined && config.limits?.maxOpenDocuments !== undefined && config.limits.maxOpenDocuments !== alias) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `maxOpenDocuments (${String(alias)}) and limits.maxOpenDocuments (${String(config.limits.maxOpenDocuments)}) disagree; set only limits.maxOpenDocuments`,
    )
  }
  const limits = resolveResourceLimits(alias === undefined ? config.limits : { ...config.limits, maxOpenDocuments: alias })
  return {
    limits,
    profiles: mergeProfiles(options.builtins === false ? [] : builtins, config.profiles),
    envAllow: [...(config.envAllow ?? [])],
    requestTimeoutMs: positive(config.requestTimeoutMs, 60_000, 'requestTimeoutMs'),
    idleTtlMs: positive(config.idleTtlMs, 10 * 60_000, 'idleTtlMs'),
    maxRestarts: positive(config.maxRestarts, 5, 'maxRestarts'),
    restartWindowMs: positive(config.restartWindowMs, 5 * 60_000, 'restartWindowMs'),
    maxMessageBytes: positive(config.maxMessageBytes, 64 * 1024 * 1024, 'maxMessageBytes'),
    stderrLines: positive(config.stderrLines, 200, 'stderrLines'),
    diagnosticsQuietMs: positive(config.diagnosticsQuietMs, 400, 'diagnosticsQuietMs'),
    diagnosticsWaitMs: positive(config.diagnosticsWaitMs, 10_000, 'diagnosticsWaitMs'),
    workspaceDiagnosticsMaxFiles: positive(config.workspaceDiagnosticsMaxFiles, 50, 'workspaceDiagnosticsMaxFiles'),
    livenessGraceMs: positive(config.livenessGraceMs, 30_000, 'livenessGraceMs'),
  }
}
