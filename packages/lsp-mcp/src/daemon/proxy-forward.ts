import { isJSONRPCNotification, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js'

import { Refused } from './proxy-link.js'
import { failure, lose, type ProxyContext } from './proxy-relay.js'
import { openSession } from './proxy-replay.js'

/** A client's message for the server: sent on the session, opened (again) first when a request finds none. */
export async function forward(ctx: ProxyContext, message: JSONRPCMessage): Promise<void> {
  const { state } = ctx
  const request = isJSONRPCRequest(message) ? message : undefined
  if (request !== undefined) state.pending.set(request.id, request.method)
  if (isJSONRPCNotification(message)) {
    if (message.method === 'notifications/initialized') state.initialized = true
    if (message.method === 'notifications/cancelled') state.pending.delete((message.params as { requestId: RequestId }).requestId)
  }
  let current = state.link
  try {
    if (current === undefined || current.dead) {
      // A notification or an answer for a session that is gone: nobody waits for it.
      if (request === undefined) return
      current = await openSession(ctx)
    }
    await current.transport.send(message)
  } catch (error) {
    if (request === undefined || !state.pending.has(request.id)) return
    state.pending.delete(request.id)
    const code = error instanceof Refused ? error.code : 'UNAVAILABLE'
    const text = error instanceof Error ? error.message : String(error)
    ctx.toClient(
      failure(
        request,
        code,
        error instanceof Refused
          ? `the codeseam daemon refused the session: ${text}`
          : `the codeseam daemon could not take this request: ${text}`,
      ),
    )
    if (current !== undefined && !(error instanceof Refused)) lose(ctx, current, text)
  }
}
