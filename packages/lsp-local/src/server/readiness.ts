import type { ServerProfile } from '../profile/profiles.js'
import type { LanguageServer } from './language-server.js'
import { readyWait } from './telemetry.js'

/** What a profile's readiness rule waits for after the handshake (see {@link ReadinessRule}), bounded by its timeout. */
export async function readinessWait(
  server: Pick<LanguageServer, 'waitForQuiet' | 'analysis'>,
  profile: Pick<ServerProfile, 'id' | 'readiness' | 'readinessTimeoutMs'>,
  deadline: number,
  signal?: AbortSignal,
): Promise<void> {
  const until = Math.min(deadline, Date.now() + (profile.readinessTimeoutMs ?? 60_000))
  if (profile.readiness === 'progressQuiet') await server.waitForQuiet(until, signal)
  else if (profile.readiness === 'configured') await readyWait(profile.id, () => server.analysis.waitConfigured(until, signal))
}
