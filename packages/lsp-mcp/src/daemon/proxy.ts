import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { get } from 'node:http'
import { createConnection, type Socket } from 'node:net'
import * as nodePath from 'node:path'

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import { LspError, type LspErrorCode } from '@codeseam/lsp'

import { serverInfo } from '../server-info.js'
import { otelArguments } from '../telemetry-settings.js'
import type { RunningMcpServer } from '../stdio-server.js'
import { daemonKey, ensurePrivateDir, runtimeDir, socketPathFor, type DaemonKeyInputs } from './runtime-dir.js'
import { daemonFailure, healthPath } from './endpoints.js'
import { sessionQuery, type SessionParams } from './session-params.js'
import { readLine, writeLine, type SessionWelcome } from './socket-link.js'

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
 */

/** How to start the daemon: `node <cli> serve …`. */
export interface DaemonCommand {
  readonly execPath: string
  readonly args: ReadonlyArray<string>
}

/** Options for {@link startMcpProxy}. */
export interface McpProxyOptions {
  /** What this session asks the daemon for. */
  readonly session: SessionParams
  /** What decides which daemon: the config file, limits and `--env-allow` (passed to a daemon this proxy starts). */
  readonly daemon: DaemonKeyInputs & { readonly limitFlags?: ReadonlyArray<string> }
  /** Idle period after which a daemon this proxy starts exits (ms). */
  readonly idleTimeoutMs: number
  /** The CLI that runs `serve` (default: this process's own script). */
  readonly command?: DaemonCommand
  readonly stdin?: NodeJS.ReadableStream & { on(event: 'end' | 'close', listener: () => void): unknown }
  readonly stdout?: NodeJS.WritableStream
  readonly handleSignals?: boolean
  readonly log?: (line: string) => void
}

const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** The daemon's identity as its health endpoint reports it. */
export interface Health {
  readonly version: string
  readonly key: string
  readonly pid: number
  /** Open sessions (the health endpoint's count). */
  readonly sessions?: number
}

/** The health of the daemon on a socket; undefined when nothing answers there. */
export function health(socket: string, timeoutMs = 2_000): Promise<Health | undefined> {
  return new Promise((resolve) => {
    const req = get({ socketPath: socket, path: healthPath, timeout: timeoutMs }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => {
        try {
          resolve(res.statusCode === 200 ? (JSON.parse(text) as Health) : undefined)
        } catch {
          resolve(undefined)
        }
      })
      res.on('error', () => resolve(undefined))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(undefined))
  })
}

/** The daemon's socket, starting the daemon when none answers there. */
async function ensureDaemon(options: McpProxyOptions, key: string, log: (line: string) => void): Promise<string> {
  const dir = ensurePrivateDir(runtimeDir())
  const socket = socketPathFor(dir, key)
  const joined = (found: Health | undefined): boolean => {
    if (found === undefined) return false
    if (found.version !== serverInfo.version || found.key !== key) {
      throw new LspError(
        'CONFLICT',
        `the daemon on ${socket} is codeseam ${found.version} with key ${found.key}, not ${serverInfo.version} / ${key}`,
      )
    }
    return true
  }
  if (joined(await health(socket))) return socket
  const joinedWithin = async (ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms
    for (;;) {
      if (joined(await health(socket))) return true
      if (Date.now() > deadline) return false
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const command = options.command ?? { execPath: process.execPath, args: [process.argv[1] ?? ''] }
  const args = [
    ...command.args,
    'serve',
    '--auto',
    '--socket',
    socket,
    '--idle-timeout',
    String(Math.round(options.idleTimeoutMs / 1000)),
    ...(options.daemon.configFile === undefined ? [] : ['--config', nodePath.resolve(options.daemon.configFile)]),
    ...(options.daemon.envAllow ?? []).flatMap((name) => ['--env-allow', name]),
    ...(options.daemon.limitFlags ?? []),
    // The daemon exports (this relay does not): same settings, same key; the OTEL_* variables pass in its environment.
    ...otelArguments(options.daemon.otel ?? {}),
  ]
  const logFile = nodePath.join(dir, `daemon-${key}.log`)
  const logFd = openSync(logFile, 'a', 0o600)
  let child
  try {
    // Detached, in its own process group: the daemon outlives this proxy and its client.
    child = spawn(command.execPath, args, { detached: true, stdio: ['ignore', 'pipe', logFd], env: process.env, cwd: dir })
  } finally {
    closeSync(logFd)
  }
  const outcome = await new Promise<'ready' | number>((resolve, reject) => {
    let text = ''
    child.stdout!.setEncoding('utf8')
    child.stdout!.on('data', (chunk: string) => {
      text += chunk
      if (text.includes('\n')) resolve('ready')
    })
    child.once('error', reject)
    child.once('exit', (code) => resolve(code ?? 1))
  })
  child.stdout!.destroy()
  child.unref()
  // Not ready: another daemon won the race to this socket (it may still be binding), or the start failed.
  if (outcome === 'ready' || (await joinedWithin(5_000))) {
    log(outcome === 'ready' ? `started the codeseam daemon (pid ${child.pid}, log ${logFile})` : 'joined a daemon another client started')
    return socket
  }
  throw new LspError('UNAVAILABLE', `the codeseam daemon did not start (exit code ${outcome}); see ${logFile}`, { data: { log: logFile } })
}

/** The connection to the daemon: MCP's stdio framing over the socket, after the handshake (socket-link.ts). */
interface Link {
  readonly socket: Socket
  readonly transport: StdioServerTransport
  dead: boolean
}

/** The typed error a failed request gets: a tool call an `isError` result, any other request a JSON-RPC error. */
function failure(request: { id: RequestId; method: string }, code: LspErrorCode, message: string): JSONRPCMessage {
  if (request.method === 'tools/call') return { jsonrpc: '2.0', id: request.id, result: daemonFailure(code, message) }
  return { jsonrpc: '2.0', id: request.id, error: { code: -32603, message: `${code}: ${message}`, data: { code } } }
}

/** Why the daemon refused a session: its answer to the hello line. */
class Refused extends Error {
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

/** Starts the proxy: checks (or starts) the daemon first, then relays stdio to it until the client goes away. */
export async function startMcpProxy(options: McpProxyOptions): Promise<RunningMcpServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`codeseam mcp: ${line}\n`))
  const key = daemonKey(options.daemon)
  let socket = await ensureDaemon(options, key, log)
  const stdin = options.stdin ?? process.stdin
  const stdio = new StdioServerTransport(stdin as typeof process.stdin, (options.stdout ?? process.stdout) as typeof process.stdout)
  const pending = new Map<RequestId, string>()
  let initialize: JSONRPCRequest | undefined
  let initialized = false
  let link: Link | undefined
  let replays = 0
  const internal = new Map<RequestId, (message: JSONRPCMessage) => void>()
  let closing: Promise<string> | undefined

  const toClient = (message: JSONRPCMessage) => {
    void stdio.send(message).catch(() => {})
  }

  const lose = (lost: Link, why: string) => {
    if (lost.dead) return
    lost.dead = true
    if (link === lost) link = undefined
    lost.socket.destroy()
    if (closing !== undefined) return
    log(`lost the daemon: ${why}`)
    for (const [id, method] of pending) {
      toClient(
        failure({ id, method }, 'UNAVAILABLE', `the codeseam daemon stopped before answering (${why}); call again: a new daemon starts`),
      )
    }
    pending.clear()
    for (const [id, settle] of internal) settle({ jsonrpc: '2.0', id, error: { code: -32603, message: why } })
    internal.clear()
  }

  const fromDaemon = (current: Link, message: JSONRPCMessage) => {
    if (current.dead) return
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const id = message.id
      if (id !== undefined) {
        const settle = internal.get(id)
        if (settle !== undefined) {
          internal.delete(id)
          settle(message)
          return
        }
        pending.delete(id)
      }
    }
    toClient(message)
  }

  const connect = async (): Promise<Link> => {
    const connection = await openLink(socket, options.session)
    // The connection is the session: its end means the daemon died (or closed the session).
    const transport = new StdioServerTransport(connection, connection)
    const current: Link = { socket: connection, transport, dead: false }
    transport.onmessage = (message) => fromDaemon(current, message)
    transport.onerror = () => {}
    connection.once('close', () => lose(current, 'its connection closed'))
    connection.on('error', () => {})
    await transport.start()
    connection.resume()
    return current
  }

  /** A new session on a (new) daemon for a client that had initialized the lost one: replay its initialize. */
  const reopen = async (): Promise<Link> => {
    socket = await ensureDaemon(options, key, log)
    const current = await connect()
    if (initialize === undefined) return current
    replays += 1
    const id = `codeseam-proxy-initialize-${replays}`
    const answer = new Promise<JSONRPCMessage>((resolve) => internal.set(id, resolve))
    await current.transport.send({ ...initialize, id })
    const result = await answer
    if (!isJSONRPCResultResponse(result)) throw new LspError('UNAVAILABLE', 'the new codeseam daemon refused the session')
    if (initialized) await current.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    log('opened a new session on the daemon')
    return current
  }

  const forward = async (message: JSONRPCMessage) => {
    const request = isJSONRPCRequest(message) ? message : undefined
    if (request !== undefined) pending.set(request.id, request.method)
    if (isJSONRPCNotification(message)) {
      if (message.method === 'notifications/initialized') initialized = true
      if (message.method === 'notifications/cancelled') pending.delete((message.params as { requestId: RequestId }).requestId)
    }
    let current = link
    try {
      if (current === undefined || current.dead) {
        if (request !== undefined && isInitializeRequest(request)) {
          initialize = request
          // The daemon checked at start may have idled out or died since.
          socket = await ensureDaemon(options, key, log)
          current = await connect()
        } else if (request === undefined) {
          // A notification or an answer for a session that is gone: nobody waits for it.
          return
        } else {
          current = await reopen()
        }
        link = current
      }
      await current.transport.send(message)
    } catch (error) {
      if (request === undefined || !pending.has(request.id)) return
      pending.delete(request.id)
      const code = error instanceof Refused ? error.code : 'UNAVAILABLE'
      const text = error instanceof Error ? error.message : String(error)
      toClient(
        failure(
          request,
          code,
          error instanceof Refused
            ? `the codeseam daemon refused the session: ${text}`
            : `the codeseam daemon could not take this request: ${text}`,
        ),
      )
      if (current !== undefined && !(error instanceof Refused)) lose(current, text)
    }
  }

  let chain: Promise<void> = Promise.resolve()
  stdio.onmessage = (message) => {
    // In order, one at a time: a reconnect finishes before the next message goes out.
    chain = chain.then(() => forward(message))
  }

  let resolveClosed: (reason: string) => void = () => {}
  const closed = new Promise<string>((resolve) => (resolveClosed = resolve))
  const onSignal = (signal: NodeJS.Signals) => void close(`received ${signal}`)
  const onEnd = () => void close('the client closed stdin')
  const close = (reason = 'closed'): Promise<string> => {
    // Started on the next tick: `stdio.close()` reports back through `onclose` synchronously, before `closing` would be set.
    closing ??= Promise.resolve().then(async () => {
      stdin.removeListener('end', onEnd)
      stdin.removeListener('close', onEnd)
      const current = link
      if (current !== undefined && !current.dead) {
        current.dead = true
        // Ends the daemon's session (its in-flight calls are cancelled there); the daemon and its servers stay.
        current.socket.end()
      }
      await stdio.close().catch(() => {})
      for (const signal of signals) process.off(signal, onSignal)
      resolveClosed(`${reason}; the daemon keeps its language servers for other sessions`)
      return closed
    })
    return closing
  }
  stdio.onclose = () => void close('the transport closed')
  if (options.handleSignals !== false) for (const signal of signals) process.on(signal, onSignal)
  stdin.on('end', onEnd)
  stdin.on('close', onEnd)
  await stdio.start()
  return { closed, close }
}
