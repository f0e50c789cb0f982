import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { get } from 'node:http'
import { createConnection, type Socket } from 'node:net'
import * as nodePath from 'node:path'
import { PassThrough } from 'node:stream'

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
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { LspError, type LspErrorCode } from '@codeseam/lsp'

import { serverInfo } from '../server-info.js'
import { initializeAnswer } from '../shell-answers.js'
import { loadToolManifest, selectFromManifest } from '../tool-manifest.js'
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
 *
 * What a client asks before its first call the relay answers itself, at once, from what it knows without the
 * daemon: `initialize` (shell-answers.ts, the in-process server's own answer), `tools/list` (the build's tool
 * manifest, selected as the daemon selects it) and `ping`. The daemon is found or started in the background
 * from the moment the process starts; the client's `initialize` is replayed to it to open the session, and a
 * tool call waits for that. A session the daemon refuses (its ceiling) is refused at each call, with the
 * daemon's code; a daemon that cannot be reached or started hands the session to {@link McpProxyOptions.inProcess}.
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
  /**
   * Serves the session in this process, on the streams given, when the daemon cannot be reached or started (a
   * refused runtime folder, a failed start, a daemon of another version on the socket): `codeseam mcp` passes
   * the server `--daemon never` runs. Without it such a failure answers each request with its typed error. A
   * daemon that answers but refuses the session (its ceiling) is not such a failure: each call is refused.
   */
  readonly inProcess?: (streams: { readonly stdin: PassThrough; readonly stdout: PassThrough }) => Promise<RunningMcpServer>
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

/**
 * Where the session is served: the daemon, over one connection of its socket (MCP's stdio framing, after the
 * handshake of socket-link.ts), or a server in this process over a pair of in-memory streams.
 */
interface Link {
  readonly transport: StdioServerTransport
  /** Ends the session as the client leaves, and says what became of its servers: the daemon keeps them; a server in this process stops them. */
  end(): Promise<string>
  /** Drops the connection at once (it was lost). */
  destroy(): void
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

/**
 * Starts the proxy: answers what a client asks before its first call at once, starts (or joins) the daemon in
 * the background, and relays the rest to it until the client goes away.
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
  const pending = new Map<RequestId, string>()
  let initialize: JSONRPCRequest | undefined
  let initialized = false
  let link: Link | undefined
  // Once the daemon could not be reached, the session stays in this process.
  let inProcessOnly = false
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
    lost.destroy()
    if (closing !== undefined) return
    log(inProcessOnly ? `the server in this process stopped: ${why}` : `lost the daemon: ${why}`)
    const again = inProcessOnly ? 'call again: a new server starts in this process' : 'call again: a new daemon starts'
    for (const [id, method] of pending) {
      toClient(
        failure(
          { id, method },
          'UNAVAILABLE',
          `the codeseam ${inProcessOnly ? 'server' : 'daemon'} stopped before answering (${why}); ${again}`,
        ),
      )
    }
    pending.clear()
    for (const [id, settle] of internal) settle({ jsonrpc: '2.0', id, error: { code: -32603, message: why } })
    internal.clear()
  }

  const fromServer = (current: Link, message: JSONRPCMessage) => {
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

  /** Relays a link's transport to the client once it is open. */
  const attach = async (current: Link) => {
    current.transport.onmessage = (message) => fromServer(current, message)
    current.transport.onerror = () => {}
    await current.transport.start()
  }

  const connectDaemon = async (socketPath: string): Promise<Link> => {
    const connection = await openLink(socketPath, options.session)
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
    connection.once('close', () => lose(current, 'its connection closed'))
    connection.on('error', () => {})
    await attach(current)
    connection.resume()
    return current
  }

  const connectInProcess = async (serve: NonNullable<McpProxyOptions['inProcess']>): Promise<Link> => {
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
    void server.closed.then((reason) => lose(current, `the server in this process stopped (${reason})`))
    await attach(current)
    return current
  }

  /** Opens the session: on the daemon, or in this process when the daemon cannot be had; replays `initialize`. */
  const open = async (): Promise<Link> => {
    let current: Link | undefined
    if (!inProcessOnly) {
      let socketPath: string | undefined
      try {
        socketPath = await daemonSocket()
      } catch (error) {
        if (options.inProcess === undefined) throw error
        log(`the shared daemon is not available (${error instanceof Error ? error.message : String(error)}); serving in this process`)
        inProcessOnly = true
      }
      if (socketPath !== undefined) current = await connectDaemon(socketPath)
    }
    current ??= await connectInProcess(options.inProcess!)
    if (closing !== undefined) {
      // The client left while the session was opening: nobody will use it.
      current.dead = true
      await current.end().catch(() => '')
      throw new LspError('UNAVAILABLE', 'the client went away')
    }
    link = current
    if (initialize === undefined) return current
    replays += 1
    const id = `codeseam-proxy-initialize-${replays}`
    const answer = new Promise<JSONRPCMessage>((resolve) => internal.set(id, resolve))
    await current.transport.send({ ...initialize, id })
    const result = await answer
    if (!isJSONRPCResultResponse(result)) {
      const why = isJSONRPCErrorResponse(result) ? result.error.message : 'no answer'
      lose(current, why)
      throw new LspError('UNAVAILABLE', `the codeseam server refused the session: ${why}`)
    }
    if (initialized) await current.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    if (replays > 1 && !inProcessOnly) log('opened a new session on the daemon')
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
        // A notification or an answer for a session that is gone: nobody waits for it.
        if (request === undefined) return
        current = await open()
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
  const enqueue = (step: () => Promise<void>) => {
    // In order, one at a time: a reconnect finishes before the next message goes out.
    chain = chain.then(step)
  }
  stdio.onmessage = (message) => {
    if (isJSONRPCRequest(message)) {
      // Answered here, at once, as the server itself answers them.
      if (isInitializeRequest(message)) {
        initialize = message
        toClient({ jsonrpc: '2.0', id: message.id, result: initializeAnswer(message.params.protocolVersion) })
        enqueue(async () => {
          if (link !== undefined && !link.dead) return
          try {
            await open()
          } catch (error) {
            // The first call meets it again and answers it with its code.
            log(error instanceof Refused ? `the codeseam daemon refused the session: ${error.message}` : `no session yet: ${String(error)}`)
          }
        })
        return
      }
      if (message.method === 'tools/list') {
        toClient({ jsonrpc: '2.0', id: message.id, result: { tools: listed } })
        return
      }
      if (message.method === 'ping') {
        toClient({ jsonrpc: '2.0', id: message.id, result: {} })
        return
      }
    }
    enqueue(() => forward(message))
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
      let after = inProcessOnly ? 'no language server ran in this process' : 'the daemon keeps its language servers for other sessions'
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
    return closing
  }
  stdio.onclose = () => void close('the transport closed')
  if (options.handleSignals !== false) for (const signal of signals) process.on(signal, onSignal)
  stdin.on('end', onEnd)
  stdin.on('close', onEnd)
  await stdio.start()
  return { closed, close }
}
