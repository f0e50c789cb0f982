import { request } from 'node:http'
import { Readable } from 'node:stream'

import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'

/**
 * `fetch` over a Unix socket, for the SDK's Streamable HTTP client transport (which takes a custom fetch) in
 * tests that talk to the daemon's socket over HTTP:
 * node's own `fetch` cannot reach a socket path without a dispatcher from undici, which node does not export.
 * The response body streams (server-sent events stay open), and the request's abort signal aborts it.
 */
export function unixSocketFetch(socketPath: string): FetchLike {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === 'string' ? input : input.toString())
      const headers: Record<string, string> = {}
      new Headers(init?.headers).forEach((value, name) => {
        headers[name] = value
      })
      const body = init?.body
      if (body !== undefined && body !== null && typeof body !== 'string') {
        reject(new TypeError('unixSocketFetch sends string bodies only'))
        return
      }
      const req = request(
        {
          socketPath,
          path: `${url.pathname}${url.search}`,
          method: init?.method ?? 'GET',
          headers,
          ...(init?.signal ? { signal: init.signal } : {}),
        },
        (res) => {
          const responseHeaders = new Headers()
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue
            for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one)
          }
          const status = res.statusCode ?? 500
          const empty = status === 204 || status === 304 || (init?.method ?? 'GET') === 'HEAD'
          if (empty) res.resume()
          resolve(
            new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
              status,
              statusText: res.statusMessage ?? '',
              headers: responseHeaders,
            }),
          )
        },
      )
      req.once('error', reject)
      req.end(body ?? undefined)
    })
}
