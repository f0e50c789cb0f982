import { setMaxListeners } from 'node:events'

import {
  LspError,
  canDerive,
  deriveOperation,
  isDerivable,
  isDerivedItem,
  rootHolding,
  lspOperations,
  providerDerivationHost,
  type LspDerivableOperation,
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
import { featureOf } from './table.js'

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
  if (!derivesWhenMissing(request.operation)) return false
  if ('item' in request && isDerivedItem(request.item)) return true
  const group = await serving.host.sharingGroup(workspace, request.workspaceRoots, serving.profile)
  const { server, release } = await acquire(serving.host.slotFor(workspace, serving.profile, path, group), deadline, signal)
  try {
    return derivedFrom(negotiatedOperations(server.capabilities, server.registrations)).includes(request.operation)
  } finally {
    release()
  }
}

/**
 * Derives the operation from the provider's native answers and the workspace's files, within the host's
 * request deadline as a whole (a derivation asks many questions; together they get one query's time).
 */
export async function derive(
  serving: Serving,
  workspace: LocalWorkspace,
  request: LspProviderRequest<LspQueryRequest>,
  native: NativeQuery,
  callerSignal: AbortSignal,
): Promise<LspQueryResult> {
  const timeoutMs = serving.host.config.requestTimeoutMs
  const deadline = AbortSignal.timeout(timeoutMs)
  const signal = AbortSignal.any([callerSignal, deadline])
  // Its native questions run concurrently (an outline per referencing file), each listening for the abort.
  setMaxListeners(0, signal)
  try {
    return await deriveWithin(serving, workspace, request, native, signal)
  } catch (error) {
    if (deadline.aborted && !callerSignal.aborted) {
      throw new LspError(
        'TIMEOUT',
        `deriving ${request.operation} took longer than ${timeoutMs} ms (requestTimeoutMs); ask about a narrower type or raise the limit`,
        {
          data: { profile: serving.profile.id },
        },
      )
    }
    throw error
  }
}

function deriveWithin(
  serving: Serving,
  workspace: LocalWorkspace,
  request: LspProviderRequest<LspQueryRequest>,
  native: NativeQuery,
  signal: AbortSignal,
): Promise<LspQueryResult> {
  const roots = [workspace, ...serving.host.groupOf(workspace, request.workspaceRoots)]
  const holding = (path: string): LocalWorkspace => rootHolding(roots, path) ?? workspace
  const host = providerDerivationHost(
    {
      id: serving.id,
      extensions: serving.profile.extensions,
      ...(serving.profile.fileNames === undefined ? {} : { fileNames: serving.profile.fileNames }),
    },
    request,
    (asked) => {
      // A file of another root of the workspace (RFC 0025) is asked about, and read, in its own root.
      const path = (asked as { path?: unknown }).path
      const owner = typeof path === 'string' ? holding(path) : workspace
      const inWorkspace = request.workspaceRoots === undefined ? asked : { ...asked, workspaceRoots: request.workspaceRoots }
      return native(owner === workspace ? inWorkspace : { ...inWorkspace, root: owner.root }, signal)
    },
    async (path) => (await holding(path).readFile(path, signal)).text,
  )
  const operation = request.operation as LspDerivableOperation
  return deriveOperation(operation, request as unknown as LspRequestFor<typeof operation>, host)
}

/** Whether the operation's feature record says it is derived when the server lacks it (and the seam can). */
export function derivesWhenMissing(operation: LspOperation): operation is LspDerivableOperation {
  return isDerivable(operation) && featureOf(operation).whenMissing === 'derived'
}

/** What a provider whose server offers `native` answers by derivation. */
export function derivedFrom(native: ReadonlyArray<LspOperation>): LspOperation[] {
  return lspOperations.filter((operation) => derivesWhenMissing(operation) && canDerive(operation, native))
}

/** A status with the operations the provider derives for it listed apart from the native ones. */
export function withDerived(status: LspProviderStatus, allowed: ReadonlyArray<LspOperation>): LspProviderStatus {
  const native = status.operations
  if (native === undefined || native.length === 0) return status
  const derived = derivedFrom(native).filter((operation) => allowed.includes(operation))
  return derived.length === 0 ? status : { ...status, derivedOperations: derived }
}
