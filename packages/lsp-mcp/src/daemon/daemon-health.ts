import { get } from 'node:http'

import { healthPath } from './endpoints.js'

/** The daemon's identity as its health endpoint reports it. */
export interface Health {
  readonly version: string
  readonly key: string
  readonly pid: number
  /** Open sessions (the health endpoint's count). */
  readonly sessions?: number
  /** What the daemon and its language servers hold (absent from a daemon older than RFC 0030). */
  readonly memory?: DaemonMemory
}

/**
 * Resident memory of a daemon: its own process, and each running language server's process tree as last sampled
 * (both trust levels' hosts; no root is named), and the one budget they all count against (RFC 0033).
 */
export interface DaemonMemory {
  /** The daemon process itself, bytes, read when asked. */
  readonly ownRssBytes: number
  /** The running servers' last samples summed, bytes (0 with none sampled). */
  readonly serversRssBytes: number
  readonly servers: ReadonlyArray<{
    readonly trust: string
    /** The profile, e.g. `typescript`. */
    readonly server: string
    readonly rssBytes: number
    /** When this sample was taken (ms since the epoch). */
    readonly sampledAt: number
  }>
  /** The oldest sample summed (ms since the epoch); absent with none. */
  readonly oldestSampleAt?: number
  /** The resident memory one server may hold before it is restarted, bytes; absent when none is set. */
  readonly perServerCeilingBytes?: number
  /**
   * The memory budget every server of both trust levels counts against together, bytes (`serversRssBytes` is what
   * they hold of it); absent when there is none (`limits.memoryBudgetBytes` 0) or no host has started.
   */
  readonly budgetBytes?: number
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
