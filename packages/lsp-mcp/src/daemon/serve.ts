import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { chmodSync, closeSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import * as nodePath from 'node:path'

import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { isLspError, LspError } from '@codeseam/lsp'
import { createLocalHost, type LocalHost, type TrustLevel } from '@codeseam/lsp-local'

import { followClientRoots, type ClientRoots } from '../client-roots.js'
import { createMcpShell, type ToolCall } from '../mcp-shell.js'
import { serverInfo } from '../server-info.js'
import type { OtelFlags } from '../telemetry-settings.js'
import { hostConfig, openSession, type CodeseamSession, type SessionOptions } from '../session.js'
import { bindToolCalls } from '../tool-calls.js'
import { loadToolManifest, selectFromManifest } from '../tool-manifest.js'
import { healthPath, mcpPath } from './endpoints.js'
import { daemonKey, ensurePrivateDir, runtimeDir, socketPathFor } from './runtime-dir.js'
import { checkCeiling, sessionParamsFrom, type SessionCeiling, type SessionParams } from './session-params.js'
import { readLine, writeLine, type SessionHello } from './socket-link.js'

/**
 * `codeseam serve`: one process that owns the language servers and serves MCP (Streamable HTTP, the
 * official SDK's transport) to many sessions at once, on a per-user Unix socket and optionally on TCP with a
 * bearer token. Servers are shared by (root, profile, trust): the daemon keeps one lsp-local host per trust
 * level, and every session of that level runs on it, with its own `ctx.lsp` that knows only its own roots.
 * See rfc/0011-shared-daemon.md.
 */

/** Options for {@link startDaemon}. */
export interface DaemonOptions extends Pick<SessionOptions, 'configFile' | 'limits' | 'envAllow'> {
  /**
   * The OpenTelemetry export this process runs (`--otel-endpoint`, `--otel-include-paths`), for the daemon key
   * only: exporting is the caller's (telemetry-export.ts), as `codeseam serve` does.
   */
  readonly otel?: OtelFlags
  /** The Unix socket; default: the user's runtime folder, named by the daemon key. `false`: no socket (TCP only). */
  readonly socket?: string | false
  /** Also listen on TCP (always with a bearer token). */
  readonly http?: { readonly host: string; readonly port: number }
  /** A file holding the bearer token; default: a generated token written 0600 beside the socket. */
  readonly tokenFile?: string
  /** Origins a browser-borne request may come from (default: none; a request with any other `Origin` is refused). */
  readonly allowedOrigins?: ReadonlyArray<string>
  /** Extra `Host` header values accepted on TCP (default: the bound address and localhost names, with the port). */
  readonly allowedHosts?: ReadonlyArray<string>
  /** Exit after this long without sessions (ms); 0 or undefined: never. */
  readonly idleTimeoutMs?: number
  /** A Streamable HTTP session without a request for this long is closed (ms, default one hour); a relay's session lasts as long as its connection. */
  readonly sessionIdleMs?: number
  /** What sessions may ask for at most; undefined: no ceiling (an auto-started daemon). */
  readonly ceiling?: SessionCeiling
  /** Where a session without roots of its own (no `root`, no client roots, no `cwd`) works: default the ceiling's roots, else nowhere (its tools say no workspace is open). */
  readonly defaultRoots?: ReadonlyArray<string>
  /** One line per event worth a log (stderr by default). */
  readonly log?: (line: string) => void
}

/** A running daemon. */
export interface RunningDaemon {
  readonly key: string
  readonly socketPath?: string
  /** The MCP endpoint on TCP, e.g. `http://127.0.0.1:7777/mcp`. */
  readonly url?: string
  readonly tokenFile?: string
  /** Live MCP sessions. */
  sessionCount(): number
  /** Resolves with why once the daemon has shut down. */
  readonly closed: Promise<string>
  /** Closes every session, stops every language server, removes the socket. Idempotent. */
  close(reason?: string): Promise<string>
}

const maxBodyBytes = 16 * 1024 * 1024

interface DaemonSession {
  id?: string
  readonly transport: StreamableHTTPServerTransport | StdioServerTransport
  readonly server: Server
  readonly session: CodeseamSession
  lastSeen: number
  close(reason: string): Promise<void>
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end()
    return
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

/** A JSON-RPC error body, with the codeseam error code in `data.code` when there is one. */
function rpcError(error: unknown, id: unknown = null): unknown {
  const code = isLspError(error) ? error.code : 'UNAVAILABLE'
  const message = error instanceof Error ? error.message : String(error)
  return { jsonrpc: '2.0', id, error: { code: -32000, message: `${code}: ${message}`, data: { code } } }
}

function statusFor(error: unknown): number {
  if (!isLspError(error)) return 500
  switch (error.code) {
    case 'INVALID_ARGUMENT':
    case 'NOT_FOUND':
      return 400
    case 'UNTRUSTED':
    case 'APPROVAL_DENIED':
    case 'OUTSIDE_WORKSPACE':
      return 403
    default:
      return 500
  }
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > maxBodyBytes) throw new LspError('INVALID_ARGUMENT', `request body over ${maxBodyBytes} bytes`)
    chunks.push(chunk as Buffer)
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
  } catch {
    throw new LspError('INVALID_ARGUMENT', 'the request body is not JSON')
  }
}

/** Whether something answers on the socket (a live daemon), or it is a leftover of a dead one. */
function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

function listen(server: NetServer, target: string | { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once('error', onError)
    const done = () => {
      server.off('error', onError)
      resolve()
    }
    if (typeof target === 'string') server.listen(target, done)
    else server.listen(target.port, target.host, done)
  })
}

/**
 * A dead daemon's socket: replaced by exactly one new daemon. Two daemons started together (two proxies
 * reconnecting after a crash) would otherwise both unlink and bind, the second cutting the first off its
 * path; the lock file (created exclusively) makes the loser stop with CONFLICT, and its proxy joins the winner.
 */
async function replaceStaleSocket(server: NetServer, socketPath: string): Promise<void> {
  const lock = `${socketPath}.lock`
  let fd: number
  try {
    fd = openSync(lock, 'wx', 0o600)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    // A lock left by a daemon that died while replacing: older than ten seconds, it is broken.
    const age = Date.now() - statSync(lock).mtimeMs
    if (age < 10_000) throw new LspError('CONFLICT', `another codeseam daemon is replacing the stale socket ${socketPath}`)
    unlinkSync(lock)
    fd = openSync(lock, 'wx', 0o600)
  }
  try {
    if (await socketAnswers(socketPath)) throw new LspError('CONFLICT', `a codeseam daemon already listens on ${socketPath}`)
    unlinkSync(socketPath)
    await listen(server, socketPath)
  } finally {
    closeSync(fd)
    unlinkSync(lock)
  }
}

function readToken(file: string): string {
  let text: string
  try {
    text = readFileSync(file, 'utf8').trim()
  } catch {
    throw new LspError('NOT_FOUND', `token file ${file} cannot be read`)
  }
  if (text.length < 16) throw new LspError('INVALID_ARGUMENT', `the token in ${file} is shorter than 16 characters`)
  if ((statSync(file).mode & 0o077) !== 0) {
    throw new LspError('UNTRUSTED', `token file ${file} can be read by group or others: chmod 600 it`)
  }
  return text
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Starts the daemon: binds its socket (and TCP), then serves until closed or idle. */
export async function startDaemon(options: DaemonOptions = {}): Promise<RunningDaemon> {
  const log = options.log ?? ((line: string) => process.stderr.write(`codeseam serve: ${line}\n`))
  const key = daemonKey({
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
    ...(options.envAllow === undefined ? {} : { envAllow: options.envAllow }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.otel === undefined ? {} : { otel: options.otel }),
  })
  const ceiling = options.ceiling ?? {}
  const manifest = await loadToolManifest()
  const validator = new AjvJsonSchemaValidator()
  const config = await hostConfig(options)
  const hosts = new Map<TrustLevel, Promise<LocalHost>>()
  const hostFor = (trust: TrustLevel): Promise<LocalHost> => {
    let host = hosts.get(trust)
    if (host === undefined) {
      host = createLocalHost(config)
      hosts.set(trust, host)
      host.catch(() => hosts.delete(trust))
    }
    return host
  }
  const sessions = new Map<string, DaemonSession>()
  let closing: Promise<string> | undefined
  let idleTimer: NodeJS.Timeout | undefined
  const idleMs = options.idleTimeoutMs ?? 0
  const sessionIdleMs = options.sessionIdleMs ?? 60 * 60_000

  const armIdle = () => {
    if (idleTimer !== undefined) clearTimeout(idleTimer)
    idleTimer = undefined
    if (idleMs > 0 && sessions.size === 0 && closing === undefined) {
      idleTimer = setTimeout(() => void close(`no session for ${Math.round(idleMs / 1000)} s`), idleMs)
    }
  }

  const fallbackRoots = (params: SessionParams): ReadonlyArray<string> =>
    params.cwd !== undefined ? [params.cwd] : (options.defaultRoots ?? ceiling.roots ?? [])

  /** A new session: checked against the ceiling and opened before `initialize` is answered, so a refusal is the answer. */
  const createSession = async (params: SessionParams, link?: Socket): Promise<DaemonSession> => {
    checkCeiling(params, ceiling)
    const readOnly = params.edits === 'read-only'
    const listed = selectFromManifest(manifest, { readOnly, disable: params.disable }).map((entry) => entry.mcp)
    const session = await openSession({
      host: await hostFor(params.trust),
      trust: params.trust,
      roots: params.roots ?? [],
      ...(ceiling.roots === undefined ? {} : { within: ceiling.roots }),
    })
    // What the log says of a session: how it came, its trust, how many roots (never which: paths stay out of the log).
    const opened = (id: string, via: string) =>
      `session ${id} opened over ${via} (${params.trust}, ${(params.roots ?? []).length} root${(params.roots ?? []).length === 1 ? '' : 's'}${params.roots === undefined ? " (the client's)" : ''}, ${sessions.size} open)`
    let bound: { readonly call: ToolCall } | undefined
    let roots: ClientRoots | undefined
    // No --root: the client's roots (roots/list, asked on the first call's own stream), else the fallback.
    const follow = (): ClientRoots | undefined => {
      if (params.roots !== undefined) return undefined
      roots ??= followClientRoots({
        server,
        session,
        fallback: fallbackRoots(params),
        lazy: true,
        log: (line) => log(`session ${entry.id}: ${line}`),
      })
      return roots
    }
    const call: ToolCall = async (request, extra) => {
      await follow()?.beforeCall(extra.requestId)
      if (bound === undefined) throw new Error('tool calls are bound when the session initializes')
      // One log line per call: the tool, how it ended and how long it took; never paths, names or source text.
      const started = performance.now()
      const result = await bound.call(request, extra)
      const code = (result._meta?.['codeseam/error'] as { code?: string } | undefined)?.code
      log(
        `session ${entry.id ?? '(new)'}: ${request.params.name} ${result.isError === true ? `failed ${code ?? ''}`.trim() : 'ok'} in ${Math.round(performance.now() - started)} ms`,
      )
      return result
    }
    const server = createMcpShell(listed, call, validator)
    try {
      bound = bindToolCalls(() => server, session, { allowEdits: params.edits === 'allow', readOnly, disable: params.disable })
    } catch (error) {
      await session.dispose()
      throw error
    }
    // Once the client has initialized its capabilities are known: follow its list_changed from then on.
    server.oninitialized = () => void follow()
    let closed: Promise<void> | undefined
    // A relay's connection: MCP's stdio framing over the socket (socket-link.ts); else Streamable HTTP.
    const transport =
      link === undefined
        ? new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => {
              entry.id = id
              sessions.set(id, entry)
              log(opened(id, 'HTTP'))
              armIdle()
            },
          })
        : new StdioServerTransport(link, link)
    const entry: DaemonSession = {
      transport,
      server,
      session,
      lastSeen: Date.now(),
      close(reason) {
        // Started on the next tick, so `closed` is set before `server.close()` reports back through `transport.onclose`.
        closed ??= Promise.resolve().then(async () => {
          if (entry.id !== undefined) sessions.delete(entry.id)
          roots?.dispose()
          // Aborts the session's in-flight calls (their handlers' signals), then stops listening.
          await server.close().catch(() => {})
          link?.destroy()
          await session.dispose().catch(() => {})
          if (entry.id !== undefined) log(`session ${entry.id} closed: ${reason}`)
          armIdle()
        })
        return closed
      },
    }
    transport.onclose = () => void entry.close('its transport closed')
    if (link !== undefined) {
      entry.id = randomUUID()
      sessions.set(entry.id, entry)
      log(opened(entry.id, 'a relay'))
      armIdle()
      // The relay's connection is the session: its end (the relay or its client died, or it closed) closes it.
      link.once('close', () => void entry.close('its client went away'))
      link.on('error', () => {})
    }
    await server.connect(transport)
    return entry
  }

  /** A relay's connection: its hello line names the session; the answer says ready (with the id) or refused. */
  const acceptLink = async (link: Socket, first: Buffer): Promise<void> => {
    let entry: DaemonSession
    try {
      const hello = await readLine<SessionHello>(link, first)
      if (hello?.codeseam !== 'session' || typeof hello.query !== 'string')
        throw new LspError('INVALID_ARGUMENT', 'expected a session hello line')
      if (closing !== undefined) throw new LspError('UNAVAILABLE', 'the codeseam daemon is shutting down; call again to start a new one')
      entry = await createSession(sessionParamsFrom(new URLSearchParams(hello.query), ceiling), link)
    } catch (error) {
      log(`a session was refused: ${error instanceof Error ? error.message : String(error)}`)
      if (!link.destroyed) {
        writeLine(link, {
          codeseam: 'refused',
          code: isLspError(error) ? error.code : 'UNAVAILABLE',
          message: error instanceof Error ? error.message : String(error),
        })
        link.end()
      }
      return
    }
    writeLine(link, { codeseam: 'ready', session: entry.id ?? '' })
    link.resume()
  }

  const tcp = options.http
  let token: string | undefined
  let tokenFile: string | undefined
  const socketPath = options.socket === false ? undefined : (options.socket ?? socketPathFor(runtimeDir(), key))
  if (tcp !== undefined) {
    if (options.tokenFile !== undefined) {
      tokenFile = nodePath.resolve(options.tokenFile)
      token = readToken(tokenFile)
    } else {
      tokenFile = nodePath.join(ensurePrivateDir(runtimeDir()), `daemon-${key}.token`)
      token = randomBytes(32).toString('base64url')
      writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 })
      chmodSync(tokenFile, 0o600)
    }
  }
  const allowedOrigins = new Set(options.allowedOrigins ?? [])
  /** `Host` values accepted on TCP: the bound address and the loopback names, with the port, and --allowed-host. */
  const allowedHostHeaders = (): Set<string> => {
    const port = (tcpServer?.address() as { port: number } | null)?.port
    const bound = tcp?.host.includes(':') === true ? `[${tcp.host}]` : tcp?.host
    return new Set(
      [`${bound}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, ...(options.allowedHosts ?? [])].map((h) =>
        h.toLowerCase(),
      ),
    )
  }
  const anyHost = tcp !== undefined && (tcp.host === '0.0.0.0' || tcp.host === '::') && (options.allowedHosts ?? []).length === 0

  const handle = async (req: IncomingMessage, res: ServerResponse, overTcp: boolean): Promise<void> => {
    const origin = req.headers.origin
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      sendJson(res, 403, rpcError(new LspError('UNTRUSTED', `requests from origin ${origin} are refused (allow it with --allowed-origin)`)))
      return
    }
    if (overTcp) {
      if (!anyHost && !allowedHostHeaders().has((req.headers.host ?? '').toLowerCase())) {
        sendJson(
          res,
          403,
          rpcError(new LspError('UNTRUSTED', `Host ${req.headers.host ?? '(none)'} is refused (allow it with --allowed-host)`)),
        )
        return
      }
      // OAuth discovery and registration, asked before any token is sent: codeseam has no OAuth, and a 401 with a
      // Bearer challenge here makes an OAuth-capable client start a login it can never finish. 404, saying what to send.
      if (oauthPath(req.url ?? '/')) {
        sendJson(
          res,
          404,
          rpcError(
            new LspError(
              'NOT_FOUND',
              'codeseam has no OAuth: send its bearer token instead (Authorization: Bearer <the token in the --token-file file>)',
            ),
          ),
        )
        return
      }
      const auth = req.headers.authorization ?? ''
      const given = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length).trim() : ''
      if (token === undefined || !sameToken(given, token)) {
        sendJson(
          res,
          401,
          rpcError(new LspError('UNTRUSTED', 'a bearer token is required (Authorization: Bearer <token from the token file>)')),
          {
            'www-authenticate': 'Bearer realm="codeseam"',
          },
        )
        return
      }
    }
    const url = new URL(req.url ?? '/', 'http://codeseam')
    if (closing !== undefined) {
      sendJson(res, 503, rpcError(new LspError('UNAVAILABLE', 'the codeseam daemon is shutting down; call again to start a new one')))
      return
    }
    if (url.pathname === healthPath) {
      sendJson(res, 200, { name: serverInfo.name, version: serverInfo.version, key, pid: process.pid, sessions: sessions.size })
      return
    }
    const sessionId = req.headers['mcp-session-id']
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined
    if (url.pathname !== mcpPath) {
      sendJson(res, 404, rpcError(new LspError('NOT_FOUND', `no endpoint ${url.pathname} (MCP is at ${mcpPath})`)))
      return
    }
    if (typeof sessionId === 'string') {
      if (existing === undefined || !(existing.transport instanceof StreamableHTTPServerTransport)) {
        // The MCP transport's answer to an unknown session: the client starts a new one.
        sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } })
        return
      }
      existing.lastSeen = Date.now()
      await existing.transport.handleRequest(req, res)
      return
    }
    if (req.method !== 'POST') {
      sendJson(res, 400, rpcError(new LspError('INVALID_ARGUMENT', 'no mcp-session-id: send initialize first')))
      return
    }
    const body = await readBody(req)
    if (!isInitializeRequest(body)) {
      sendJson(res, 400, rpcError(new LspError('INVALID_ARGUMENT', 'no mcp-session-id: the first request of a session is initialize')))
      return
    }
    let entry: DaemonSession
    try {
      entry = await createSession(sessionParamsFrom(url.searchParams, ceiling))
    } catch (error) {
      log(`a session was refused: ${error instanceof Error ? error.message : String(error)}`)
      sendJson(res, statusFor(error), rpcError(error, (body as { id?: unknown }).id ?? null))
      return
    }
    if (!(entry.transport instanceof StreamableHTTPServerTransport)) throw new Error('an HTTP session has an HTTP transport')
    await entry.transport.handleRequest(req, res, body)
    // initialize was answered without a session id (a bad request): nothing will ever reach this session.
    if (entry.id === undefined) await entry.close('it never initialized')
  }

  const serve = (overTcp: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res, overTcp).catch((error: unknown) => {
      log(`a request failed: ${error instanceof Error ? error.message : String(error)}`)
      sendJson(res, statusFor(error), rpcError(error))
    })
  }
  const unixHttp = socketPath === undefined ? undefined : createServer(serve(false))
  const links = new Set<Socket>()
  // The socket takes both: a relay's session (first byte `{`) and HTTP (anything else).
  const unixServer =
    unixHttp === undefined
      ? undefined
      : createNetServer((socket) => {
          links.add(socket)
          socket.once('close', () => links.delete(socket))
          socket.once('data', (first: Buffer) => {
            socket.pause()
            if (first[0] === 0x7b) {
              void acceptLink(socket, first)
              return
            }
            socket.unshift(first)
            unixHttp.emit('connection', socket)
            socket.resume()
          })
          socket.on('error', () => {})
        })
  const tcpServer = tcp === undefined ? undefined : createServer(serve(true))
  let socketInode: number | undefined
  if (unixServer !== undefined && socketPath !== undefined) {
    ensurePrivateDir(nodePath.dirname(socketPath))
    try {
      await listen(unixServer, socketPath)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
      if (await socketAnswers(socketPath)) {
        throw new LspError('CONFLICT', `a codeseam daemon already listens on ${socketPath}`, { data: { socket: socketPath } })
      }
      await replaceStaleSocket(unixServer, socketPath)
    }
    chmodSync(socketPath, 0o600)
    socketInode = statSync(socketPath).ino
  }
  if (tcpServer !== undefined && tcp !== undefined) {
    try {
      await listen(tcpServer, tcp)
    } catch (error) {
      unixServer?.close()
      throw error
    }
  }
  const port = (tcpServer?.address() as { port: number } | null)?.port
  const host = tcp?.host.includes(':') === true ? `[${tcp.host}]` : tcp?.host
  const url = tcp === undefined ? undefined : `http://${host}:${port}${mcpPath}`

  const sweep = setInterval(
    () => {
      const now = Date.now()
      for (const entry of sessions.values()) {
        if (entry.transport instanceof StreamableHTTPServerTransport && now - entry.lastSeen > sessionIdleMs)
          void entry.close(`no request for ${Math.round(sessionIdleMs / 1000)} s`)
      }
    },
    Math.min(60_000, sessionIdleMs),
  )
  sweep.unref()

  let resolveClosed: (reason: string) => void = () => {}
  const closed = new Promise<string>((resolve) => (resolveClosed = resolve))
  const close = (reason = 'closed'): Promise<string> => {
    closing ??= (async () => {
      clearInterval(sweep)
      if (idleTimer !== undefined) clearTimeout(idleTimer)
      const started = performance.now()
      await Promise.all([...sessions.values()].map((entry) => entry.close('the daemon is shutting down')))
      const stopped = Promise.all([
        ...[unixHttp, tcpServer].map(
          (server) =>
            new Promise<void>((resolve) => {
              if (server === undefined) return resolve()
              server.close(() => resolve())
              server.closeAllConnections()
            }),
        ),
        new Promise<void>((resolve) => {
          if (unixServer === undefined) return resolve()
          unixServer.close(() => resolve())
          for (const socket of links) socket.destroy()
        }),
      ])
      await Promise.all([...hosts.values()].map((host) => host.then((h) => h.dispose()).catch(() => {})))
      await stopped
      // Remove the socket only if it is still ours (a new daemon may have replaced a socket it thought dead).
      if (socketPath !== undefined && socketInode !== undefined) {
        try {
          if (statSync(socketPath).ino === socketInode) unlinkSync(socketPath)
        } catch {
          // Already gone.
        }
      }
      const done = `${reason}; language servers stopped in ${Math.round(performance.now() - started)} ms`
      resolveClosed(done)
      return done
    })()
    return closing
  }
  armIdle()
  log(
    [
      `listening${socketPath === undefined ? '' : ` on unix:${socketPath}`}`,
      url === undefined ? '' : ` and ${url} (bearer token in ${tokenFile})`,
      idleMs > 0 ? `; exits after ${Math.round(idleMs / 1000)} s without sessions` : '',
    ].join(''),
  )
  return {
    key,
    ...(socketPath === undefined ? {} : { socketPath }),
    ...(url === undefined ? {} : { url }),
    ...(tokenFile === undefined ? {} : { tokenFile }),
    sessionCount: () => sessions.size,
    closed,
    close,
  }
}

/** The paths OAuth clients probe (RFC 9728 protected-resource metadata, RFC 8414 server metadata, OIDC, the MCP defaults). */
function oauthPath(url: string): boolean {
  const path = new URL(url, 'http://codeseam').pathname
  return (
    path.startsWith('/.well-known/oauth-protected-resource') ||
    path.startsWith('/.well-known/oauth-authorization-server') ||
    path.startsWith('/.well-known/openid-configuration') ||
    path === '/register' ||
    path === '/authorize' ||
    path === '/token'
  )
}
