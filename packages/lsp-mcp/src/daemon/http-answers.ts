import type { IncomingMessage, ServerResponse } from 'node:http'

import { isLspError, LspError } from '@codeseam/lsp'

/** How the daemon answers over HTTP: JSON bodies, JSON-RPC errors with codeseam's codes, and their statuses. */

const maxBodyBytes = 16 * 1024 * 1024

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end()
    return
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

/** A JSON-RPC error body, with the codeseam error code in `data.code` when there is one. */
export function rpcError(error: unknown, id: unknown = null): unknown {
  const code = isLspError(error) ? error.code : 'UNAVAILABLE'
  const message = error instanceof Error ? error.message : String(error)
  return { jsonrpc: '2.0', id, error: { code: -32000, message: `${code}: ${message}`, data: { code } } }
}

export function statusFor(error: unknown): number {
  if (!isLspError(error)) return 500
  switch (error.code) {
    case 'INVALID_ARGUMENT':
    case 'NOT_FOUND':
      return 400
    case 'UNTRUSTED':
    case 'APPROVAL_DENIED':
    case 'OUTSIDE_WORKSPACE':
      return 403
    default:
      return 500
  }
}

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > maxBodyBytes) throw new LspError('INVALID_ARGUMENT', `request body over ${maxBodyBytes} bytes`)
    chunks.push(chunk as Buffer)
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
  } catch {
    throw new LspError('INVALID_ARGUMENT', 'the request body is not JSON')
  }
}
