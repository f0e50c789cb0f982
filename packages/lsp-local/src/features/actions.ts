import { LspError } from '@codeseam/lsp'
import { CodeActionKind, CodeActionRequest, type CodeAction, type Command } from 'vscode-languageserver-protocol/node'

import { resolveAction } from './code-actions.js'
import { linesOf, requestOptions, versionOf } from './context.js'
import type { Feature } from './feature.js'

// Code actions are listed (codeActions) and run later by id (resolveCodeAction): the store in
// code-actions.ts binds each id to the document version it was listed for.

const enabledBy = [{ capability: 'codeActionProvider', method: CodeActionRequest.method }] as const
const client = {
  textDocument: {
    codeAction: {
      dynamicRegistration: true,
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: [
            CodeActionKind.Empty,
            CodeActionKind.QuickFix,
            CodeActionKind.Refactor,
            CodeActionKind.RefactorExtract,
            CodeActionKind.RefactorInline,
            CodeActionKind.RefactorRewrite,
            CodeActionKind.Source,
            CodeActionKind.SourceOrganizeImports,
            CodeActionKind.SourceFixAll,
          ],
        },
      },
      isPreferredSupport: true,
      disabledSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ['edit', 'command'] },
    },
  },
  // Resolving runs the action's command; the server applies its edits through workspace/applyEdit (captured).
  workspace: { executeCommand: { dynamicRegistration: true } },
}

export const codeActions = {
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    enabledBy,
    client,
    run: async (request, ctx) => {
      const { document, server } = ctx
      const lines = linesOf(document)
      lines.validate(request.range.start)
      lines.validate(request.range.end)
      // The server offers quick fixes only for the diagnostics it is handed.
      const diagnostics = (server.diagnostics.get(document.uri)?.diagnostics ?? []).filter(
        (d) => d.range.start.line <= request.range.end.line && d.range.end.line >= request.range.start.line,
      )
      const actions =
        (await server.request(
          CodeActionRequest.type,
          {
            textDocument: { uri: document.uri },
            range: request.range,
            context: { diagnostics: [...diagnostics], ...(request.only === undefined ? {} : { only: [...request.only] }) },
          },
          requestOptions(ctx),
        )) ?? []
      return {
        kind: 'codeActions',
        actions: actions.map((a, index) =>
          ctx.actions.add(a, document.path, document.version, document.hash, sameTitledBefore(actions, index)),
        ),
        meta: ctx.meta(),
      }
    },
  },
} satisfies Feature<'codeActions'>

export const resolveCodeAction = {
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    enabledBy,
    client,
    run: async (request, ctx) => {
      const { document } = ctx
      const stored = ctx.actions.get(request.actionId)
      if (stored.path !== document.path)
        throw new LspError('INVALID_ARGUMENT', `code action ${request.actionId} belongs to ${stored.path}, not ${document.path}`)
      if (stored.hash !== document.hash) {
        throw new LspError(
          'STALE_VERSION',
          `${document.path} changed since its code actions were listed (version ${stored.version} → ${document.version}); list them again`,
        )
      }
      const resolved = await resolveAction(ctx.server, stored, ctx.translator, versionOf(ctx), requestOptions(ctx))
      return {
        kind: 'codeActionResolution',
        title: resolved.title,
        edit: resolved.edit,
        ...(resolved.command === undefined ? {} : { command: resolved.command }),
        meta: ctx.meta(),
      }
    },
  },
} satisfies Feature<'resolveCodeAction'>

/** How many actions before `index` have its title and kind (so two identical titles get two ids). */
function sameTitledBefore(actions: ReadonlyArray<CodeAction | Command>, index: number): number {
  const kindOf = (a: CodeAction | Command) => (typeof (a as Command).command === 'string' ? 'command' : ((a as CodeAction).kind ?? ''))
  const at = actions[index]
  if (at === undefined) return 0
  return actions.slice(0, index).filter((a) => a.title === at.title && kindOf(a) === kindOf(at)).length
}
