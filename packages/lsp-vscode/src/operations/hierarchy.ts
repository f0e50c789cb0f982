import * as nodePath from 'node:path'

import {
  LspError,
  isDerivedItem,
  type LspHierarchyItem,
  type LspProviderRequest,
  type LspRequestFor,
  type LspResultFor,
} from '@codeseam/lsp'
import type * as vscode from 'vscode'

import { execute, vsCommands } from '../commands.js'
import { toHierarchyItem, type HierarchyFamily, type HierarchyItemData } from '../shapes/hierarchy.js'
import { fromVsRange, toVsPosition } from '../shapes/positions.js'
import { metaFor, warmRead } from '../session.js'
import type { OperationContext } from '../operation-context.js'
import { openAt } from './navigation.js'

type VsItem = vscode.CallHierarchyItem | vscode.TypeHierarchyItem

function prepareCommand(family: HierarchyFamily, uri: vscode.Uri, position: vscode.Position): Thenable<VsItem[] | undefined> {
  return family === 'call' ? execute.prepareCallHierarchy(uri, position) : execute.prepareTypeHierarchy(uri, position)
}

/** Converts items, remembering each VS Code object under its seam id for follow-ups. */
function remember(context: OperationContext, family: HierarchyFamily, items: ReadonlyArray<VsItem> | undefined): LspHierarchyItem[] {
  const out: LspHierarchyItem[] = []
  for (const item of items ?? []) {
    const converted = toHierarchyItem(family, item, context.containment)
    if (converted === undefined) continue
    context.hierarchyItems.set(converted.id, item)
    out.push(converted)
  }
  return out
}

/** prepareCallHierarchy / prepareTypeHierarchy. */
export async function prepareHierarchy(
  context: OperationContext,
  family: HierarchyFamily,
  request: LspProviderRequest<LspRequestFor<'prepareCallHierarchy' | 'prepareTypeHierarchy'>>,
): Promise<LspResultFor<'prepareCallHierarchy'>> {
  const pinned = await openAt(context, request)
  const outcome = await warmRead(
    context,
    pinned.document,
    family === 'call' ? vsCommands.prepareCallHierarchy : vsCommands.prepareTypeHierarchy,
    () => prepareCommand(family, pinned.document.uri, toVsPosition(request.position)),
    (answer) => !answer || answer.length === 0,
  )
  return { kind: 'hierarchyItems', items: remember(context, family, outcome.value), meta: metaFor(context, outcome, pinned) }
}

/**
 * Finds the VS Code item behind a seam item. VS Code's follow-up commands only accept the objects its
 * prepare command returned (they carry session ids), so an item this session no longer remembers is
 * prepared again at its selection start and matched by id.
 */
async function vsItemFor(context: OperationContext, family: HierarchyFamily, item: LspHierarchyItem): Promise<VsItem> {
  // A derived item has no VS Code item behind it, and preparing it through VS Code would find none (or a
  // different provider's): its type-hierarchy follow-ups are derived (the provider routes them), never here.
  if (isDerivedItem(item)) {
    throw new LspError(
      'INVALID_ARGUMENT',
      family === 'call'
        ? `"${item.name}" is a derived type-hierarchy item; it cannot continue a call hierarchy`
        : `"${item.name}" is a derived type-hierarchy item; its supertypes and subtypes are derived, and derivation is off`,
      { data: { id: item.id } },
    )
  }
  const data = item.data as Partial<HierarchyItemData> | undefined
  if (data?.family !== undefined && data.family !== family) {
    throw new LspError('INVALID_ARGUMENT', `"${item.name}" is a ${data.family}-hierarchy item; it cannot continue a ${family} hierarchy`)
  }
  const remembered = context.hierarchyItems.get(item.id)
  if (remembered) return remembered
  const path = nodePath.normalize(item.path)
  const pinned = await openAt(context, { path, position: item.selectionRange.start })
  const fresh = await context.deadline.run(`re-preparing ${item.name}`, () =>
    prepareCommand(family, pinned.document.uri, toVsPosition(item.selectionRange.start)),
  )
  remember(context, family, fresh ?? [])
  const found = context.hierarchyItems.get(item.id)
  if (found) return found
  const candidate = (fresh ?? []).find(
    (f) => f.name === item.name && JSON.stringify(fromVsRange(f.selectionRange)) === JSON.stringify(item.selectionRange),
  )
  if (candidate) return candidate
  throw new LspError('NOT_FOUND', `the ${family}-hierarchy item "${item.name}" no longer exists at ${path}; prepare the hierarchy again`, {
    data: { id: item.id, path },
  })
}

/** incomingCalls / outgoingCalls: one level of callers or callees, with call-site ranges. */
export async function calls(
  context: OperationContext,
  direction: 'incoming' | 'outgoing',
  request: LspProviderRequest<LspRequestFor<'incomingCalls' | 'outgoingCalls'>>,
): Promise<LspResultFor<'incomingCalls'>> {
  const item = (await vsItemFor(context, 'call', request.item)) as vscode.CallHierarchyItem
  const outcome = await warmRead(
    context,
    undefined,
    direction === 'incoming' ? vsCommands.incomingCalls : vsCommands.outgoingCalls,
    (): Thenable<ReadonlyArray<vscode.CallHierarchyIncomingCall | vscode.CallHierarchyOutgoingCall> | undefined> =>
      direction === 'incoming' ? execute.incomingCalls(item) : execute.outgoingCalls(item),
    (answer) => !answer || answer.length === 0,
  )
  const result: LspResultFor<'incomingCalls'>['calls'][number][] = []
  for (const call of outcome.value ?? []) {
    const other = 'from' in call ? call.from : call.to
    const [converted] = remember(context, 'call', [other])
    if (converted) result.push({ item: converted, fromRanges: call.fromRanges.map(fromVsRange) })
  }
  return { kind: 'hierarchyCalls', calls: result, meta: metaFor(context, outcome) }
}

/** supertypes / subtypes: one level of the type hierarchy. */
export async function relatedTypes(
  context: OperationContext,
  direction: 'supertypes' | 'subtypes',
  request: LspProviderRequest<LspRequestFor<'supertypes' | 'subtypes'>>,
): Promise<LspResultFor<'supertypes'>> {
  const item = (await vsItemFor(context, 'type', request.item)) as vscode.TypeHierarchyItem
  const outcome = await warmRead(
    context,
    undefined,
    direction === 'supertypes' ? vsCommands.supertypes : vsCommands.subtypes,
    () => (direction === 'supertypes' ? execute.supertypes(item) : execute.subtypes(item)),
    (answer) => !answer || answer.length === 0,
  )
  return { kind: 'hierarchyItems', items: remember(context, 'type', outcome.value), meta: metaFor(context, outcome) }
}
