import * as nodePath from 'node:path'

import { LspError } from './errors.js'
import { fanOut } from './fan-out.js'
import { validateIdentifier } from './language-facts.js'
import { extensionOf, resolveInRoot } from './paths.js'
import { callProvider } from './provider-call.js'
import type { FileOwner, Registry } from './registry.js'
import type { RelativizerCache } from './relativizer-cache.js'
import type { ValidatedQuery } from './request-validation.js'
import { requestFile, withoutDocument } from './target-file.js'
import type { LspQueryRequest, LspQueryResult } from './vocabulary.js'

/*
 * The routing stage of a query: by its operation's scope, a validated query goes to every provider (fan-out),
 * to the provider of a hierarchy item's file, or to the provider of the request's file, with that file
 * resolved once for it.
 */

/** The provider of a file; throws UNAVAILABLE, naming what is claimed, when none serves it. */
export function selectForFile(registry: Registry, path: string): FileOwner {
  const owner = registry.ownerOf(path)
  if (owner !== undefined) return owner
  const claimed = registry.claimedKeys()
  const known = [...claimed.extensions].sort().join(', ') || 'none'
  const names = [...claimed.fileNames].sort()
  const interpreters = [...claimed.interpreters].sort()
  const extension = extensionOf(path)
  const also = `${names.length === 0 ? '' : `; file names: ${names.join(', ')}`}${interpreters.length === 0 ? '' : `; #! interpreters: ${interpreters.join(', ')}`}`
  throw new LspError(
    'UNAVAILABLE',
    extension === undefined
      ? `no language provider serves "${nodePath.basename(path)}": it has no file extension, its name is not one a provider claims, and its first line names no interpreter one serves (registered extensions: ${known}${also})`
      : `no language provider is registered for "${extension}" files (registered extensions: ${known}${also})`,
    {
      data: {
        ...(extension === undefined ? {} : { extension }),
        registered: [...claimed.extensions],
        fileNames: names,
        interpreters,
      },
    },
  )
}

/** A hierarchy query (`incomingCalls`, …): sent to the provider of its item's file. */
async function routeItem(
  registry: Registry,
  relativizers: RelativizerCache,
  { request, root }: ValidatedQuery,
  signal: AbortSignal | undefined,
): Promise<LspQueryResult> {
  const item = (request as { item?: { path?: unknown } }).item
  if (item === null || typeof item !== 'object' || typeof item.path !== 'string') {
    throw new LspError('INVALID_ARGUMENT', `${request.operation} needs an item returned by a prepare operation`)
  }
  const itemPath = resolveInRoot(root, item.path)
  const { registration, languageId } = selectForFile(registry, itemPath)
  const { file } = requestFile(registry.workspaceAt(root), item.path, undefined)
  return callProvider(
    registration,
    { ...withoutDocument(request), root, ...(file === undefined ? {} : { file }) },
    languageId,
    signal,
    relativizers,
    registry.openRoots(),
  )
}

/** A file query: sent to the provider of its file, with the file (and the caller's snapshot of it) resolved. */
async function routeFile(
  registry: Registry,
  relativizers: RelativizerCache,
  { request, root, filePath }: ValidatedQuery,
  signal: AbortSignal | undefined,
): Promise<LspQueryResult> {
  if (filePath === undefined) throw new LspError('INVALID_ARGUMENT', `${request.operation} needs a file path`)
  const path = resolveInRoot(root, filePath)
  const { registration, languageId } = selectForFile(registry, path)
  // A new name that is no identifier of the language (or a keyword) is refused before any server is asked.
  if (request.operation === 'rename') validateIdentifier(registry.languageFacts(languageId), languageId, request.newName)
  const { file, snapshot } = requestFile(registry.workspaceAt(root), filePath, request.document)
  const forwarded = {
    ...withoutDocument(request),
    root,
    path,
    ...(file === undefined ? {} : { file }),
    ...(snapshot === undefined ? {} : { snapshot }),
  }
  return callProvider(registration, forwarded as LspQueryRequest, languageId, signal, relativizers, registry.openRoots())
}

/** Sends a validated query where its operation's scope says: every provider, an item's, or a file's. */
export function routeQuery(
  registry: Registry,
  relativizers: RelativizerCache,
  query: ValidatedQuery,
  signal: AbortSignal | undefined,
): Promise<LspQueryResult> {
  const { request, root, scope, filePath } = query
  if (scope === 'workspace' || (scope === 'fileOrWorkspace' && filePath === undefined)) {
    return fanOut(registry, relativizers, { ...request, root }, signal)
  }
  if (scope === 'item') return routeItem(registry, relativizers, query, signal)
  return routeFile(registry, relativizers, query, signal)
}
