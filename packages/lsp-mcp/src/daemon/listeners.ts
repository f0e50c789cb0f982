import { chmodSync, closeSync, openSync, statSync, unlinkSync } from 'node:fs'
import { createServer, type Server as HttpServer } from 'node:http'
import { connect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'

import type { RequestListener } from './http-router.js'
import { ensurePrivateDir } from './runtime-dir.js'

/**
 * The daemon's listeners: its Unix socket, which takes both a relay's session (first byte `{`) and HTTP (anything
 * else), and optionally a TCP HTTP server. Binding replaces a dead daemon's socket; stopping closes them all.
 */

export interface Listeners {
  /** The HTTP server the Unix socket hands HTTP connections to. */
  readonly unixHttp?: HttpServer
  /** The Unix socket's server, which sniffs each connection's first byte. */
  readonly unixServer?: NetServer
  readonly tcpServer?: HttpServer
  /** The Unix socket's open connections. */
  readonly links: Set<Socket>
}

/** Creates (does not bind) the listeners: the Unix socket's when there is a socket path, TCP's when asked for. */
export function createListeners(
  socketPath: string | undefined,
  tcp: { readonly host: string; readonly port: number } | undefined,
  serve: (overTcp: boolean) => RequestListener,
  acceptLink: (link: Socket, first: Buffer) => Promise<void>,
): Listeners {
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
  return {
    ...(unixHttp === undefined ? {} : { unixHttp }),
    ...(unixServer === undefined ? {} : { unixServer }),
    ...(tcpServer === undefined ? {} : { tcpServer }),
    links,
  }
}

/** The port the TCP server is bound to, once it is. */
export function tcpPort(listeners: Listeners): number | undefined {
  return (listeners.tcpServer?.address() as { port: number } | null)?.port
}

/** Binds the listeners; gives the socket's inode (so shutdown removes the socket only if it is still ours). */
export async function bindListeners(
  listeners: Listeners,
  socketPath: string | undefined,
  tcp: { readonly host: string; readonly port: number } | undefined,
): Promise<number | undefined> {
  const { unixServer, tcpServer } = listeners
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
  return socketInode
}

/** Stops accepting and drops every connection; resolves once every listener has closed. */
export function stopListeners(listeners: Listeners): Promise<unknown> {
  const { unixHttp, tcpServer, unixServer, links } = listeners
  return Promise.all([
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
}

/** Removes the socket only if it is still ours (a new daemon may have replaced a socket it thought dead). */
export function removeOwnSocket(socketPath: string | undefined, socketInode: number | undefined): void {
  if (socketPath !== undefined && socketInode !== undefined) {
    try {
      if (statSync(socketPath).ino === socketInode) unlinkSync(socketPath)
    } catch {
      // Already gone.
    }
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
