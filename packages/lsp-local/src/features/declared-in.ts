import { fileURLToPath } from 'node:url'

import type { LspPosition } from '@codeseam/lsp'
import { DefinitionRequest, type Location, type LocationLink } from 'vscode-languageserver-protocol/node'

import type { LanguageServer } from '../server/language-server.js'
import { supportsOperation } from './capabilities.js'
import { linesOf } from './context.js'

/**
 * The files that declare what a position names, as the server's definition says (RFC 0035, amended): need-first
 * loads what can reach these, not the question's file. A use in app1 of a function lib declares is referenced
 * wherever lib is reached (app2 too), which need not reach app1. Undefined when the server cannot tell (no
 * definition provider, an error, the deadline): the loader then loads everything. The question's file is opened
 * (unpinned) as the question itself would open it.
 */
export async function declaringFiles(
  server: LanguageServer,
  path: string,
  languageId: string,
  position: LspPosition,
  deadline: number,
  signal?: AbortSignal,
): Promise<string[] | undefined> {
  if (!supportsOperation('definition', server.capabilities, server.registrations)) return undefined
  try {
    const document = await server.documents.sync(path, languageId)
    const answer = await server.request(
      DefinitionRequest.type,
      { textDocument: { uri: document.uri }, position: linesOf(document).validate(position) },
      {
        timeoutMs: Math.max(1, deadline - Date.now()),
        ...(signal === undefined ? {} : { signal }),
        what: 'the definition need-first loads from',
      },
    )
    const entries: ReadonlyArray<Location | LocationLink> = answer === null ? [] : Array.isArray(answer) ? answer : [answer as Location]
    const uris = entries.map((entry) => ('targetUri' in entry ? entry.targetUri : entry.uri))
    if (uris.some((uri) => !uri.startsWith('file:'))) return undefined
    return [...new Set(uris.map((uri) => fileURLToPath(uri)))]
  } catch {
    return undefined
  }
}
