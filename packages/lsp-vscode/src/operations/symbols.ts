import type { LspProviderRequest, LspRequestFor, LspResultFor } from '@codeseam/lsp'

import { execute, vsCommands } from '../commands.js'
import { toDocumentSymbols, toWorkspaceSymbols } from '../shapes/symbols.js'
import { metaFor, warmRead } from '../session.js'
import type { OperationContext } from '../operation-context.js'
import { openAt } from './navigation.js'

/** The outline of a document (DocumentSymbol trees, or flat SymbolInformation nested by range). */
export async function documentSymbols(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'documentSymbols'>>,
): Promise<LspResultFor<'documentSymbols'>> {
  const pinned = await openAt(context, request)
  const outcome = await warmRead(
    context,
    pinned.document,
    vsCommands.documentSymbols,
    () => execute.documentSymbols(pinned.document.uri),
    (answer) => !answer || answer.length === 0,
  )
  return { kind: 'documentSymbols', symbols: toDocumentSymbols(outcome.value), meta: metaFor(context, outcome, pinned) }
}

/**
 * Workspace symbol search. VS Code searches every folder at once; answers outside the request's root are
 * dropped and counted, so each root sees only its own symbols.
 */
export async function workspaceSymbols(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'workspaceSymbols'>>,
): Promise<LspResultFor<'workspaceSymbols'>> {
  const outcome = await warmRead(
    context,
    undefined,
    vsCommands.workspaceSymbols,
    () => execute.workspaceSymbols(request.query),
    (answer) => !answer || answer.length === 0,
  )
  return { kind: 'workspaceSymbols', symbols: toWorkspaceSymbols(outcome.value, context.containment), meta: metaFor(context, outcome) }
}
