import { recordFor } from '../languages/index.js'
import type { ServerProfile } from '../profile/profiles.js'

/** Variables every server gets from the host: nothing that carries credentials. */
export const minimalEnvironment: ReadonlyArray<string> = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'SYSTEMROOT',
]

/**
 * The environment a server gets: the minimal set (no credentials), the variables its record says choose its
 * toolchain (GOPATH, CARGO_HOME, …), the user's allow-list, the profile's own allow-list and variables — nothing
 * else from the host.
 */
export function serverEnvironment(
  hostAllow: ReadonlyArray<string>,
  profile: ServerProfile,
  override?: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of [
    ...minimalEnvironment,
    ...(recordFor(profile)?.environment.passed ?? []),
    ...hostAllow,
    ...(profile.envAllow ?? []),
  ]) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  return { ...env, ...(profile.env ?? {}), ...(override ?? {}) }
}
