import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  type CallHierarchyItem,
  type Range,
} from 'vscode-languageserver-protocol/node'

import type { LspHierarchyCall, LspResultMeta } from '@codeseam/lsp'

import { positionParams, protocolItem, requestOptions, type OperationContext } from './context.js'
import type { Enabler, Feature } from './feature.js'
import { answerHierarchyItems } from './hierarchy.js'

// The follow-ups need no capability of their own: a server that prepares call hierarchy answers them.
const enabledBy: ReadonlyArray<Enabler> = [{ capability: 'callHierarchyProvider', method: CallHierarchyPrepareRequest.method }]
const client = { textDocument: { callHierarchy: { dynamicRegistration: true } } }

export const prepareCallHierarchy = {
  // Loaded like the incomingCalls that follows it, so the item is prepared against the program that will be
  // searched for its callers (lsp-local's choice; the seam does not require it).
  scope: 'everyProject',
  retryWhenEmpty: false,
  source: {
    enabledBy,
    client,
    run: answerHierarchyItems((request, ctx) =>
      ctx.server.request(CallHierarchyPrepareRequest.type, positionParams(request, ctx), requestOptions(ctx)),
    ),
  },
} satisfies Feature<'prepareCallHierarchy'>

export const incomingCalls = {
  scope: 'everyProject',
  retryWhenEmpty: false,
  source: {
    enabledBy,
    client,
    run: answerCalls(
      (request, ctx) =>
        ctx.server.request(CallHierarchyIncomingCallsRequest.type, { item: protocolItem(request, ctx) }, requestOptions(ctx)),
      (call) => call.from,
    ),
  },
} satisfies Feature<'incomingCalls'>

export const outgoingCalls = {
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    enabledBy,
    client,
    run: answerCalls(
      (request, ctx) =>
        ctx.server.request(CallHierarchyOutgoingCallsRequest.type, { item: protocolItem(request, ctx) }, requestOptions(ctx)),
      (call) => call.to,
    ),
  },
} satisfies Feature<'outgoingCalls'>

/**
 * An incoming or outgoing calls run: `ask` sends its request; each call is answered as the item at its other end
 * (`end`), dropped when outside the root.
 */
function answerCalls<R, C extends { readonly fromRanges: Range[] }>(
  ask: (request: R, ctx: OperationContext) => Promise<ReadonlyArray<C> | null>,
  end: (call: C) => CallHierarchyItem,
): (request: R, ctx: OperationContext) => Promise<{ kind: 'hierarchyCalls'; calls: LspHierarchyCall[]; meta: LspResultMeta }> {
  return async (request, ctx) => {
    const calls = (await ask(request, ctx)) ?? []
    return { kind: 'hierarchyCalls', calls: seamCalls(ctx, calls, end), meta: ctx.meta() }
  }
}

/** Incoming or outgoing calls as the seam's: the item at the other end (`end`), dropped when outside the root. */
function seamCalls<C extends { readonly fromRanges: Range[] }>(
  ctx: OperationContext,
  calls: ReadonlyArray<C>,
  end: (call: C) => CallHierarchyItem,
): LspHierarchyCall[] {
  return calls.flatMap((call) => {
    const item = ctx.translator.hierarchyItem(end(call))
    return item === undefined ? [] : [{ item, fromRanges: call.fromRanges }]
  })
}
