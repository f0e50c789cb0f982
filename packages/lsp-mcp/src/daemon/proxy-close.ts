import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'

import type { RunningMcpServer } from '../stdio-server.js'
import type { ClientInput } from './proxy-options.js'
import type { ProxyContext } from './proxy-relay.js'

const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * Closes the proxy when the client goes away (stdin ends, the transport closes) or on a signal: ends the
 * session (the daemon keeps its servers; a server in this process stops its own), then says what became of them.
 */
export function closeWhenClientLeaves(
  ctx: ProxyContext,
  stdio: StdioServerTransport,
  stdin: ClientInput,
  handleSignals: boolean | undefined,
): RunningMcpServer {
  const { state } = ctx
  let resolveClosed: (reason: string) => void = () => {}
  const closed = new Promise<string>((resolve) => (resolveClosed = resolve))
  const onSignal = (signal: NodeJS.Signals) => void close(`received ${signal}`)
  const onEnd = () => void close('the client closed stdin')
  const close = (reason = 'closed'): Promise<string> => {
    // Started on the next tick: `stdio.close()` reports back through `onclose` synchronously, before `closing` would be set.
    state.closing ??= Promise.resolve().then(async () => {
      stdin.removeListener('end', onEnd)
      stdin.removeListener('close', onEnd)
      const current = state.link
      let after = state.inProcessOnly
        ? 'no language server ran in this process'
        : 'the daemon keeps its language servers for other sessions'
      if (current !== undefined && !current.dead) {
        current.dead = true
        // Ends the session (the daemon cancels its in-flight calls; the daemon and its servers stay), or stops
        // the server in this process and its language servers.
        after = await current
          .end()
          .catch((error: unknown) => `ending the session failed: ${error instanceof Error ? error.message : String(error)}`)
      }
      await stdio.close().catch(() => {})
      // Signal handlers stay until then: a SIGTERM while language servers of this process stop must not kill it first.
      for (const signal of signals) process.off(signal, onSignal)
      resolveClosed(`${reason}; ${after}`)
      return closed
    })
    return state.closing
  }
  stdio.onclose = () => void close('the transport closed')
  if (handleSignals !== false) for (const signal of signals) process.on(signal, onSignal)
  stdin.on('end', onEnd)
  stdin.on('close', onEnd)
  return { closed, close }
}
