import type { LspHierarchyItem, LspResultMeta } from '@codeseam/lsp'
import type { CallHierarchyItem, TypeHierarchyItem } from 'vscode-languageserver-protocol/node'

import type { OperationContext } from './context.js'

/*
 * What the call and type hierarchy operations share: each prepare or follow-up asks the server one request and
 * answers the items it returns, translated (an item outside the root dropped).
 */

/** A hierarchy operation's run: `ask` sends its request; the answer is the items the server returned. */
export function answerHierarchyItems<R>(
  ask: (request: R, ctx: OperationContext) => Promise<ReadonlyArray<CallHierarchyItem | TypeHierarchyItem> | null>,
): (request: R, ctx: OperationContext) => Promise<{ kind: 'hierarchyItems'; items: LspHierarchyItem[]; meta: LspResultMeta }> {
  return async (request, ctx) => ({
    kind: 'hierarchyItems',
    items: ctx.translator.hierarchyItems(await ask(request, ctx)),
    meta: ctx.meta(),
  })
}
