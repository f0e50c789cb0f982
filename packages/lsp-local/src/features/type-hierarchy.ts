import {
  TypeHierarchyPrepareRequest,
  TypeHierarchySubtypesRequest,
  TypeHierarchySupertypesRequest,
} from 'vscode-languageserver-protocol/node'

import { positionParams, protocolItem, requestOptions } from './context.js'
import type { Enabler, Feature } from './feature.js'
import { answerHierarchyItems } from './hierarchy.js'

// The follow-ups need no capability of their own: a server that prepares type hierarchy answers them.
const enabledBy: ReadonlyArray<Enabler> = [{ capability: 'typeHierarchyProvider', method: TypeHierarchyPrepareRequest.method }]
const client = { textDocument: { typeHierarchy: { dynamicRegistration: true } } }

/** What the three operations share: derived when the server lacks them, asked of the document's own server. */
const typeHierarchyFeature = { whenMissing: 'derived', scope: 'document', retryWhenEmpty: false } as const

export const prepareTypeHierarchy = {
  ...typeHierarchyFeature,
  source: {
    enabledBy,
    client,
    run: answerHierarchyItems((request, ctx) =>
      ctx.server.request(TypeHierarchyPrepareRequest.type, positionParams(request, ctx), requestOptions(ctx)),
    ),
  },
} satisfies Feature<'prepareTypeHierarchy'>

export const supertypes = {
  ...typeHierarchyFeature,
  source: {
    enabledBy,
    client,
    run: answerHierarchyItems((request, ctx) =>
      ctx.server.request(TypeHierarchySupertypesRequest.type, { item: protocolItem(request, ctx) }, requestOptions(ctx)),
    ),
  },
} satisfies Feature<'supertypes'>

export const subtypes = {
  ...typeHierarchyFeature,
  source: {
    enabledBy,
    client,
    run: answerHierarchyItems((request, ctx) =>
      ctx.server.request(TypeHierarchySubtypesRequest.type, { item: protocolItem(request, ctx) }, requestOptions(ctx)),
    ),
  },
} satisfies Feature<'subtypes'>
