import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { isJSONRPCRequest, type Tool } from '@modelcontextprotocol/sdk/types.js'

import { loadToolManifest, selectFromManifest } from '../tool-manifest.js'
import type { RunningMcpServer } from '../stdio-server.js'
import { closeWhenClientLeaves } from './proxy-close.js'
import { forward } from './proxy-forward.js'
import type { McpProxyOptions } from './proxy-options.js'
import { newProxyState, type ProxyContext } from './proxy-relay.js'
import { answerItself } from './proxy-self-answers.js'
import { checkConfigFile } from './config-file.js'

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
 * once those first answers are out (its key loads the language records and resolves PATH, which the answers do
 * not need); the client's `initialize` is replayed to it to open the session, and a tool call waits for that. A session the daemon refuses (its ceiling) is refused at each call, with the
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
  // The same refusal the daemon key gives, before any answer: the caller then serves in this process.
  checkConfigFile(options.daemon.configFile)
  // The list the daemon gives this session, from the same manifest and the same selection (serve.ts).
  const listed: Tool[] = selectFromManifest(await loadToolManifest(), {
    readOnly: options.session.edits === 'read-only',
    disable: options.session.disable,
  }).map((entry) => entry.mcp)
  const daemon = daemonSearch(options, log)
  const stdin = options.stdin ?? process.stdin
  const stdio = new StdioServerTransport(stdin as typeof process.stdin, (options.stdout ?? process.stdout) as typeof process.stdout)
  const ctx: ProxyContext = {
    options,
    log,
    toClient: (message) => void stdio.send(message).catch(() => {}),
    daemonSocket: daemon.socket,
    state: newProxyState(),
  }

  let chain: Promise<void> = Promise.resolve()
  const enqueue = (step: () => Promise<void>) => {
    // In order, one at a time: a reconnect finishes before the next message goes out.
    chain = chain.then(step)
  }
  stdio.onmessage = (message) => {
    if (answerItself(ctx, message, listed, enqueue)) {
      // The first answers are out: find or start the daemon now (a client that lists no tools: shortly after initialize).
      if (isJSONRPCRequest(message) && message.method === 'tools/list') daemon.prestart()
      else if (isJSONRPCRequest(message) && message.method === 'initialize') setTimeout(daemon.prestart, prestartAfterInitializeMs).unref()
      return
    }
    enqueue(() => forward(ctx, message))
  }
  const running = closeWhenClientLeaves(ctx, stdio, stdin, options.handleSignals)
  await stdio.start()
  return running
}

/** How long after `initialize` the daemon search starts when no `tools/list` came first. */
const prestartAfterInitializeMs = 100

/**
 * The daemon's socket, found or started: `prestart` begins the search in the background (once); `socket` takes
 * that search the first time, and starts a new one on each later call (a reconnect). The key and the launcher
 * are imported on first use: they load the language records and resolve PATH.
 */
function daemonSearch(options: McpProxyOptions, log: (line: string) => void): { prestart: () => void; socket: () => Promise<string> } {
  let launcher: Promise<(options: McpProxyOptions, key: string, log: (line: string) => void) => Promise<string>> | undefined
  let key: string | undefined
  const search = (): Promise<string> =>
    (launcher ??= Promise.all([import('./daemon-launch.js'), import('./runtime-dir.js')]).then(([launch, dir]) => {
      key = dir.daemonKey(options.daemon)
      return launch.ensureDaemon
    })).then((ensureDaemon) => ensureDaemon(options, key as string, log))
  let prestarted: Promise<string> | undefined
  let taken = false
  return {
    prestart: () => {
      if (taken || prestarted !== undefined) return
      prestarted = search()
      prestarted.catch(() => {})
    },
    socket: () => {
      const found = prestarted ?? search()
      prestarted = undefined
      taken = true
      return found
    },
  }
}
