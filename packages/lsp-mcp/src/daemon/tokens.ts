import { randomBytes, timingSafeEqual } from 'node:crypto'
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'

import { ensurePrivateDir, runtimeDir } from './runtime-dir.js'

/** The bearer token TCP requests must carry: read from `--token-file`, or generated and written 0600 beside the socket. */
export interface BearerToken {
  readonly token: string
  readonly tokenFile: string
}

/** The daemon's token, when it listens on TCP; undefined without TCP. */
export function bearerToken(listensOnTcp: boolean, givenFile: string | undefined, key: string): BearerToken | undefined {
  if (!listensOnTcp) return undefined
  if (givenFile !== undefined) {
    const tokenFile = nodePath.resolve(givenFile)
    return { tokenFile, token: readToken(tokenFile) }
  }
  const tokenFile = nodePath.join(ensurePrivateDir(runtimeDir()), `daemon-${key}.token`)
  const token = randomBytes(32).toString('base64url')
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 })
  chmodSync(tokenFile, 0o600)
  return { tokenFile, token }
}

function readToken(file: string): string {
  let text: string
  try {
    text = readFileSync(file, 'utf8').trim()
  } catch {
    throw new LspError('NOT_FOUND', `token file ${file} cannot be read`)
  }
  if (text.length < 16) throw new LspError('INVALID_ARGUMENT', `the token in ${file} is shorter than 16 characters`)
  if ((statSync(file).mode & 0o077) !== 0) {
    throw new LspError('UNTRUSTED', `token file ${file} can be read by group or others: chmod 600 it`)
  }
  return text
}

/** Compares in constant time. */
export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
