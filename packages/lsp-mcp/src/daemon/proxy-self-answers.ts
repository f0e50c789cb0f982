import { isInitializeRequest, isJSONRPCRequest, type JSONRPCMessage, type Tool } from '@modelcontextprotocol/sdk/types.js'

import { initializeAnswer } from '../shell-answers.js'
import { Refused } from './proxy-link.js'
import type { ProxyContext } from './proxy-relay.js'
import { openSession } from './proxy-replay.js'

/**
 * What the proxy answers itself, at once, as the server itself answers them: `initialize` (and opens the
 * session in the background), `tools/list` (the list the daemon gives this session) and `ping`. True when answered.
 */
export function answerItself(
  ctx: ProxyContext,
  message: JSONRPCMessage,
  listed: Tool[],
  enqueue: (step: () => Promise<void>) => void,
): boolean {
  if (!isJSONRPCRequest(message)) return false
  // Answered here, at once, as the server itself answers them.
  if (isInitializeRequest(message)) {
    ctx.state.initialize = message
    ctx.toClient({ jsonrpc: '2.0', id: message.id, result: initializeAnswer(message.params.protocolVersion) })
    enqueue(async () => {
      if (ctx.state.link !== undefined && !ctx.state.link.dead) return
      try {
        await openSession(ctx)
      } catch (error) {
        // The first call meets it again and answers it with its code.
        ctx.log(error instanceof Refused ? `the codeseam daemon refused the session: ${error.message}` : `no session yet: ${String(error)}`)
      }
    })
    return true
  }
  if (message.method === 'tools/list') {
    ctx.toClient({ jsonrpc: '2.0', id: message.id, result: { tools: listed } })
    return true
  }
  if (message.method === 'ping') {
    ctx.toClient({ jsonrpc: '2.0', id: message.id, result: {} })
    return true
  }
  return false
}
