import { isLspError, LspError, TextLines, type LspCodeAction, type LspWorkspaceEdit } from '@codeseam/lsp'
import { defineTool, PositiveInt, type ToolDefinition } from '@codeseam/tool-lsp'
import { Schema } from 'effect'

import type { MutationSession } from '../transaction.js'
import { receiptOrThrow, receiptSummary, receiptText, resolveAllowedFile } from './common.js'
import { DryRunInput, ExpectedHashesInput, expectedHashesOf, ReceiptOutput } from './schemas.js'

const ActionsInput = Schema.Struct({
  path: Schema.String.annotate({ description: 'File, relative to the workspace root.' }),
  rootId: Schema.optional(Schema.String).annotate({ description: 'Workspace id, when the path exists in several open workspaces.' }),
  line: PositiveInt.annotate({ description: '1-based line to get actions for (e.g. the line of a diagnostic).' }),
  endLine: Schema.optional(PositiveInt).annotate({ description: 'Last line (inclusive) of the range; default line.' }),
  only: Schema.optional(Schema.Array(Schema.String)).annotate({
    description: 'Kinds to keep, by prefix: e.g. ["quickfix"], ["source.organizeImports"], ["refactor.extract"].',
  }),
  apply: Schema.optional(Schema.String).annotate({
    description:
      'Run one action: its id from a previous listing (preferred) or its exact, unique title. Prefixes are not accepted. Omit to list.',
  }),
  dryRun: DryRunInput,
  expectedHashes: ExpectedHashesInput,
})

const ActionOutput = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  kind: Schema.optional(Schema.String),
  preferred: Schema.Boolean,
  disabledReason: Schema.optional(Schema.String),
  hasEdit: Schema.Boolean,
  hasCommand: Schema.Boolean,
})

const ActionsOutput = Schema.Struct({
  path: Schema.String,
  actions: Schema.optional(Schema.Array(ActionOutput)),
  applied: Schema.optional(ActionOutput),
  receipt: Schema.optional(ReceiptOutput),
})

type ActionsOutput = typeof ActionsOutput.Type

function describe(action: LspCodeAction): ActionsOutput['actions'] extends ReadonlyArray<infer A> | undefined ? A : never {
  return {
    id: action.id,
    title: action.title,
    ...(action.kind === undefined ? {} : { kind: action.kind }),
    preferred: action.isPreferred === true,
    ...(action.disabledReason === undefined ? {} : { disabledReason: action.disabledReason }),
    hasEdit: action.hasEdit,
    hasCommand: action.hasCommand,
  }
}

/** Picks an action by id, else by exact unique title; a prefix or near miss is refused with the list. */
export function pickAction(actions: ReadonlyArray<LspCodeAction>, wanted: string): LspCodeAction {
  const byId = actions.find((a) => a.id === wanted)
  const chosen =
    byId ??
    (() => {
      const exact = actions.filter((a) => a.title === wanted)
      if (exact.length > 1) {
        throw new LspError('AMBIGUOUS', `${exact.length} actions are titled "${wanted}": apply one by its id`, {
          data: { candidates: exact.map((a) => ({ label: `${a.id}: ${a.title}`, id: a.id, kind: a.kind })) },
        })
      }
      return exact[0]
    })()
  if (chosen === undefined) {
    const prefixed = actions.filter((a) => a.title.startsWith(wanted) || a.title.toLowerCase() === wanted.toLowerCase())
    throw new LspError(
      'NOT_FOUND',
      `no action here has the id or exact title "${wanted}"${prefixed.length > 0 ? ' (titles must match exactly; prefixes and case variants are not accepted)' : ''}; available: ${actions.map((a) => `"${a.title}" (${a.id})`).join(', ') || 'none'}`,
      { data: { nearest: actions.map((a) => a.title) } },
    )
  }
  if (chosen.disabledReason !== undefined) {
    throw new LspError('INVALID_ARGUMENT', `the action "${chosen.title}" is disabled: ${chosen.disabledReason}`, {
      data: { reason: chosen.disabledReason },
    })
  }
  return chosen
}

function merge(edits: ReadonlyArray<LspWorkspaceEdit>): LspWorkspaceEdit {
  const annotations = Object.assign({}, ...edits.map((e) => e.annotations ?? {})) as NonNullable<LspWorkspaceEdit['annotations']>
  return { operations: edits.flatMap((e) => e.operations), ...(Object.keys(annotations).length === 0 ? {} : { annotations }) }
}

/** `code_actions`: the language's quick-fixes, refactors and source actions; list, then apply one. */
export function codeActionsTool(session: MutationSession): ToolDefinition<typeof ActionsInput.Type, ActionsOutput> {
  return defineTool({
    name: 'code_actions',
    title: 'Code actions',
    description: [
      "List or apply the language server's own quick-fixes, refactorings and source actions (organize imports, add missing import, fix spelling, extract function) for a line or range.",
      'Call without apply to list actions (id, title, kind, preferred, disabled reason); call again with apply set to an id (or exact title) to run it.',
      'Applying returns a receipt with the diff and the diagnostics it resolved or introduced; actions that run a server command need explicit approval because their full effect cannot be previewed. dryRun previews without writing.',
    ].join(' '),
    input: ActionsInput,
    output: ActionsOutput,
    hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
    async execute(input, context) {
      const file = await resolveAllowedFile(context, input.path, input.rootId)
      const list = async (signal: AbortSignal, only: ReadonlyArray<string> | undefined = input.only) => {
        const document = await file.workspace.readFile(file.path, signal)
        const lines = new TextLines(document.text)
        const endLine = input.endLine ?? input.line
        if (input.line > lines.lineCount || endLine < input.line || endLine > lines.lineCount) {
          throw new LspError('INVALID_ARGUMENT', `lines ${input.line}–${endLine} are not within ${file.displayPath} (1–${lines.lineCount})`)
        }
        const range = {
          start: { line: input.line - 1, character: 0 },
          end: { line: endLine - 1, character: lines.lineLength(endLine - 1) },
        }
        const result = await context.lsp.query(
          {
            operation: 'codeActions',
            root: file.workspace.root,
            path: file.path,
            range,
            ...(only === undefined ? {} : { only }),
          },
          signal,
        )
        return { document, actions: result.actions }
      }
      if (input.apply === undefined) {
        const { actions } = await list(context.signal)
        return { path: file.displayPath, actions: actions.map(describe) }
      }
      const wanted = input.apply
      let applied: LspCodeAction | undefined
      const receipt = await session.run(
        context.lsp,
        {
          tool: 'code_actions',
          root: file.workspace.root,
          ...(input.dryRun === undefined ? {} : { dryRun: input.dryRun }),
          ...(input.expectedHashes === undefined ? {} : { expectedHashes: expectedHashesOf(input.expectedHashes)! }),
          summary: `code action "${wanted}" in ${file.displayPath}`,
          async compute({ lsp, root, signal }) {
            let { document, actions } = await list(signal)
            // Source actions (organize imports, fix all) are offered only when asked for by kind: a title or id
            // not among the line's actions is looked for among them too.
            if (input.only === undefined && !actions.some((a) => a.id === wanted || a.title === wanted)) {
              const source = await list(signal, ['source'])
              if (source.actions.some((a) => a.id === wanted || a.title === wanted)) ({ document, actions } = source)
            }
            // Ids are derived from the action and the document's content, so one listed by another process is found
            // again here; an id that is not listed goes to the provider, which knows whether it is still valid for
            // this document version (and refuses disabled actions).
            const listed = actions.some((a) => a.id === wanted || a.title === wanted)
            let resolution
            if (listed) {
              const action = pickAction(actions, wanted)
              applied = action
              resolution = await lsp.query({ operation: 'resolveCodeAction', root, path: file.path, actionId: action.id }, signal)
            } else {
              try {
                resolution = await lsp.query({ operation: 'resolveCodeAction', root, path: file.path, actionId: wanted }, signal)
              } catch (error) {
                if (!isLspError(error, 'NOT_FOUND')) throw error
                pickAction(actions, wanted)
                throw error
              }
              const title = resolution.title
              const same = actions.find((a) => a.title === title)
              applied =
                same === undefined
                  ? { id: wanted, title, hasEdit: resolution.edit.operations.length > 0, hasCommand: resolution.command !== undefined }
                  : { ...same, id: wanted }
            }
            const command = resolution.command
            const edit = merge([resolution.edit, ...(command?.appliedEdits ?? [])])
            return {
              edit,
              basis: [document],
              ...(command === undefined
                ? {}
                : {
                    command: {
                      title: command.title,
                      command: command.command,
                      ...(command.result === undefined ? {} : { result: command.result }),
                    },
                    unpreviewable: [
                      `the action ran the server command "${command.title}" (${command.command}); the edits it asked for are shown, anything else it did cannot be previewed`,
                    ],
                  }),
            }
          },
        },
        context.signal,
      )
      return {
        path: file.displayPath,
        ...(applied === undefined ? {} : { applied: describe(applied) }),
        receipt: receiptOrThrow(receipt, context),
      }
    },
    summary: (result) => (result.receipt !== undefined ? receiptSummary(result.receipt) : `${result.actions?.length ?? 0} actions`),
    render: (result) => {
      if (result.receipt !== undefined) {
        // What happened to the action: a dry run only previewed it, a refused one did nothing.
        const status = result.receipt.status
        const verb = status === 'applied' ? 'applied' : status === 'previewed' ? 'previewed (not applied)' : status
        return `${result.applied === undefined ? '' : `${verb} "${result.applied.title}"\n`}${receiptText(result.receipt)}`
      }
      const actions = result.actions ?? []
      if (actions.length === 0) return `no code actions for ${result.path} here`
      return [
        `${actions.length} code actions for ${result.path} (apply by id):`,
        ...actions.map(
          (a) =>
            `- ${a.id}: ${a.title}${a.kind === undefined ? '' : ` [${a.kind}]`}${a.preferred ? ' (preferred)' : ''}${a.disabledReason === undefined ? '' : ` (disabled: ${a.disabledReason})`}${a.hasCommand ? ' (runs a command)' : ''}`,
        ),
      ].join('\n')
    },
  })
}
