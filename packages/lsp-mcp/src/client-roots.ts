import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  ListRootsRequestSchema,
  ResultSchema,
  RootsListChangedNotificationSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import { isLspError, LspError } from '@codeseam/lsp'

import { checkRootFolder } from './roots.js'
import type { CodeseamSession } from './session.js'

/**
 * The MCP client's roots as the session's roots: `codeseam mcp` without `--root` asks its client for its
 * workspace folders (`roots/list`) once the client has initialized, and again whenever the client says they
 * changed (`notifications/roots/list_changed`). A root that is not a `file://` folder, or that the session
 * refuses (outside its ceiling), is skipped and logged; when nothing usable is left, or the client has no
 * roots, the fallback (the working folder) is served instead.
 */

/** Options for {@link followClientRoots}. */
export interface FollowClientRootsOptions {
  /** The SDK server, connected, its client initialized. */
  readonly server: Server
  readonly session: CodeseamSession
  /** The roots served when the client has none to give (the working folder). */
  readonly fallback: ReadonlyArray<string>
  /** One line per decision worth telling (a root skipped, the fallback used, a change that failed). */
  readonly log?: (line: string) => void
  /**
   * Ask only when a tool call needs the roots, on that call's own stream (`relatedRequestId`), and after
   * `list_changed` only at the next call. For Streamable HTTP: a request outside any call travels on the
   * client's optional standalone stream, which may not be open yet (right after `initialized`) or at all.
   */
  readonly lazy?: boolean
}

/** The roots being followed. */
export interface ClientRoots {
  /** Resolves once the first roots (or the fallback) are open, or could not be; never rejects. */
  readonly ready: Promise<void>
  /** Before a tool call: the roots as they are now (in lazy mode, listed first when unknown or changed, on that call's stream). */
  beforeCall(requestId?: RequestId): Promise<void>
  /** Stops following: later `list_changed` notifications are ignored. */
  dispose(): void
}

/** One root as the client gave it, before it is checked. */
interface ListedRoot {
  readonly uri: unknown
  readonly name?: unknown
}

const listRootsMethod = ListRootsRequestSchema.shape.method.value
const listChangedMethod = RootsListChangedNotificationSchema.shape.method.value

/** The local path of a root's URI; a URI that is not a local `file://` one is refused (INVALID_ARGUMENT). */
export function rootUriToPath(uri: string): string {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    throw new LspError('INVALID_ARGUMENT', `root ${JSON.stringify(uri)} is not a URI`)
  }
  if (url.protocol !== 'file:')
    throw new LspError('INVALID_ARGUMENT', `root ${uri} is not a file:// URI (only local folders can be served)`)
  try {
    return fileURLToPath(url)
  } catch (error) {
    throw new LspError('INVALID_ARGUMENT', `root ${uri} is not a local file path: ${(error as Error).message}`)
  }
}

/** Follows the client's roots; see the module comment. Call once the client has initialized. */
export function followClientRoots(options: FollowClientRootsOptions): ClientRoots {
  const { server, session, fallback } = options
  const log = options.log ?? (() => {})
  const capability = server.getClientCapabilities()?.roots
  let disposed = false

  /** The client's roots as local folders, each bad one skipped and logged; undefined when it could not be listed. */
  const listFolders = async (relatedRequestId?: RequestId): Promise<string[] | undefined> => {
    let listed: ReadonlyArray<ListedRoot>
    try {
      // Not `server.listRoots()`: its result schema refuses the whole list for one non-file URI, and a root
      // the client should not have sent must not cost the others.
      const result = await server.request(
        { method: listRootsMethod },
        ResultSchema,
        relatedRequestId === undefined ? undefined : { relatedRequestId },
      )
      if (!Array.isArray(result['roots'])) throw new Error('the answer to roots/list has no roots array')
      listed = result['roots'] as ReadonlyArray<ListedRoot>
    } catch (error) {
      log(`the client's roots could not be listed (${describe(error)})`)
      return undefined
    }
    const folders: string[] = []
    for (const root of listed) {
      try {
        if (typeof root?.uri !== 'string') throw new LspError('INVALID_ARGUMENT', `root ${JSON.stringify(root)} has no uri`)
        folders.push(checkRootFolder(rootUriToPath(root.uri)))
      } catch (error) {
        log(`skipped the client's root ${typeof root?.uri === 'string' ? root.uri : JSON.stringify(root)}: ${describe(error)}`)
      }
    }
    return folders
  }

  /**
   * Opens exactly the usable ones of `folders`: all at once when the session takes them all; otherwise one
   * at a time, so each root the session refuses is skipped alone. Returns the folders that are open.
   */
  const apply = async (folders: ReadonlyArray<string>): Promise<string[]> => {
    if (folders.length === 0) return []
    try {
      await session.setRoots(folders)
      return [...folders]
    } catch (error) {
      if (!isLspError(error) || error.code === 'DISPOSED') throw error
    }
    // The roots open now stay open while the others are tried: they passed the session's checks before.
    const open = new Set(session.roots.map((info) => info.root))
    const accepted = folders.filter((folder) => open.has(canonical(folder)))
    for (const folder of folders) {
      if (accepted.includes(folder)) continue
      try {
        await session.setRoots([...accepted, folder])
        accepted.push(folder)
      } catch (error) {
        if (isLspError(error) && error.code === 'DISPOSED') throw error
        log(`skipped the client's root ${folder}: ${describe(error)}`)
      }
    }
    // In the client's order.
    const ordered = folders.filter((folder) => accepted.includes(folder))
    if (ordered.length > 0) await session.setRoots(ordered)
    return ordered
  }

  const serveFallback = async (why: string): Promise<void> => {
    if (disposed) return
    log(`${why}: serving ${fallback.join(', ')}`)
    await session.setRoots(fallback)
  }

  /** Lists the client's roots and opens them; a failure is logged and changes nothing. */
  const refresh = async (first: boolean, relatedRequestId?: RequestId): Promise<void> => {
    try {
      const folders = await listFolders(relatedRequestId)
      if (disposed) return
      if (folders === undefined) {
        // A first listing that fails leaves the session without roots: serve the fallback. A later one keeps the roots open now.
        if (first) await serveFallback('no roots from the client')
        return
      }
      const opened = await apply(folders)
      if (opened.length === 0) await serveFallback(listedNothing(folders.length))
      else log(`serving the client's roots: ${opened.join(', ')}`)
    } catch (error) {
      log(`the client's roots could not be opened (${describe(error)})${first ? '' : '; the previous roots stay open'}`)
    }
  }

  const lazy = options.lazy === true
  let queued = false
  // Lazy mode: whether the next call must list first (nothing listed yet, or the client said they changed).
  let stale = true
  let first = true
  let chain: Promise<void>
  if (capability === undefined) {
    stale = false
    chain = serveFallback('the client does not announce roots').catch((error: unknown) => {
      log(`the fallback roots could not be opened (${describe(error)})`)
    })
  } else {
    if (capability.listChanged === true) {
      server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
        // One listing waits its turn behind the running one; notifications meanwhile are served by it.
        if (disposed || queued) return
        if (lazy) {
          stale = true
          return
        }
        queued = true
        chain = chain.then(() => {
          queued = false
          return disposed ? undefined : refresh(false)
        })
      })
    }
    if (lazy) chain = Promise.resolve()
    else {
      stale = false
      first = false
      chain = refresh(true)
    }
  }
  const ready = chain
  return {
    ready,
    beforeCall(requestId) {
      if (lazy && stale && !disposed) {
        stale = false
        const isFirst = first
        first = false
        chain = chain.then(() => refresh(isFirst, requestId))
      }
      return chain
    },
    dispose() {
      if (disposed) return
      disposed = true
      if (capability?.listChanged === true) server.removeNotificationHandler(listChangedMethod)
    },
  }
}

function listedNothing(count: number): string {
  return count === 0 ? 'the client lists no usable root' : `none of the client's ${count} roots could be opened`
}

function canonical(folder: string): string {
  try {
    return realpathSync(folder)
  } catch {
    return folder
  }
}

function describe(error: unknown): string {
  return isLspError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error)
}
