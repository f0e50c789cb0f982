import { LspError, TextLines, type LspFormattingOptions } from '@codeseam/lsp'
import { defineTool, PositiveInt, type ToolDefinition } from '@codeseam/tool-lsp'
import { Schema } from 'effect'

import type { MutationSession } from '../transaction.js'
import { receiptOrThrow, receiptSummary, receiptText, resolveAllowedFile } from './common.js'
import { DryRunInput, ExpectedHashesInput, expectedHashesOf, ReceiptOutput } from './schemas.js'

const FormatInput = Schema.Struct({
  path: Schema.String.annotate({ description: 'File to format, relative to the workspace root.' }),
  rootId: Schema.optional(Schema.String).annotate({ description: 'Workspace id, when the path exists in several open workspaces.' }),
  range: Schema.optional(Schema.Struct({ startLine: PositiveInt, endLine: PositiveInt })).annotate({
    description: 'Format only these lines (1-based, inclusive); default the whole file.',
  }),
  dryRun: DryRunInput,
  expectedHashes: ExpectedHashesInput,
})

const FormatOutput = Schema.Struct({ receipt: ReceiptOutput })

/** Indentation the file already uses, sent as the formatting options (tabs, or the smallest space indent). */
export function formattingOptionsFor(text: string): LspFormattingOptions {
  // Block-comment continuation lines (` * text`) are aligned, not indented: leave them out.
  const indents = text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('*'))
    .map((l) => /^[ \t]*/.exec(l)?.[0] ?? '')
    .filter((i) => i.length > 0)
  if (indents.some((i) => i.startsWith('\t'))) return { tabSize: 4, insertSpaces: false }
  const spaces = indents.map((i) => i.length).filter((n) => n > 0)
  const smallest = spaces.length === 0 ? 4 : Math.min(...spaces)
  return { tabSize: smallest >= 2 && smallest <= 8 ? smallest : 4, insertSpaces: true }
}

/** `code_format`: the language server's formatter on a file or a line range. */
export function codeFormatTool(session: MutationSession): ToolDefinition<typeof FormatInput.Type, typeof FormatOutput.Type> {
  return defineTool({
    name: 'code_format',
    title: 'Format code',
    description: [
      "Format a file (or a range of lines) with the language server's own formatter, keeping the file's indentation style, instead of fixing whitespace by hand.",
      'Returns a receipt with the diff (status "unchanged" when it was already formatted). dryRun previews without writing.',
    ].join(' '),
    input: FormatInput,
    output: FormatOutput,
    hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
    async execute(input, context) {
      const file = await resolveAllowedFile(context, input.path, input.rootId)
      const receipt = await session.run(
        context.lsp,
        {
          tool: 'code_format',
          root: file.workspace.root,
          ...(input.dryRun === undefined ? {} : { dryRun: input.dryRun }),
          ...(input.expectedHashes === undefined ? {} : { expectedHashes: expectedHashesOf(input.expectedHashes)! }),
          summary: `format ${file.displayPath}${input.range === undefined ? '' : ` lines ${input.range.startLine}–${input.range.endLine}`}`,
          async compute({ lsp, root, workspace, signal }) {
            const document = await workspace.readFile(file.path, signal)
            const lines = new TextLines(document.text)
            let range
            if (input.range !== undefined) {
              const { startLine, endLine } = input.range
              if (endLine < startLine || endLine > lines.lineCount) {
                throw new LspError(
                  'INVALID_ARGUMENT',
                  `range lines ${startLine}–${endLine} are not within ${file.displayPath} (1–${lines.lineCount})`,
                )
              }
              range = { start: { line: startLine - 1, character: 0 }, end: { line: endLine - 1, character: lines.lineLength(endLine - 1) } }
            }
            const result = await lsp.query(
              {
                operation: 'format',
                root,
                path: file.path,
                options: formattingOptionsFor(document.text),
                ...(range === undefined ? {} : { range }),
              },
              signal,
            )
            if (result.meta.contentHash !== undefined && result.meta.contentHash !== document.hash) {
              throw new LspError('STALE_VERSION', `${file.displayPath} changed while it was formatted; nothing was written; run it again`)
            }
            return { edit: result.edit, basis: [document] }
          },
        },
        context.signal,
      )
      return { receipt: receiptOrThrow(receipt, context) }
    },
    summary: (result) => receiptSummary(result.receipt),
    render: (result) => receiptText(result.receipt),
  })
}
