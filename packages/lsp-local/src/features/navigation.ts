import {
  DeclarationRequest,
  DefinitionRequest,
  ImplementationRequest,
  ReferencesRequest,
  TypeDefinitionRequest,
} from 'vscode-languageserver-protocol/node'

import { positionParams, requestOptions } from './context.js'
import type { Feature } from './feature.js'

// Navigation: a position in, locations out. Links are accepted (linkSupport) so the target's name range survives.

export const definition = {
  scope: 'document',
  retryWhenEmpty: true,
  source: {
    enabledBy: [{ capability: 'definitionProvider', method: DefinitionRequest.method }],
    client: { textDocument: { definition: { dynamicRegistration: true, linkSupport: true } } },
    run: async (request, ctx) => ({
      kind: 'locations',
      locations: ctx.translator.locations(
        await ctx.server.request(DefinitionRequest.type, positionParams(request, ctx), requestOptions(ctx)),
      ),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'definition'>

export const typeDefinition = {
  scope: 'document',
  retryWhenEmpty: true,
  source: {
    enabledBy: [{ capability: 'typeDefinitionProvider', method: TypeDefinitionRequest.method }],
    client: { textDocument: { typeDefinition: { dynamicRegistration: true, linkSupport: true } } },
    run: async (request, ctx) => ({
      kind: 'locations',
      locations: ctx.translator.locations(
        await ctx.server.request(TypeDefinitionRequest.type, positionParams(request, ctx), requestOptions(ctx)),
      ),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'typeDefinition'>

export const declaration = {
  scope: 'document',
  retryWhenEmpty: true,
  source: {
    enabledBy: [{ capability: 'declarationProvider', method: DeclarationRequest.method }],
    client: { textDocument: { declaration: { dynamicRegistration: true, linkSupport: true } } },
    run: async (request, ctx) => ({
      kind: 'locations',
      locations: ctx.translator.locations(
        await ctx.server.request(DeclarationRequest.type, positionParams(request, ctx), requestOptions(ctx)),
      ),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'declaration'>

export const implementation = {
  whenMissing: 'derived',
  scope: 'everyProject',
  retryWhenEmpty: true,
  source: {
    enabledBy: [{ capability: 'implementationProvider', method: ImplementationRequest.method }],
    client: { textDocument: { implementation: { dynamicRegistration: true, linkSupport: true } } },
    run: async (request, ctx) => ({
      kind: 'locations',
      locations: ctx.translator.locations(
        await ctx.server.request(ImplementationRequest.type, positionParams(request, ctx), requestOptions(ctx)),
      ),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'implementation'>

export const references = {
  scope: 'everyProject',
  retryWhenEmpty: true,
  source: {
    enabledBy: [{ capability: 'referencesProvider', method: ReferencesRequest.method }],
    client: { textDocument: { references: { dynamicRegistration: true } } },
    // The seam's references always include the declaration.
    run: async (request, ctx) => ({
      kind: 'locations',
      locations: ctx.translator.locations(
        await ctx.server.request(
          ReferencesRequest.type,
          { ...positionParams(request, ctx), context: { includeDeclaration: true } },
          requestOptions(ctx),
        ),
      ),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'references'>
