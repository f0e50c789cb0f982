import { LspError, type LspOperation, type LspResultMeta, type LspSearchCoverage } from '@codeseam/lsp'

import type { HostCore } from '../pool/host-core.js'
import type { ServerSlot } from '../pool/slot.js'
import type { ServerProfile } from '../policy/profiles.js'
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
}

export async function acquire(slot: ServerSlot, deadline: number, signal: AbortSignal): Promise<Acquired> {
  const release = slot.use()
  try {
    const server = await slot.acquire(deadline, signal)
    return { server, release, warm: server.warm }
  } catch (error) {
    release()
    throw error
  }
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
    status: server.activeProgress.size > 0 ? 'indexing' : 'ready',
    warm,
    truncated: false,
    elapsedMs: 0,
    ...(translator.dropped > 0 ? { droppedOutsideWorkspace: translator.dropped } : {}),
    ...extra,
  }
}

/** One server searching the root and its nested project folders (workspaceFolders profiles) covers them all. */
export function foldersCoverage(serving: Serving, server: LanguageServer): LspSearchCoverage | undefined {
  if (serving.profile.projectRoot !== 'workspaceFolders') return undefined
  const folders = server.projectCount
  return { projectsSearched: folders, projectsFound: folders, complete: true }
}
