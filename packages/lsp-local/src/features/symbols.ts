import { DocumentSymbolRequest, SymbolKind, WorkspaceSymbolRequest } from 'vscode-languageserver-protocol/node'

import { requestOptions } from './context.js'
import type { Feature } from './feature.js'

const allSymbolKinds = Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind)

export const documentSymbols = {
  scope: 'document',
  retryWhenEmpty: true,
  source: {
    enabledBy: [{ capability: 'documentSymbolProvider', method: DocumentSymbolRequest.method }],
    client: {
      textDocument: {
        documentSymbol: { dynamicRegistration: true, hierarchicalDocumentSymbolSupport: true, symbolKind: { valueSet: allSymbolKinds } },
      },
    },
    run: async (_request, ctx) => ({
      kind: 'documentSymbols',
      symbols: ctx.translator.documentSymbols(
        await ctx.server.request(DocumentSymbolRequest.type, { textDocument: { uri: ctx.document.uri } }, requestOptions(ctx)),
      ),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'documentSymbols'>

export const workspaceSymbols = {
  scope: 'everyProject',
  // Retried by the provider's fan-out, per server, once that server has analysed an open document.
  retryWhenEmpty: true,
  source: {
    enabledBy: [{ capability: 'workspaceSymbolProvider', method: WorkspaceSymbolRequest.method }],
    client: { workspace: { symbol: { dynamicRegistration: true, symbolKind: { valueSet: allSymbolKinds } } } },
    run: { byProvider: 'asks every server the root needs and merges their answers (ProfileProvider.workspaceSymbols)' },
  },
} satisfies Feature<'workspaceSymbols'>
