import { randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'

import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'

import { followClientRoots, type ClientRoots } from '../client-roots.js'
import { createMcpShell, type ToolCall } from '../mcp-shell.js'
import { openSession, type CodeseamSession } from '../session.js'
import { bindToolCalls } from '../tool-calls.js'
import { selectFromManifest, type loadToolManifest } from '../tool-manifest.js'
import type { LanguageHosts } from './language-hosts.js'
import { checkCeiling, type SessionCeiling, type SessionParams } from './session-params.js'

/** The daemon's MCP sessions: opening one (on the shared host of its trust level), closing it, and the sweep of idle ones. */

export interface DaemonSession {
  id?: string
  readonly transport: StreamableHTTPServerTransport | StdioServerTransport
  readonly server: Server
  readonly session: CodeseamSession
  lastSeen: number
  close(reason: string): Promise<void>
}

/** What opening sessions needs: the tools, the hosts, the ceiling, and the live sessions it adds to. */
export interface SessionDeps {
  readonly manifest: Awaited<ReturnType<typeof loadToolManifest>>
  readonly validator: AjvJsonSchemaValidator
  readonly hosts: LanguageHosts
  readonly ceiling: SessionCeiling
  readonly defaultRoots?: ReadonlyArray<string>
  /** The live sessions, by id. */
  readonly sessions: Map<string, DaemonSession>
  /** Called when the session count may have changed. */
  readonly armIdle: () => void
  /** Runs a session's opening (the idle exit waits for it). */
  readonly opening: <T>(work: () => Promise<T>) => Promise<T>
  readonly log: (line: string) => void
  /** Answer from a stored index of a root when there is one (default true; false for `--no-index`). */
  readonly index?: boolean
}

/** Opens a session for `params`: over Streamable HTTP, or over a relay's `link`. */
export type OpenDaemonSession = (params: SessionParams, link?: Socket) => Promise<DaemonSession>

/** A new session: checked against the ceiling and opened before `initialize` is answered, so a refusal is the answer. */
export function sessionOpener(deps: SessionDeps): OpenDaemonSession {
  const { sessions, log, armIdle, ceiling } = deps
  const fallbackRoots = (params: SessionParams): ReadonlyArray<string> =>
    params.cwd !== undefined ? [params.cwd] : (deps.defaultRoots ?? ceiling.roots ?? [])
  return (params, link) => deps.opening(() => open(params, link))
  async function open(params: SessionParams, link: Socket | undefined): Promise<DaemonSession> {
    checkCeiling(params, ceiling)
    const readOnly = params.edits === 'read-only'
    const listed = selectFromManifest(deps.manifest, { readOnly, disable: params.disable }).map((entry) => entry.mcp)
    const session = await openSession({
      host: await deps.hosts.hostFor(params.trust),
      trust: params.trust,
      roots: params.roots ?? [],
      ...(deps.index === false ? { index: false } : {}),
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
    const server = createMcpShell(listed, call, deps.validator)
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
}

/** Closes the Streamable HTTP sessions without a request for `sessionIdleMs` (a relay's lasts as long as its connection). */
export function sweepIdleSessions(sessions: Map<string, DaemonSession>, sessionIdleMs: number): NodeJS.Timeout {
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
  return sweep
}
