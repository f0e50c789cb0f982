import type { LspProviderRequest, LspRequestFor, LspResultFor } from '@codeseam/lsp'

import { execute, vsCommands } from '../commands.js'
import { toHover, toSignatureHelp } from '../shapes/hover.js'
import { toLocations } from '../shapes/locations.js'
import { toVsPosition } from '../shapes/positions.js'
import { checkPosition, metaFor, pin, warmRead, type PinnedDocument } from '../session.js'
import type { OperationContext } from '../operation-context.js'

type NavigationOperation = 'definition' | 'typeDefinition' | 'declaration' | 'implementation' | 'references'

/** Opens the request's document (activating its extension), checks the position and pins its version. */
export async function openAt(
  context: OperationContext,
  request: { readonly path: string; readonly position?: LspRequestFor<'hover'>['position'] },
): Promise<PinnedDocument> {
  const document = await context.documents.open(request.path, context.deadline)
  if (request.position !== undefined) checkPosition(document, request.position)
  return pin(document)
}

/** Definition, type definition, declaration, implementation and references (declarations included). */
export async function navigate(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<NavigationOperation>>,
): Promise<LspResultFor<NavigationOperation>> {
  const pinned = await openAt(context, request)
  const uri = pinned.document.uri
  const position = toVsPosition(request.position)
  const command = vsCommands[request.operation]
  const outcome = await warmRead(
    context,
    pinned.document,
    command,
    () => execute.navigation(command, uri, position),
    (answer) => !answer || (Array.isArray(answer) && answer.length === 0),
  )
  const locations = toLocations(outcome.value, context.containment)
  return { kind: 'locations', locations, meta: metaFor(context, outcome, pinned) }
}

/** Hover: every provider's parts merged into one markdown text. */
export async function hover(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'hover'>>,
): Promise<LspResultFor<'hover'>> {
  const pinned = await openAt(context, request)
  const outcome = await warmRead(
    context,
    pinned.document,
    vsCommands.hover,
    () => execute.hover(pinned.document.uri, toVsPosition(request.position)),
    (answer) => toHover(answer) === null,
  )
  return { kind: 'hover', hover: toHover(outcome.value), meta: metaFor(context, outcome, pinned) }
}

/** Signature help at a call site. */
export async function signatureHelp(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'signatureHelp'>>,
): Promise<LspResultFor<'signatureHelp'>> {
  const pinned = await openAt(context, request)
  const outcome = await warmRead(
    context,
    pinned.document,
    vsCommands.signatureHelp,
    () => execute.signatureHelp(pinned.document.uri, toVsPosition(request.position)),
    (answer) => toSignatureHelp(answer) === null,
  )
  return { kind: 'signatureHelp', signatureHelp: toSignatureHelp(outcome.value), meta: metaFor(context, outcome, pinned) }
}
