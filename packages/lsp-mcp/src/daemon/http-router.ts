import type { IncomingMessage, ServerResponse } from 'node:http'

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { LspError } from '@codeseam/lsp'

import { serverInfo } from '../server-info.js'
import { healthPath, mcpPath } from './endpoints.js'
import type { DaemonMemory } from './daemon-health.js'
import { readBody, rpcError, sendJson, statusFor } from './http-answers.js'
import type { HttpGuard } from './http-guard.js'
import type { DaemonSession, OpenDaemonSession } from './sessions.js'
import { sessionParamsFrom, type SessionCeiling } from './session-params.js'

/** Where an HTTP request goes once it passed the guard: the health endpoint, a session's transport, or a new session. */

export interface HttpRouterDeps {
  readonly key: string
  readonly guard: HttpGuard
  readonly sessions: Map<string, DaemonSession>
  readonly openSession: OpenDaemonSession
  readonly ceiling: SessionCeiling
  /** What the daemon and its language servers hold, for the health endpoint (`codeseam status`, `codeseam daemon status`). */
  readonly memory: () => DaemonMemory
  /** Whether the daemon is shutting down. */
  readonly isClosing: () => boolean
  readonly log: (line: string) => void
}

/** The request listener of the Unix socket's HTTP server (`overTcp` false) or of the TCP server (true). */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

export function httpRouter(deps: HttpRouterDeps): (overTcp: boolean) => RequestListener {
  return (overTcp) => (req, res) => {
    handle(deps, req, res, overTcp).catch((error: unknown) => {
      deps.log(`a request failed: ${error instanceof Error ? error.message : String(error)}`)
      sendJson(res, statusFor(error), rpcError(error))
    })
  }
}

async function handle(deps: HttpRouterDeps, req: IncomingMessage, res: ServerResponse, overTcp: boolean): Promise<void> {
  if (deps.guard(req, res, overTcp)) return
  const url = new URL(req.url ?? '/', 'http://codeseam')
  if (deps.isClosing()) {
    sendJson(res, 503, rpcError(new LspError('UNAVAILABLE', 'the codeseam daemon is shutting down; call again to start a new one')))
    return
  }
  if (url.pathname === healthPath) {
    sendJson(res, 200, {
      name: serverInfo.name,
      version: serverInfo.version,
      key: deps.key,
      pid: process.pid,
      sessions: deps.sessions.size,
      memory: deps.memory(),
    })
    return
  }
  const sessionId = req.headers['mcp-session-id']
  const existing = typeof sessionId === 'string' ? deps.sessions.get(sessionId) : undefined
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
  await initializeSession(deps, req, res, url)
}

/** A request without a session id: it must be `initialize`, and opens a new session. */
async function initializeSession(deps: HttpRouterDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
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
    entry = await deps.openSession(sessionParamsFrom(url.searchParams, deps.ceiling))
  } catch (error) {
    deps.log(`a session was refused: ${error instanceof Error ? error.message : String(error)}`)
    sendJson(res, statusFor(error), rpcError(error, (body as { id?: unknown }).id ?? null))
    return
  }
  if (!(entry.transport instanceof StreamableHTTPServerTransport)) throw new Error('an HTTP session has an HTTP transport')
  await entry.transport.handleRequest(req, res, body)
  // initialize was answered without a session id (a bad request): nothing will ever reach this session.
  if (entry.id === undefined) await entry.close('it never initialized')
}
