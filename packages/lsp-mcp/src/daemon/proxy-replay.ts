import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js'
import { LspError } from '@codeseam/lsp'

import { connectDaemon, connectInProcess, type Link } from './proxy-link.js'
import { linkEvents, lose, type ProxyContext } from './proxy-relay.js'

/** Opens the session: on the daemon, or in this process when the daemon cannot be had; replays `initialize`. */
export async function openSession(ctx: ProxyContext): Promise<Link> {
  const { state, options } = ctx
  let current: Link | undefined
  if (!state.inProcessOnly) {
    let socketPath: string | undefined
    try {
      socketPath = await ctx.daemonSocket()
    } catch (error) {
      if (options.inProcess === undefined) throw error
      ctx.log(`the shared daemon is not available (${error instanceof Error ? error.message : String(error)}); serving in this process`)
      state.inProcessOnly = true
    }
    if (socketPath !== undefined) current = await connectDaemon(socketPath, options.session, linkEvents(ctx))
  }
  current ??= await connectInProcess(options.inProcess!, linkEvents(ctx))
  if (state.closing !== undefined) {
    // The client left while the session was opening: nobody will use it.
    current.dead = true
    await current.end().catch(() => '')
    throw new LspError('UNAVAILABLE', 'the client went away')
  }
  state.link = current
  if (state.initialize === undefined) return current
  await replayInitialize(ctx, current, state.initialize)
  return current
}

/** Replays the client's `initialize` (and `initialized`) to a new session, so it starts as the client's did. */
async function replayInitialize(ctx: ProxyContext, current: Link, initialize: JSONRPCRequest): Promise<void> {
  const { state } = ctx
  state.replays += 1
  const id = `codeseam-proxy-initialize-${state.replays}`
  const answer = new Promise<JSONRPCMessage>((resolve) => state.internal.set(id, resolve))
  await current.transport.send({ ...initialize, id })
  const result = await answer
  if (!isJSONRPCResultResponse(result)) {
    const why = isJSONRPCErrorResponse(result) ? result.error.message : 'no answer'
    lose(ctx, current, why)
    throw new LspError('UNAVAILABLE', `the codeseam server refused the session: ${why}`)
  }
  if (state.initialized) await current.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
  if (state.replays > 1 && !state.inProcessOnly) ctx.log('opened a new session on the daemon')
}
