import { LspError, type LspOperation, type LspResultMeta, type LspSearchCoverage } from '@codeseam/lsp'

import type { HostCore } from '../pool/host-core.js'
import type { ServerSlot } from '../pool/slot.js'
import type { ServerProfile } from '../profile/profiles.js'
import { supportsOperation } from './capabilities.js'
import type { LanguageServer } from '../server/language-server.js'
import type { Translator } from './translate.js'

/** What the provider's query paths (one file, workspace symbols, workspace diagnostics) share. */
export interface Serving {
  /** The provider id, `local:<profile id>`. */
  readonly id: string
  readonly profile: ServerProfile
  readonly host: HostCore
}

/** A server acquired for one query; `release` hands the slot back. */
export interface Acquired {
  readonly server: LanguageServer
  readonly release: () => void
  readonly warm: boolean
  /** The query's deadline, moved on by the time it waited for the server to finish indexing. */
  readonly deadline: number
}

/** How long a query waits for a server that reports its own indexing (rust-analyzer) to be quiescent, by default. */
export const defaultIndexingWaitMs = 30 * 60_000

/**
 * The slot's server for one query: through the slot's gate, shared (every query) or exclusive (a speculative
 * check, RFC 0018), so that no query runs while the server holds text that is not on disk.
 */
export async function acquire(slot: ServerSlot, deadline: number, signal: AbortSignal, exclusive = false): Promise<Acquired> {
  const used = slot.use()
  let leave: (() => void) | undefined
  const release = () => {
    leave?.()
    used()
  }
  try {
    leave = await (exclusive ? slot.gate.exclusive(signal) : slot.gate.shared(signal))
    const server = await slot.acquire(deadline, signal)
    return { server, release, warm: server.warm, deadline: deadline + (await untilQuiescent(slot, server, signal)) }
  } catch (error) {
    release()
    throw error
  }
}

/**
 * A server that reports its own readiness (`experimental/serverStatus`) answers from a half-built index while
 * it is not quiescent: the query waits for it, never sending a partial first question, and that wait does not
 * count against the request's own timeout. Returns the time waited; TIMEOUT (never a partial answer) past
 * the profile's `readinessTimeoutMs`.
 */
async function untilQuiescent(slot: ServerSlot, server: LanguageServer, signal: AbortSignal): Promise<number> {
  if (server.spec.serverStatus !== true) return 0
  if (server.activeProgress.size === 0) {
    unhealthy(slot, server)
    return 0
  }
  const started = Date.now()
  const limit = slot.profile.readinessTimeoutMs ?? defaultIndexingWaitMs
  const quiet = await server.waitForQuiet(started + limit, signal)
  if (signal.aborted) throw new LspError('CANCELLED', 'the query was cancelled while the server was indexing')
  if (!quiet) {
    const status = server.busy.lastStatus?.message
    throw new LspError(
      'TIMEOUT',
      `the ${slot.profile.id} server for ${slot.root} was still indexing after ${Math.round(limit / 1000)} s${status === undefined ? '' : ` (${status})`}; no partial answer was given. Ask again later, or raise readinessTimeoutMs in its profile`,
      { data: { profile: slot.profile.id, root: slot.root, indexing: true } },
    )
  }
  unhealthy(slot, server)
  return Date.now() - started
}

/**
 * A quiescent server whose own status says `health: error` ("Failed to load workspaces.", "Failed to discover
 * workspace" for a file of no crate) answers every question with nothing or "file not found": that is an
 * UNAVAILABLE saying what the server said, never an empty result.
 */
function unhealthy(slot: ServerSlot, server: LanguageServer): void {
  const status = server.busy.lastStatus
  // rust-analyzer first reports a root it finds no Cargo.toml in as a warning, then as an error: either way it has
  // no workspace to answer from.
  const noWorkspace = status?.health === 'warning' && /^Failed to (discover|load) workspace/.test(status.message ?? '')
  if (status?.health !== 'error' && !noWorkspace) return
  const said = status?.message?.trim().replace(/\.+$/, '') ?? ''
  throw new LspError(
    'UNAVAILABLE',
    `the ${slot.profile.id} server for ${slot.root} reports an error and cannot answer${said === '' ? '' : `: ${said}`}. Fix what it names (a build file it cannot load, such as a Cargo.toml or a pom.xml; a file outside every project), then ask again`,
    { data: { profile: slot.profile.id, root: slot.root, health: 'error', ...(said === '' ? {} : { serverMessage: said }) } },
  )
}

export function requireOperation(serving: Serving, server: LanguageServer, operation: LspOperation): void {
  if (!supportsOperation(operation, server.capabilities, server.registrations)) {
    throw new LspError(
      'UNSUPPORTED_OPERATION',
      `the ${serving.profile.id} server does not offer ${operation} (it did not advertise the capability)`,
      {
        data: { profile: serving.profile.id, operation },
      },
    )
  }
}

export function resultMeta(
  serving: Serving,
  server: LanguageServer,
  warm: boolean,
  translator: Translator,
  extra: Partial<LspResultMeta> = {},
): LspResultMeta {
  return {
    providerId: serving.id,
    // A server reporting `health: warning` (rust-analyzer without the standard library's sources) answers, but less.
    status: server.activeProgress.size > 0 ? 'indexing' : server.busy.lastStatus?.health === 'warning' ? 'degraded' : 'ready',
    warm,
    truncated: false,
    elapsedMs: 0,
    ...(translator.dropped > 0 ? { droppedOutsideWorkspace: translator.dropped } : {}),
    ...(translator.library.length > 0 ? { libraryLocations: [...translator.library] } : {}),
    ...extra,
  }
}

/** One server searching the root and its nested project folders (workspaceFolders profiles) covers them all. */
export function foldersCoverage(serving: Serving, server: LanguageServer): LspSearchCoverage | undefined {
  if (serving.profile.projectRoot !== 'workspaceFolders') return undefined
  const folders = server.projectCount
  return { projectsSearched: folders, projectsFound: folders, complete: true }
}
