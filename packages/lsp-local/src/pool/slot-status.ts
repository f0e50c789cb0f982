import { LspError, type LspProviderStatus } from '@codeseam/lsp'

import type { ServerProfile } from '../profile/profiles.js'
import type { LanguageServer, ServerState } from '../server/language-server.js'
import type { FeatureFacts } from './feature-facts.js'

const states: Record<ServerState, LspProviderStatus['state']> = {
  starting: 'starting',
  indexing: 'indexing',
  ready: 'ready',
  crashed: 'crashed',
  stopped: 'idle',
}

/** What a slot's status is made of. */
export interface SlotState {
  readonly root: string
  readonly profile: ServerProfile
  readonly server: LanguageServer | undefined
  /** Why the slot no longer starts its server (crash loop), if it does not. */
  readonly unavailable: string | undefined
  /** The memory-restart reason not yet reported. */
  readonly notice: string | undefined
  /** What the untrusted plan the server runs on costs in answers (SpawnPlan.degraded). */
  readonly degraded?: string | undefined
  readonly restarts: number
}

/** A slot's status without the RSS (which needs /proc): state, the reason for it, uptime, operations, restarts. */
export function slotStatus(
  { root, profile, server, unavailable, notice, degraded, restarts }: SlotState,
  { negotiatedOperations }: FeatureFacts,
): LspProviderStatus {
  return {
    providerId: `local:${profile.id}`,
    root,
    server: profile.id,
    state: unavailable !== undefined ? 'unavailable' : server === undefined ? 'idle' : states[server.state],
    ...(unavailable !== undefined
      ? { reason: unavailable }
      : server?.crashReason !== undefined
        ? { reason: server.crashReason }
        : notice !== undefined
          ? { reason: notice }
          : ownWarning(server) !== undefined
            ? { reason: ownWarning(server) as string }
            : degraded !== undefined
              ? { reason: degraded }
              : {}),
    ...(server === undefined
      ? {}
      : { uptimeMs: Date.now() - server.startedAt, operations: negotiatedOperations(server.capabilities, server.registrations) }),
    restarts,
    languages: [...new Set(Object.values(profile.extensions))],
  }
}

/**
 * What a server reporting its own health says when that is not `ok` (rust-analyzer: "… has sysroot errors: can't
 * load standard library from sysroot … try installing `rust-src`"): it answers, but less, and the status says why.
 */
function ownWarning(server: LanguageServer | undefined): string | undefined {
  const status = server?.busy.lastStatus
  if (status === undefined || status.health === 'ok') return undefined
  const message = status.message?.trim()
  return `the server reports ${status.health === 'error' ? 'an error' : 'a warning'}${message === undefined || message === '' ? '' : `: ${message}`}`
}

/** The error of a slot that no longer starts its server (a crash loop): why, and for which root. */
export function slotUnavailable(profile: ServerProfile, root: string, reason: string | undefined): LspError {
  return new LspError('UNAVAILABLE', `the ${profile.id} language server for ${root} is unavailable: ${reason ?? 'unknown reason'}`, {
    data: { profile: profile.id, root },
  })
}
