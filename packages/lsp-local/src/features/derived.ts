import {
  canDerive,
  deriveOperation,
  extensionOf,
  isDerivable,
  isDerivedItem,
  type LspDerivableOperation,
  type LspDerivationHost,
  type LspOperation,
  type LspProviderRequest,
  type LspProviderStatus,
  type LspQueryRequest,
  type LspQueryResult,
  type LspRequestFor,
} from '@codeseam/lsp'

import type { LocalWorkspace } from '../workspace/workspace.js'
import { negotiatedOperations } from './capabilities.js'
import { acquire, type Serving } from './serving.js'

/** The provider's own native query (never derived again), for a derivation to ask. */
export type NativeQuery = (request: LspProviderRequest<LspQueryRequest>, signal: AbortSignal) => Promise<LspQueryResult>

/**
 * Whether this request is answered by derivation: an item a derivation made, or an operation the server for
 * the file does not offer while it offers everything the derivation needs. Starts the server if it is not
 * running (the query would start it anyway) to learn what it negotiated.
 */
export async function answeredByDerivation(
  serving: Serving,
  workspace: LocalWorkspace,
  request: LspProviderRequest<LspQueryRequest>,
  path: string,
  deadline: number,
  signal: AbortSignal,
): Promise<boolean> {
  if (!isDerivable(request.operation)) return false
  if ('item' in request && isDerivedItem(request.item)) return true
  const { server, release } = await acquire(serving.host.slotFor(workspace, serving.profile, path), deadline, signal)
  try {
    return canDerive(request.operation, negotiatedOperations(server.capabilities, server.registrations))
  } finally {
    release()
  }
}

/** Derives the operation from the provider's native answers and the workspace's files. */
export function derive(
  serving: Serving,
  workspace: LocalWorkspace,
  request: LspProviderRequest<LspQueryRequest>,
  native: NativeQuery,
  signal: AbortSignal,
): Promise<LspQueryResult> {
  const host: LspDerivationHost = {
    ask: async (asked) => {
      const languageId = serving.profile.extensions[extensionOf((asked as { path?: string }).path ?? '') ?? '']
      // A declaration in a file this profile does not serve (JSON, another language) outlines nothing here.
      if (languageId === undefined && asked.operation === 'documentSymbols') {
        const empty: LspQueryResult = {
          kind: 'documentSymbols',
          symbols: [],
          meta: { providerId: serving.id, status: 'ready', warm: true, truncated: false, elapsedMs: 0 },
        }
        return empty as never
      }
      return native({ ...asked, languageId: languageId ?? request.languageId }, signal) as never
    },
    read: async (path) => (await workspace.readFile(path, signal)).text,
  }
  const operation = request.operation as LspDerivableOperation
  return deriveOperation(operation, request as unknown as LspRequestFor<typeof operation>, host)
}

/** A status with the operations the provider derives for it listed apart from the native ones. */
export function withDerived(status: LspProviderStatus, allowed: ReadonlyArray<LspOperation>): LspProviderStatus {
  const native = status.operations
  if (native === undefined || native.length === 0) return status
  const derived = allowed.filter((operation) => canDerive(operation, native))
  return derived.length === 0 ? status : { ...status, derivedOperations: derived }
}
