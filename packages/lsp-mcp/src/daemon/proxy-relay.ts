import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import type { LspErrorCode } from '@codeseam/lsp'

import { daemonFailure } from './endpoints.js'
import type { Link, LinkEvents } from './proxy-link.js'
import type { McpProxyOptions } from './proxy-options.js'

/**
 * The relay's state, shared by its stages (replay, forwarding, closing), and what it does with what a link
 * reports: a server's messages go to the client (or to the proxy's own request that waits for them), a lost
 * link answers every request still waiting with a typed error.
 */

export interface ProxyState {
  /** The client's requests the server has not answered yet: id → method. */
  readonly pending: Map<RequestId, string>
  /** The proxy's own requests (a replayed `initialize`) waiting for their answers. */
  readonly internal: Map<RequestId, (message: JSONRPCMessage) => void>
  /** The client's `initialize`, replayed to open each session. */
  initialize: JSONRPCRequest | undefined
  /** Whether the client sent `notifications/initialized`. */
  initialized: boolean
  link: Link | undefined
  /** Once the daemon could not be reached, the session stays in this process. */
  inProcessOnly: boolean
  replays: number
  closing: Promise<string> | undefined
}

/** What every stage of the proxy works with. */
export interface ProxyContext {
  readonly options: McpProxyOptions
  readonly log: (line: string) => void
  /** Sends a message to the client (a failure to send is dropped). */
  readonly toClient: (message: JSONRPCMessage) => void
  /** The daemon's socket: found or started. */
  readonly daemonSocket: () => Promise<string>
  readonly state: ProxyState
}

export function newProxyState(): ProxyState {
  return {
    pending: new Map(),
    internal: new Map(),
    initialize: undefined,
    initialized: false,
    link: undefined,
    inProcessOnly: false,
    replays: 0,
    closing: undefined,
  }
}

/** The typed error a failed request gets: a tool call an `isError` result, any other request a JSON-RPC error. */
export function failure(request: { id: RequestId; method: string }, code: LspErrorCode, message: string): JSONRPCMessage {
  if (request.method === 'tools/call') return { jsonrpc: '2.0', id: request.id, result: daemonFailure(code, message) }
  return { jsonrpc: '2.0', id: request.id, error: { code: -32603, message: `${code}: ${message}`, data: { code } } }
}

/** A link is gone: every request still waiting is answered with a typed error at once. */
export function lose(ctx: ProxyContext, lost: Link, why: string): void {
  const { state, log, toClient } = ctx
  if (lost.dead) return
  lost.dead = true
  if (state.link === lost) state.link = undefined
  lost.destroy()
  if (state.closing !== undefined) return
  log(state.inProcessOnly ? `the server in this process stopped: ${why}` : `lost the daemon: ${why}`)
  const again = state.inProcessOnly ? 'call again: a new server starts in this process' : 'call again: a new daemon starts'
  for (const [id, method] of state.pending) {
    toClient(
      failure(
        { id, method },
        'UNAVAILABLE',
        `the codeseam ${state.inProcessOnly ? 'server' : 'daemon'} stopped before answering (${why}); ${again}`,
      ),
    )
  }
  state.pending.clear()
  for (const [id, settle] of state.internal) settle({ jsonrpc: '2.0', id, error: { code: -32603, message: why } })
  state.internal.clear()
}

/** A message from the server: an answer to the proxy's own request settles it; anything else goes to the client. */
function fromServer(ctx: ProxyContext, current: Link, message: JSONRPCMessage): void {
  const { state } = ctx
  if (current.dead) return
  if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
    const id = message.id
    if (id !== undefined) {
      const settle = state.internal.get(id)
      if (settle !== undefined) {
        state.internal.delete(id)
        settle(message)
        return
      }
      state.pending.delete(id)
    }
  }
  ctx.toClient(message)
}

/** What a link reports, relayed. */
export function linkEvents(ctx: ProxyContext): LinkEvents {
  return {
    message: (current, message) => fromServer(ctx, current, message),
    lost: (current, why) => lose(ctx, current, why),
  }
}
