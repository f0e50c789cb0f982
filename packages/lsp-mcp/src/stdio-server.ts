import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation'
import { isLspError } from '@codeseam/lsp'

import type { ClientRoots } from './client-roots.js'
import { createMcpShell, type ToolCall } from './mcp-shell.js'
import { checkRootFolder, givenRoots } from './roots.js'
import type { CodeseamSession, SessionOptions } from './session.js'
import { loadToolManifest, selectFromManifest } from './tool-manifest.js'
import type { CollectToolsOptions } from './tool-set.js'

/**
 * `codeseam mcp`: the MCP server over stdio, with its lifecycle. It ends when the client closes stdin, the
 * transport closes, or the process gets SIGINT/SIGTERM/SIGHUP; every language server is stopped before the
 * process exits.
 *
 * Start order: the cheap checks that can refuse to start (each --root is an existing folder, every
 * --disable-tool / enable name exists) run first; then the transport connects and `initialize` and
 * `tools/list` are answered from the build's tool manifest. The session (root realpaths, the local host and
 * its built-in profiles, attaching the roots) and the tools (effect and the tool packages) load in the
 * background once the client has initialized, or at the first `tools/call`, which waits for them. If the
 * session cannot open, every call answers that error (and stderr says it once); nothing hangs.
 *
 * Roots: the given `roots` (`--root`), exactly. Without any, the session opens with none and, once the client
 * has initialized, follows the client's roots (`roots/list`, then each `roots/list_changed`; see
 * client-roots.ts), or serves `cwd` when the client has none. Tool calls wait until the first roots are open.
 */

/** Options for {@link startMcpServer}. */
export interface McpServerOptions extends SessionOptions, Omit<CollectToolsOptions, 'mutations'> {
  /**
   * Workspace roots (`--root`). None given (or an empty list): the client's roots (MCP `roots/list`, followed
   * as they change), or `cwd` when the client announces none.
   */
  readonly roots?: ReadonlyArray<string>
  /** The folder served when no roots are given and the client has none (default: `process.cwd()`). */
  readonly cwd?: string
  /** `--allow-edits`. */
  readonly allowEdits?: boolean
  /** Streams to serve on (default: the process's stdin and stdout). */
  readonly stdin?: NodeJS.ReadableStream & { on(event: 'end' | 'close', listener: () => void): unknown }
  readonly stdout?: NodeJS.WritableStream
  /** Listen to process signals (default true; false for embedding). */
  readonly handleSignals?: boolean
}

/** A running server. */
export interface RunningMcpServer {
  /** Resolves once the server has shut down, with why. */
  readonly closed: Promise<string>
  /** Shuts down: closes the transport and stops every language server. Idempotent. */
  close(reason?: string): Promise<string>
}

const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** The tool that reports the servers (tool-lsp's `code_status`). */
export const statusTool = 'code_status'

/** Starts the MCP server and serves until the client goes away or the process is told to stop. */
export async function startMcpServer(options: McpServerOptions = {}): Promise<RunningMcpServer> {
  // Without --root the client's roots are served: nothing to check before starting.
  const followClient = options.roots === undefined || options.roots.length === 0
  if (!followClient) for (const root of givenRoots(options.roots)) checkRootFolder(root)
  const listed = selectFromManifest(await loadToolManifest(), options).map((entry) => entry.mcp)

  // Elicitation answers are validated with Ajv, loaded with the tools: only a tool call elicits.
  let validator: jsonSchemaValidator | undefined
  let opening:
    Promise<{ readonly session: CodeseamSession; readonly call: ToolCall; readonly clientRoots: ClientRoots | undefined }> | undefined
  const open = () => {
    if (opening !== undefined) return opening
    opening = (async () => {
      const [{ openSession }, { bindToolCalls }, { AjvJsonSchemaValidator }, { followClientRoots }] = await Promise.all([
        import('./session.js'),
        import('./tool-calls.js'),
        import('@modelcontextprotocol/sdk/validation/ajv'),
        import('./client-roots.js'),
      ])
      validator = new AjvJsonSchemaValidator()
      const session = await openSession(followClient ? { ...options, roots: [] } : options)
      let clientRoots: ClientRoots | undefined
      try {
        const { call } = bindToolCalls(() => server, session, {
          allowEdits: options.allowEdits === true,
          ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }),
          ...(options.disable === undefined ? {} : { disable: options.disable }),
          ...(options.enable === undefined ? {} : { enable: options.enable }),
        })
        if (followClient) {
          clientRoots = followClientRoots({
            server,
            session,
            fallback: [options.cwd ?? process.cwd()],
            log: (line) => process.stderr.write(`codeseam mcp: ${line}\n`),
          })
        }
        return { session, call, clientRoots }
      } catch (error) {
        clientRoots?.dispose()
        await session.dispose()
        throw error
      }
    })()
    // Said once on stderr (the client's log); each call answers the error itself.
    opening.catch((error: unknown) => {
      process.stderr.write(`codeseam mcp: the workspace session could not be opened: ${describe(error)}\n`)
    })
    return opening
  }
  const deferredValidator: jsonSchemaValidator = {
    getValidator(schema) {
      if (validator === undefined) throw new Error('the JSON Schema validator is loaded with the tools, before any tool call')
      return validator.getValidator(schema)
    },
  }
  const server: Server = createMcpShell(
    listed,
    async (request, extra) => {
      let ready
      try {
        ready = await open()
      } catch (error) {
        return sessionFailure(error)
      }
      // The client's first roots are open (or the fallback): `ready` never rejects.
      await ready.clientRoots?.ready
      // The status reports the host's servers: it waits for their lookup (a question does not; see session.ts).
      if (request.params.name === statusTool) await ready.session.started
      return ready.call(request, extra)
    },
    deferredValidator,
  )
  // The client has its answer to `initialize`: now load the tools and open the session, before the first call.
  server.oninitialized = () => void open().catch(() => {})
  const stdin = options.stdin ?? process.stdin
  const transport = new StdioServerTransport(stdin as typeof process.stdin, (options.stdout ?? process.stdout) as typeof process.stdout)

  let resolveClosed: (reason: string) => void = () => {}
  const closed = new Promise<string>((resolve) => {
    resolveClosed = resolve
  })
  let closing: Promise<string> | undefined
  const onSignal = (signal: NodeJS.Signals) => void close(`received ${signal}`)
  const onEnd = () => void close('the client closed stdin')
  const shutdown = async (reason: string): Promise<string> => {
    const started = performance.now()
    stdin.removeListener('end', onEnd)
    stdin.removeListener('close', onEnd)
    let failure: unknown
    try {
      await server.close()
    } catch (error) {
      failure = error
    } finally {
      try {
        // A session still opening is waited for, then stopped; one that failed to open has nothing to stop.
        const ready = await opening?.catch(() => undefined)
        ready?.clientRoots?.dispose()
        await ready?.session.dispose()
      } catch (error) {
        failure ??= error
      }
      // Signal handlers stay until the servers are stopped: a SIGTERM during shutdown (MCP clients send one
      // after a grace period) must not kill the process before its language servers are gone.
      for (const signal of signals) process.off(signal, onSignal)
    }
    // `closed` always settles, so the process never waits forever on a failed shutdown.
    const elapsed = Math.round(performance.now() - started)
    const done =
      failure === undefined
        ? `${reason}; language servers stopped in ${elapsed} ms`
        : `${reason}; shutdown failed after ${elapsed} ms: ${failure instanceof Error ? failure.message : String(failure)}`
    resolveClosed(done)
    return done
  }
  // The first reason wins: closing the server closes the transport, which reports back here synchronously.
  const close = (reason = 'closed'): Promise<string> => {
    // `then` runs shutdown on a later tick, after `closing` is set.
    closing ??= Promise.resolve(reason).then(shutdown)
    return closing
  }

  if (options.handleSignals !== false) for (const signal of signals) process.on(signal, onSignal)
  stdin.on('end', onEnd)
  stdin.on('close', onEnd)
  server.onclose = () => void close('the transport closed')
  try {
    await server.connect(transport)
  } catch (error) {
    await close('failed to start')
    throw error
  }
  return { closed, close }
}

function describe(error: unknown): string {
  return isLspError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error)
}

/** What each call answers when the session could not be opened: the error, with its code when it has one. */
function sessionFailure(error: unknown): CallToolResult {
  const code = isLspError(error) ? error.code : 'UNAVAILABLE'
  const message = `the workspace session could not be opened: ${error instanceof Error ? error.message : String(error)}`
  return {
    content: [{ type: 'text', text: `error ${code}: ${message}` }],
    isError: true,
    _meta: { 'codeseam/error': { code, message, data: {} } },
  }
}
