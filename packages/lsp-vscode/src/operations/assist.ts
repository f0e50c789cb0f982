import type { LspProviderRequest, LspRequestFor, LspResultFor } from '@codeseam/lsp'

import { execute, vsCommands } from '../commands.js'
import { toCompletion, toInlayHints } from '../shapes/completion.js'
import { toVsPosition, toVsRange, wholeDocumentRange } from '../shapes/positions.js'
import { checkPosition, metaFor, warmRead } from '../session.js'
import type { OperationContext } from '../operation-context.js'
import { openAt } from './navigation.js'

/** Inlay hints in the given range, or in the whole document (VS Code's command requires a range). */
export async function inlayHints(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'inlayHints'>>,
): Promise<LspResultFor<'inlayHints'>> {
  const pinned = await openAt(context, request)
  if (request.range) {
    checkPosition(pinned.document, request.range.start)
    checkPosition(pinned.document, request.range.end)
  }
  const range = request.range ? toVsRange(request.range) : wholeDocumentRange(pinned.document)
  const outcome = await warmRead(
    context,
    pinned.document,
    vsCommands.inlayHints,
    () => execute.inlayHints(pinned.document.uri, range),
    (answer) => !answer || answer.length === 0,
  )
  return { kind: 'inlayHints', hints: toInlayHints(outcome.value, context.containment), meta: metaFor(context, outcome, pinned) }
}

/** Completion at a position, optionally as if `triggerCharacter` had just been typed. */
export async function completion(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'completion'>>,
): Promise<LspResultFor<'completion'>> {
  const pinned = await openAt(context, request)
  const outcome = await warmRead(
    context,
    pinned.document,
    vsCommands.completion,
    () => execute.completion(pinned.document.uri, toVsPosition(request.position), request.triggerCharacter),
    (answer) => toCompletion(answer).items.length === 0,
  )
  const { items, isIncomplete } = toCompletion(outcome.value)
  return { kind: 'completion', items, isIncomplete, meta: metaFor(context, outcome, pinned) }
}
