import { get } from 'node:http'

import { healthPath } from './endpoints.js'

/** The daemon's identity as its health endpoint reports it. */
export interface Health {
  readonly version: string
  readonly key: string
  readonly pid: number
  /** Open sessions (the health endpoint's count). */
  readonly sessions?: number
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
