import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'

import { loadToolManifest, selectFromManifest } from '../tool-manifest.js'
import type { RunningMcpServer } from '../stdio-server.js'
import { ensureDaemon } from './daemon-launch.js'
import { closeWhenClientLeaves } from './proxy-close.js'
import { forward } from './proxy-forward.js'
import type { McpProxyOptions } from './proxy-options.js'
import { newProxyState, type ProxyContext } from './proxy-relay.js'
import { answerItself } from './proxy-self-answers.js'
import { daemonKey } from './runtime-dir.js'

export { health, type Health } from './daemon-health.js'
export type { DaemonCommand, McpProxyOptions } from './proxy-options.js'

/**
 * `codeseam mcp --daemon auto`: a stdio MCP server that relays every message, both ways and unchanged, to a
 * session of the user's shared daemon (starting the daemon when none with this configuration runs). Requests,
 * responses and notifications pass as they are — tool calls, cancellation, progress, `_meta`, and what the
 * daemon asks the client (elicitation for approvals, `roots/list`) — so the client cannot tell a proxied
 * session from an in-process one.
 *
 * The relay talks to the daemon over one connection of its Unix socket (MCP's stdio framing, socket-link.ts),
 * which is the session: when it ends, the daemon died; every request still waiting is answered with a typed error at once (never a hang), and the next
 * request starts a daemon again and replays the client's `initialize` to open a new session there.
 *
 * What a client asks before its first call the relay answers itself, at once, from what it knows without the
 * daemon: `initialize` (shell-answers.ts, the in-process server's own answer), `tools/list` (the build's tool
 * manifest, selected as the daemon selects it) and `ping`. The daemon is found or started in the background
 * from the moment the process starts; the client's `initialize` is replayed to it to open the session, and a
 * tool call waits for that. A session the daemon refuses (its ceiling) is refused at each call, with the
 * daemon's code; a daemon that cannot be reached or started hands the session to {@link McpProxyOptions.inProcess}.
 */

/**
 * Starts the proxy: answers what a client asks before its first call at once, starts (or joins) the daemon in
 * the background, and relays the rest to it until the client goes away. The stages: the answers it gives
 * itself (proxy-self-answers.ts), the link to the daemon or the in-process server (proxy-link.ts, started by
 * daemon-launch.ts), the replay of `initialize` (proxy-replay.ts), forwarding (proxy-forward.ts, proxy-relay.ts)
 * and closing (proxy-close.ts).
 */
export async function startMcpProxy(options: McpProxyOptions): Promise<RunningMcpServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`codeseam mcp: ${line}\n`))
  const key = daemonKey(options.daemon)
  // The list the daemon gives this session, from the same manifest and the same selection (serve.ts).
  const listed: Tool[] = selectFromManifest(await loadToolManifest(), {
    readOnly: options.session.edits === 'read-only',
    disable: options.session.disable,
  }).map((entry) => entry.mcp)
  // The daemon is found or started from now on, while the client starts up; the first link takes this promise.
  let prestarted: Promise<string> | undefined = ensureDaemon(options, key, log)
  prestarted.catch(() => {})
  const daemonSocket = (): Promise<string> => {
    const found = prestarted ?? ensureDaemon(options, key, log)
    prestarted = undefined
    return found
  }
  const stdin = options.stdin ?? process.stdin
  const stdio = new StdioServerTransport(stdin as typeof process.stdin, (options.stdout ?? process.stdout) as typeof process.stdout)
  const ctx: ProxyContext = {
    options,
    log,
    toClient: (message) => void stdio.send(message).catch(() => {}),
    daemonSocket,
    state: newProxyState(),
  }

  let chain: Promise<void> = Promise.resolve()
  const enqueue = (step: () => Promise<void>) => {
    // In order, one at a time: a reconnect finishes before the next message goes out.
    chain = chain.then(step)
  }
  stdio.onmessage = (message) => {
    if (answerItself(ctx, message, listed, enqueue)) return
    enqueue(() => forward(ctx, message))
  }
  const running = closeWhenClientLeaves(ctx, stdio, stdin, options.handleSignals)
  await stdio.start()
  return running
}
