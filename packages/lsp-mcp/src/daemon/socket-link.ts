import type { Socket } from 'node:net'

import { LspError, type LspErrorCode } from '@codeseam/lsp'

/**
 * The link between `codeseam mcp` and its daemon: the daemon's Unix socket also takes plain MCP sessions —
 * newline-delimited JSON-RPC, the framing of MCP's stdio transport (the SDK's `StdioServerTransport` on the
 * daemon's side, over the connection) — after one handshake line each way. A connection whose first byte is
 * `{` is such a session; anything else is HTTP (Streamable HTTP clients, the health endpoint).
 *
 * Why not Streamable HTTP for the relay: every call through it builds web Request/Response objects, streams
 * and SSE events on both sides, several ms of CPU per call in a daemon that serves every session on one
 * thread; and a relay needs no HTTP to tell that its daemon died: the connection closes.
 */

/** The relay's first line: which session it asks for (the same parameters a Streamable HTTP client puts in its URL). */
export interface SessionHello {
  readonly codeseam: 'session'
  /** A URL query: `root=…&trust=…&edits=…` (see session-params.ts). */
  readonly query: string
}

/** The daemon's answer: the session is open, or refused with why. */
export type SessionWelcome =
  | { readonly codeseam: 'ready'; readonly session: string }
  | { readonly codeseam: 'refused'; readonly code: LspErrorCode; readonly message: string }

/** Longest handshake line accepted. */
const maxLine = 64 * 1024

/**
 * Reads one JSON line from the socket, then gives back whatever followed it (the session's first messages)
 * so the transport that takes the socket over reads it. `first` is data already read from the socket.
 */
export function readLine<T>(socket: Socket, first?: Buffer): Promise<T> {
  return new Promise((resolve, reject) => {
    let buffered = first ?? Buffer.alloc(0)
    const done = (settle: () => void) => {
      socket.off('data', onData)
      socket.off('close', onClose)
      socket.off('error', onError)
      settle()
    }
    const tryLine = (): boolean => {
      const end = buffered.indexOf(0x0a)
      if (end < 0) {
        if (buffered.length > maxLine) done(() => reject(new LspError('INVALID_ARGUMENT', `handshake line over ${maxLine} bytes`)))
        return buffered.length > maxLine
      }
      const line = buffered.subarray(0, end).toString('utf8')
      const rest = buffered.subarray(end + 1)
      socket.pause()
      if (rest.length > 0) socket.unshift(rest)
      done(() => {
        try {
          resolve(JSON.parse(line) as T)
        } catch {
          reject(new LspError('INVALID_ARGUMENT', 'the handshake line is not JSON'))
        }
      })
      return true
    }
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      tryLine()
    }
    const onClose = () => done(() => reject(new LspError('UNAVAILABLE', 'the connection closed during the handshake')))
    const onError = (error: Error) =>
      done(() => reject(new LspError('UNAVAILABLE', `the connection failed during the handshake: ${error.message}`)))
    if (tryLine()) return
    socket.on('data', onData)
    socket.once('close', onClose)
    socket.once('error', onError)
    socket.resume()
  })
}

/** Writes one JSON line. */
export function writeLine(socket: Socket, value: SessionHello | SessionWelcome): void {
  socket.write(`${JSON.stringify(value)}\n`)
}
