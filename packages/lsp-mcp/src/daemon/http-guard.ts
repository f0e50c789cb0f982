import type { IncomingMessage, ServerResponse } from 'node:http'

import { LspError } from '@codeseam/lsp'

import { rpcError, sendJson } from './http-answers.js'
import { sameToken } from './tokens.js'

/**
 * What an HTTP request must pass before it reaches a route: an allowed `Origin` (any transport), and on TCP an
 * allowed `Host` and the bearer token. OAuth probes on TCP get a 404 that says what to send instead.
 */

export interface HttpGuardOptions {
  /** The TCP address the daemon binds, if any. */
  readonly tcp?: { readonly host: string; readonly port: number }
  /** The bearer token TCP requests must carry. */
  readonly token?: string
  readonly allowedOrigins?: ReadonlyArray<string>
  readonly allowedHosts?: ReadonlyArray<string>
  /** The port the TCP server is bound to (known once it listens). */
  readonly tcpPort: () => number | undefined
}

/** Refuses (answers) a request that may not pass: true when it was answered. */
export type HttpGuard = (req: IncomingMessage, res: ServerResponse, overTcp: boolean) => boolean

export function httpGuard(options: HttpGuardOptions): HttpGuard {
  const { tcp, token } = options
  const allowedOrigins = new Set(options.allowedOrigins ?? [])
  /** `Host` values accepted on TCP: the bound address and the loopback names, with the port, and --allowed-host. */
  const allowedHostHeaders = (): Set<string> => {
    const port = options.tcpPort()
    const bound = tcp?.host.includes(':') === true ? `[${tcp.host}]` : tcp?.host
    return new Set(
      [`${bound}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, ...(options.allowedHosts ?? [])].map((h) =>
        h.toLowerCase(),
      ),
    )
  }
  const anyHost = tcp !== undefined && (tcp.host === '0.0.0.0' || tcp.host === '::') && (options.allowedHosts ?? []).length === 0
  return (req, res, overTcp) => {
    const origin = req.headers.origin
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      sendJson(res, 403, rpcError(new LspError('UNTRUSTED', `requests from origin ${origin} are refused (allow it with --allowed-origin)`)))
      return true
    }
    if (!overTcp) return false
    if (!anyHost && !allowedHostHeaders().has((req.headers.host ?? '').toLowerCase())) {
      sendJson(
        res,
        403,
        rpcError(new LspError('UNTRUSTED', `Host ${req.headers.host ?? '(none)'} is refused (allow it with --allowed-host)`)),
      )
      return true
    }
    return refusedOAuth(req, res) || refusedToken(req, res, token)
  }
}

/**
 * OAuth discovery and registration, asked before any token is sent: codeseam has no OAuth, and a 401 with a
 * Bearer challenge here makes an OAuth-capable client start a login it can never finish. 404, saying what to send.
 */
function refusedOAuth(req: IncomingMessage, res: ServerResponse): boolean {
  if (!oauthPath(req.url ?? '/')) return false
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
  return true
}

function refusedToken(req: IncomingMessage, res: ServerResponse, token: string | undefined): boolean {
  const auth = req.headers.authorization ?? ''
  const given = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length).trim() : ''
  if (token !== undefined && sameToken(given, token)) return false
  sendJson(
    res,
    401,
    rpcError(new LspError('UNTRUSTED', 'a bearer token is required (Authorization: Bearer <token from the token file>)')),
    {
      'www-authenticate': 'Bearer realm="codeseam"',
    },
  )
  return true
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
