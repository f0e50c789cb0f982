import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'

import type { OtelFlags } from '../telemetry-settings.js'
import { hostConfig, type SessionOptions } from '../session.js'
import { loadToolManifest } from '../tool-manifest.js'
import { mcpPath } from './endpoints.js'
import { httpGuard } from './http-guard.js'
import { httpRouter } from './http-router.js'
import { languageHosts } from './language-hosts.js'
import { bindListeners, createListeners, tcpPort, type Listeners } from './listeners.js'
import { acceptLink } from './relay-links.js'
import { daemonKey, runtimeDir, socketPathFor } from './runtime-dir.js'
import { sessionOpener, sweepIdleSessions, type DaemonSession } from './sessions.js'
import type { SessionCeiling } from './session-params.js'
import { daemonShutdown } from './shutdown.js'
import { bearerToken } from './tokens.js'

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
  /** Sessions answer from a stored index of their root when there is one (RFC 0034); default true, false for `--no-index`. */
  readonly index?: boolean
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

/**
 * Starts the daemon: binds its socket (and TCP), then serves until closed or idle. The stages: the sessions
 * (sessions.ts, on language-hosts.ts), the bearer token (tokens.ts), the HTTP guard and router (http-guard.ts,
 * http-router.ts), relay links (relay-links.ts), the listeners (listeners.ts) and shutdown (shutdown.ts).
 */
export async function startDaemon(options: DaemonOptions = {}): Promise<RunningDaemon> {
  const log = options.log ?? ((line: string) => process.stderr.write(`codeseam serve: ${line}\n`))
  const key = daemonKey({
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
    ...(options.envAllow === undefined ? {} : { envAllow: options.envAllow }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.otel === undefined ? {} : { otel: options.otel }),
    ...(options.index === false ? { index: false } : {}),
  })
  const ceiling: SessionCeiling = options.ceiling ?? {}
  const manifest = await loadToolManifest()
  const validator = new AjvJsonSchemaValidator()
  const hosts = languageHosts(await hostConfig(options))
  const sessions = new Map<string, DaemonSession>()
  const idleMs = options.idleTimeoutMs ?? 0
  const shutdown = daemonShutdown({ sessions, hosts, idleMs })
  const openSession = sessionOpener({
    manifest,
    validator,
    hosts,
    ceiling,
    ...(options.defaultRoots === undefined ? {} : { defaultRoots: options.defaultRoots }),
    sessions,
    ...(options.index === false ? { index: false } : {}),
    armIdle: shutdown.armIdle,
    opening: (work) => shutdown.opening(work),
    log,
  })

  const tcp = options.http
  const socketPath = options.socket === false ? undefined : (options.socket ?? socketPathFor(runtimeDir(), key))
  const bearer = bearerToken(tcp !== undefined, options.tokenFile, key)
  const tokenFile = bearer?.tokenFile
  const guard = httpGuard({
    ...(tcp === undefined ? {} : { tcp }),
    ...(bearer === undefined ? {} : { token: bearer.token }),
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    tcpPort: () => tcpPort(listeners),
  })
  const isClosing = shutdown.isClosing
  const serve = httpRouter({ key, guard, sessions, openSession, ceiling, memory: () => hosts.memory(), isClosing, log })
  const listeners: Listeners = createListeners(socketPath, tcp, serve, (link, first) =>
    acceptLink({ openSession, ceiling, isClosing, log }, link, first),
  )
  const socketInode = await bindListeners(listeners, socketPath, tcp)
  const port = tcpPort(listeners)
  const host = tcp?.host.includes(':') === true ? `[${tcp.host}]` : tcp?.host
  const url = tcp === undefined ? undefined : `http://${host}:${port}${mcpPath}`

  const sweep = sweepIdleSessions(sessions, options.sessionIdleMs ?? 60 * 60_000)
  shutdown.serving({ listeners, socketPath, socketInode, sweep })
  shutdown.armIdle()
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
    closed: shutdown.closed,
    close: shutdown.close,
  }
}
