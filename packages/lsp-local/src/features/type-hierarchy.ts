import {
  TypeHierarchyPrepareRequest,
  TypeHierarchySubtypesRequest,
  TypeHierarchySupertypesRequest,
} from 'vscode-languageserver-protocol/node'

import { positionParams, protocolItem, requestOptions } from './context.js'
import type { Enabler, Feature } from './feature.js'

// The follow-ups need no capability of their own: a server that prepares type hierarchy answers them.
const enabledBy: ReadonlyArray<Enabler> = [{ capability: 'typeHierarchyProvider', method: TypeHierarchyPrepareRequest.method }]
const client = { textDocument: { typeHierarchy: { dynamicRegistration: true } } }

export const prepareTypeHierarchy = {
  whenMissing: 'derived',
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    enabledBy,
    client,
    run: async (request, ctx) => ({
      kind: 'hierarchyItems',
      items: ctx.translator.hierarchyItems(
        await ctx.server.request(TypeHierarchyPrepareRequest.type, positionParams(request, ctx), requestOptions(ctx)),
      ),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'prepareTypeHierarchy'>

export const supertypes = {
  whenMissing: 'derived',
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    enabledBy,
    client,
    run: async (request, ctx) => ({
      kind: 'hierarchyItems',
      items: ctx.translator.hierarchyItems(
        await ctx.server.request(TypeHierarchySupertypesRequest.type, { item: protocolItem(request, ctx) }, requestOptions(ctx)),
      ),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'supertypes'>

export const subtypes = {
  whenMissing: 'derived',
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    enabledBy,
    client,
    run: async (request, ctx) => ({
      kind: 'hierarchyItems',
      items: ctx.translator.hierarchyItems(
        await ctx.server.request(TypeHierarchySubtypesRequest.type, { item: protocolItem(request, ctx) }, requestOptions(ctx)),
      ),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'subtypes'>
