import { createConnection, type Socket } from 'node:net'
import { PassThrough } from 'node:stream'

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { LspErrorCode } from '@codeseam/lsp'

import type { RunningMcpServer } from '../stdio-server.js'
import { sessionQuery, type SessionParams } from './session-params.js'
import { readLine, writeLine, type SessionWelcome } from './socket-link.js'

/**
 * Where the session is served: the daemon, over one connection of its socket (MCP's stdio framing, after the
 * handshake of socket-link.ts), or a server in this process over a pair of in-memory streams.
 */
export interface Link {
  readonly transport: StdioServerTransport
  /** Ends the session as the client leaves, and says what became of its servers: the daemon keeps them; a server in this process stops them. */
  end(): Promise<string>
  /** Drops the connection at once (it was lost). */
  destroy(): void
  dead: boolean
}

/** What a link reports to the relay: each message from its server, and its loss. */
export interface LinkEvents {
  message(current: Link, message: JSONRPCMessage): void
  lost(current: Link, why: string): void
}

/** Serves the session in this process on the streams given (see `McpProxyOptions.inProcess`). */
export type InProcessServer = (streams: { readonly stdin: PassThrough; readonly stdout: PassThrough }) => Promise<RunningMcpServer>

/** Why the daemon refused a session: its answer to the hello line. */
export class Refused extends Error {
  constructor(
    readonly code: LspErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** Opens a session on the daemon: connects, says hello with the session's parameters, waits for ready. */
async function openLink(socketPath: string, session: SessionParams): Promise<Socket> {
  const socket = createConnection(socketPath)
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  socket.removeAllListeners('error')
  writeLine(socket, { codeseam: 'session', query: sessionQuery(session).toString() })
  const welcome = await readLine<SessionWelcome>(socket)
  if (welcome.codeseam !== 'ready') {
    socket.destroy()
    throw new Refused(welcome.code, welcome.message)
  }
  return socket
}

/** Relays a link's transport to the client once it is open. */
async function attach(current: Link, events: LinkEvents): Promise<void> {
  current.transport.onmessage = (message) => events.message(current, message)
  current.transport.onerror = () => {}
  await current.transport.start()
}

/** A session on the daemon. */
export async function connectDaemon(socketPath: string, session: SessionParams, events: LinkEvents): Promise<Link> {
  const connection = await openLink(socketPath, session)
  // The connection is the session: its end means the daemon died (or closed the session).
  const current: Link = {
    transport: new StdioServerTransport(connection, connection),
    end: async () => {
      connection.end()
      return 'the daemon keeps its language servers for other sessions'
    },
    destroy: () => connection.destroy(),
    dead: false,
  }
  connection.once('close', () => events.lost(current, 'its connection closed'))
  connection.on('error', () => {})
  await attach(current, events)
  connection.resume()
  return current
}

/** A session on a server in this process. */
export async function connectInProcess(serve: InProcessServer, events: LinkEvents): Promise<Link> {
  const toServer = new PassThrough()
  const fromServerStream = new PassThrough()
  const server = await serve({ stdin: toServer, stdout: fromServerStream })
  const current: Link = {
    transport: new StdioServerTransport(fromServerStream, toServer),
    // The server's own words (`language servers stopped in N ms`), after its reason.
    end: async () => (await server.close('the client went away')).replace(/^[^;]*; /, ''),
    destroy: () => void server.close(),
    dead: false,
  }
  void server.closed.then((reason) => events.lost(current, `the server in this process stopped (${reason})`))
  await attach(current, events)
  return current
}
