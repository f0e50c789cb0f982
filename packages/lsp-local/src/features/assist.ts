import {
  CompletionRequest,
  HoverRequest,
  InlayHintRequest,
  InsertTextMode,
  MarkupKind,
  SignatureHelpRequest,
} from 'vscode-languageserver-protocol/node'

import { linesOf, positionParams, requestOptions } from './context.js'
import type { Feature } from './feature.js'

// What a reader sees at a place: hover, signature help, completion, inlay hints.

export const hover = {
  scope: 'document',
  retryWhenEmpty: true,
  source: {
    enabledBy: [{ capability: 'hoverProvider', method: HoverRequest.method }],
    client: { textDocument: { hover: { dynamicRegistration: true, contentFormat: [MarkupKind.Markdown, MarkupKind.PlainText] } } },
    run: async (request, ctx) => ({
      kind: 'hover',
      hover: ctx.translator.hover(await ctx.server.request(HoverRequest.type, positionParams(request, ctx), requestOptions(ctx))),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'hover'>

export const signatureHelp = {
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    enabledBy: [{ capability: 'signatureHelpProvider', method: SignatureHelpRequest.method }],
    client: {
      textDocument: {
        signatureHelp: {
          dynamicRegistration: true,
          signatureInformation: {
            documentationFormat: [MarkupKind.Markdown, MarkupKind.PlainText],
            parameterInformation: { labelOffsetSupport: true },
            activeParameterSupport: true,
          },
          contextSupport: true,
        },
      },
    },
    run: async (request, ctx) => ({
      kind: 'signatureHelp',
      signatureHelp: ctx.translator.signatureHelp(
        await ctx.server.request(SignatureHelpRequest.type, positionParams(request, ctx), requestOptions(ctx)),
      ),
      meta: ctx.meta(),
    }),
  },
} satisfies Feature<'signatureHelp'>

export const completion = {
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    enabledBy: [{ capability: 'completionProvider', method: CompletionRequest.method }],
    client: {
      textDocument: {
        completion: {
          dynamicRegistration: true,
          // Snippets would put placeholders into text a model reads as code.
          completionItem: {
            snippetSupport: false,
            documentationFormat: [MarkupKind.Markdown, MarkupKind.PlainText],
            insertTextModeSupport: { valueSet: [InsertTextMode.asIs] },
          },
          contextSupport: true,
        },
      },
    },
    run: async (request, ctx) => {
      const context =
        request.triggerCharacter === undefined
          ? { triggerKind: 1 as const }
          : { triggerKind: 2 as const, triggerCharacter: request.triggerCharacter }
      const { items, isIncomplete } = ctx.translator.completion(
        await ctx.server.request(CompletionRequest.type, { ...positionParams(request, ctx), context }, requestOptions(ctx)),
      )
      return { kind: 'completion', items, isIncomplete, meta: ctx.meta() }
    },
  },
} satisfies Feature<'completion'>

export const inlayHints = {
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    enabledBy: [{ capability: 'inlayHintProvider', method: InlayHintRequest.method }],
    client: { textDocument: { inlayHint: { dynamicRegistration: true } }, workspace: { inlayHint: { refreshSupport: true } } },
    run: async (request, ctx) => {
      const { document } = ctx
      const lines = linesOf(document)
      const range = request.range ?? { start: { line: 0, character: 0 }, end: lines.positionAt(document.text.length) }
      if (request.range !== undefined) {
        lines.validate(request.range.start)
        lines.validate(request.range.end)
      }
      return {
        kind: 'inlayHints',
        hints: ctx.translator.inlayHints(
          await ctx.server.request(InlayHintRequest.type, { textDocument: { uri: document.uri }, range }, requestOptions(ctx)),
        ),
        meta: ctx.meta(),
      }
    },
  },
} satisfies Feature<'inlayHints'>
