import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'

import { createCodeseamServer } from './server.js'
import { openSession, type SessionOptions } from './session.js'
import type { CollectToolsOptions } from './tool-set.js'

/**
 * `codeseam mcp`: the MCP server over stdio, with its lifecycle. It ends when the client closes stdin, the
 * transport closes, or the process gets SIGINT/SIGTERM/SIGHUP; every language server is stopped before the
 * process exits.
 */

/** Options for {@link startMcpServer}. */
export interface McpServerOptions extends SessionOptions, Omit<CollectToolsOptions, 'mutations'> {
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

/** Starts the MCP server and serves until the client goes away or the process is told to stop. */
export async function startMcpServer(options: McpServerOptions = {}): Promise<RunningMcpServer> {
  const session = await openSession(options)
  let server
  try {
    server = createCodeseamServer({
      session,
      allowEdits: options.allowEdits === true,
      ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }),
      ...(options.disable === undefined ? {} : { disable: options.disable }),
      ...(options.enable === undefined ? {} : { enable: options.enable }),
    })
  } catch (error) {
    await session.dispose()
    throw error
  }
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
        await session.dispose()
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
