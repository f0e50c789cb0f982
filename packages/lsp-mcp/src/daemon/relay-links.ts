import type { Socket } from 'node:net'

import { isLspError, LspError } from '@codeseam/lsp'

import type { DaemonSession, OpenDaemonSession } from './sessions.js'
import { sessionParamsFrom, type SessionCeiling } from './session-params.js'
import { readLine, writeLine, type SessionHello } from './socket-link.js'

/** What accepting a relay's connection needs. */
export interface RelayLinkDeps {
  readonly openSession: OpenDaemonSession
  readonly ceiling: SessionCeiling
  /** Whether the daemon is shutting down. */
  readonly isClosing: () => boolean
  readonly log: (line: string) => void
}

/** A relay's connection: its hello line names the session; the answer says ready (with the id) or refused. */
export async function acceptLink(deps: RelayLinkDeps, link: Socket, first: Buffer): Promise<void> {
  let entry: DaemonSession
  try {
    const hello = await readLine<SessionHello>(link, first)
    if (hello?.codeseam !== 'session' || typeof hello.query !== 'string')
      throw new LspError('INVALID_ARGUMENT', 'expected a session hello line')
    if (deps.isClosing()) throw new LspError('UNAVAILABLE', 'the codeseam daemon is shutting down; call again to start a new one')
    entry = await deps.openSession(sessionParamsFrom(new URLSearchParams(hello.query), deps.ceiling), link)
  } catch (error) {
    deps.log(`a session was refused: ${error instanceof Error ? error.message : String(error)}`)
    if (!link.destroyed) {
      writeLine(link, {
        codeseam: 'refused',
        code: isLspError(error) ? error.code : 'UNAVAILABLE',
        message: error instanceof Error ? error.message : String(error),
      })
      link.end()
    }
    return
  }
  writeLine(link, { codeseam: 'ready', session: entry.id ?? '' })
  link.resume()
}
