import { minimalEnvironment } from './config.js'
import type { ServerProfile } from './profiles.js'

/**
 * The environment a server gets: the minimal set (no credentials), the user's allow-list, the profile's
 * own allow-list and variables — nothing else from the host.
 */
export function serverEnvironment(
  hostAllow: ReadonlyArray<string>,
  profile: ServerProfile,
  override?: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of [...minimalEnvironment, ...hostAllow, ...(profile.envAllow ?? [])]) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  return { ...env, ...(profile.env ?? {}), ...(override ?? {}) }
}
