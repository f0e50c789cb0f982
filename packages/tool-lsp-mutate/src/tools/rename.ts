import { isLspError, LspError, validateIdentifier, type LspSymbolKind } from '@codeseam/lsp'
import { defineTool, noticeFor, ResolvedTargetOutput, TargetInput, targetOutput, type ToolDefinition } from '@codeseam/tool-lsp'
import { Schema } from 'effect'

import { renameIntegrity } from '../integrity.js'
import type { MutationSession } from '../transaction.js'
import { receiptOrThrow, receiptSummary, receiptText, resolveAllowedFile, resolveExact } from './common.js'
import { DryRunInput, ExpectedHashesInput, expectedHashesOf, ReceiptOutput } from './schemas.js'

const RenameInput = Schema.Struct({
  target: TargetInput,
  newName: Schema.String.annotate({ description: 'The new identifier.' }),
  allowPartial: Schema.optional(Schema.Boolean).annotate({
    description:
      'true: write the rename even though it leaves some uses of the old name unchanged (they are listed). Without it such a rename is refused with INCOMPLETE_EDIT.',
  }),
  dryRun: DryRunInput,
  expectedHashes: ExpectedHashesInput,
})

const RenameOutput = Schema.Struct({
  target: Schema.optional(ResolvedTargetOutput),
  newName: Schema.String,
  receipt: ReceiptOutput,
})

type RenameOutput = typeof RenameOutput.Type

/** Symbol kinds that are members of a type (JavaScript lets them be named with a reserved word). */
const memberKinds: ReadonlySet<LspSymbolKind> = new Set(['method', 'property', 'field', 'enumMember', 'event', 'constructor'])

/** `code_rename`: a scope-aware rename across the workspace, with the server's preflight. */
export function codeRenameTool(session: MutationSession): ToolDefinition<typeof RenameInput.Type, RenameOutput> {
  return defineTool({
    name: 'code_rename',
    title: 'Rename symbol',
    description: [
      'Rename a symbol everywhere it is used, through the language server (scope-aware: no false hits in comments, strings or same-named symbols, unlike search-and-replace).',
      'Aim with target {path, symbol} (dotted for members) or {path, line, matchText} on the identifier.',
      'The server checks first whether the symbol can be renamed and its refusal reason is returned as is.',
      "newName must be an identifier of the file's language and not a keyword (INVALID_ARGUMENT otherwise, before any server is asked).",
      'Before writing, the edit is compared with every reference of the symbol: a rename that would leave a use unchanged is refused (INCOMPLETE_EDIT, each use named) unless allowPartial is true.',
      'Returns a receipt: files and edit counts, a unified diff, new content hashes, and the diagnostics the rename introduced or resolved in the touched files and in every file that used the symbol. dryRun previews without writing and predicts those diagnostics.',
    ].join(' '),
    input: RenameInput,
    output: RenameOutput,
    hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },

    async execute(input, context) {
      const newName = input.newName.trim()
      if (newName.length === 0 || newName !== input.newName) {
        throw new LspError('INVALID_ARGUMENT', 'newName must be a non-empty identifier without surrounding whitespace')
      }
      const file = await resolveAllowedFile(context, input.target.path, input.target.rootId)
      // The new name must be an identifier of the file's language, refused before any server is asked (RFC 0018).
      const owner = context.lsp.providerFor(file.path)
      const nameCheck =
        owner === undefined ? undefined : validateIdentifier(context.lsp.languageFacts(owner.languageId), owner.languageId, newName)
      let target: RenameOutput['target']
      const receipt = await session.run(
        context.lsp,
        {
          tool: 'code_rename',
          root: file.workspace.root,
          ...(input.dryRun === undefined ? {} : { dryRun: input.dryRun }),
          ...(input.expectedHashes === undefined ? {} : { expectedHashes: expectedHashesOf(input.expectedHashes)! }),
          summary: `rename ${input.target.symbol ?? input.target.matchText ?? `line ${input.target.line}`} in ${file.displayPath} to ${newName}`,
          async compute({ lsp, root, workspace, signal }) {
            const resolved = await resolveExact(context, input.target, signal)
            target = targetOutput(resolved)
            const notes: string[] = []
            if (owner !== undefined && resolved.symbol !== undefined) {
              // Now the symbol's kind is known: a reserved word is refused for a non-member even where members may use one.
              validateIdentifier(context.lsp.languageFacts(owner.languageId), owner.languageId, newName, {
                member: memberKinds.has(resolved.symbol.kind),
              })
            }
            if (nameCheck?.checked === false && nameCheck.note !== undefined) notes.push(nameCheck.note)
            let oldName: string | undefined
            try {
              const prepared = await lsp.query(
                { operation: 'prepareRename', root, path: resolved.path, position: resolved.position },
                signal,
              )
              if (!prepared.rename.canRename) {
                throw new LspError('INVALID_ARGUMENT', `the language server refuses to rename here: ${prepared.rename.reason}`, {
                  data: { reason: prepared.rename.reason },
                })
              }
              const { start, end } = prepared.rename.range
              oldName = resolved.lines.text.slice(resolved.lines.offsetAt(start), resolved.lines.offsetAt(end))
            } catch (error) {
              if (!isLspError(error, 'UNSUPPORTED_OPERATION')) throw error
              notes.push('the server has no rename preflight (prepareRename); renamed without it')
            }
            const result = await lsp.query({ operation: 'rename', root, path: resolved.path, position: resolved.position, newName }, signal)
            if (result.meta.contentHash !== undefined && result.meta.contentHash !== resolved.document.hash) {
              throw new LspError(
                'STALE_VERSION',
                `${resolved.displayPath} changed while the rename was computed; nothing was written; run it again`,
              )
            }
            if (result.edit.operations.length === 0) notes.push('the server returned no edits for this rename')
            // A rename is only as complete as the search behind it: say what the server did not search (or
            // that it was still indexing) before anyone applies it.
            const notice = noticeFor(result.meta, result.edit.operations.length === 0, 'uses to rename', resolved.rootId)
            if (notice !== undefined) notes.push(notice)
            oldName ??= identifierAt(resolved.lines.text, resolved.lines.offsetAt(resolved.position))
            const check = await renameIntegrity(
              lsp,
              workspace,
              {
                root,
                path: resolved.path,
                position: resolved.position,
                oldName,
                newName,
                edit: result.edit,
                allowPartial: input.allowPartial === true,
              },
              signal,
            )
            notes.push(...check.notes)
            return {
              edit: result.edit,
              basis: [resolved.document],
              notes,
              impact: check.impact,
              ...(check.integrity === undefined ? {} : { integrity: check.integrity }),
            }
          },
        },
        context.signal,
      )
      return { ...(target === undefined ? {} : { target }), newName, receipt: receiptOrThrow(receipt, context) }
    },
    summary: (result) => receiptSummary(result.receipt),
    render: (result) => receiptText(result.receipt),
  })
}

/** The identifier-like word around an offset (when the server gives no rename range). */
function identifierAt(text: string, offset: number): string {
  const isWord = (c: string | undefined) => c !== undefined && /[\p{ID_Continue}$#]/u.test(c)
  let start = offset
  let end = offset
  while (isWord(text[start - 1])) start -= 1
  while (isWord(text[end])) end += 1
  return text.slice(start, end)
}
