import { comparePositions, TextLines, toModelPosition, type LspInlayHint } from '@codeseam/lsp'
import { Schema } from 'effect'

import { clampLimit, paginate, queryFingerprint } from './budget.js'
import { defineTool } from './definition.js'
import { at, lines, plural, renderNotice, renderPage, renderReadiness } from './render.js'
import { PageOutput, PositiveInt, ReadinessOutput } from './schemas.js'
import { snippetLine, sourceReader } from './sources.js'
import { joinNotices, noticeFor, readinessOf, requireProvider, resolveToolFile } from './targeting.js'

/** Limits of `code_inlay_hints`. */
export const inlayHintLimits = { defaultLimit: 200, maxLimit: 1000 } as const

const InlayHintsInput = Schema.Struct({
  path: Schema.String.annotate({ description: 'File path relative to the workspace root.' }),
  rootId: Schema.optional(Schema.String).annotate({ description: 'Workspace id, when the path exists in several open workspaces.' }),
  range: Schema.optional(
    Schema.Struct({
      startLine: PositiveInt.annotate({ description: 'First line (1-based).' }),
      endLine: PositiveInt.annotate({ description: 'Last line (1-based, inclusive).' }),
    }),
  ).annotate({ description: 'Only hints on these lines (default: the whole file).' }),
  limit: Schema.optional(PositiveInt).annotate({ description: 'Hints per page (default 200, max 1000).' }),
  cursor: Schema.optional(Schema.String).annotate({ description: 'nextCursor from a previous result with the same arguments.' }),
})

const HintOutput = Schema.Struct({
  line: PositiveInt,
  column: PositiveInt,
  /** type: an inferred type (": number"); parameter: the parameter name at a call argument ("timeout:"). */
  kind: Schema.optional(Schema.Literals(['type', 'parameter'])),
  label: Schema.String,
  /** The source line with the hint inserted where an editor shows it. */
  rendered: Schema.String,
})

const InlayHintsOutput = Schema.Struct({
  path: Schema.String,
  range: Schema.optional(Schema.Struct({ startLine: PositiveInt, endLine: PositiveInt })),
  hints: Schema.Array(HintOutput),
  page: PageOutput,
  readiness: ReadinessOutput,
  notice: Schema.optional(Schema.String),
})

/** The decoded result of `code_inlay_hints`. */
export type InlayHintsResult = typeof InlayHintsOutput.Type

function labelOf(hint: LspInlayHint): string {
  return typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join('')
}

/** `code_inlay_hints`: inferred types and parameter names in a file or a line range. */
export const codeInlayHints = defineTool({
  name: 'code_inlay_hints',
  title: 'Inlay hints',
  description: [
    'The inferred types of variables and return values, and the parameter names at call arguments, in a file or line range: what an editor shows inline.',
    'Use it to understand untyped or inferred code (what does this const hold? which argument is which?) without hovering symbol by symbol.',
    'Each hint comes with its line rendered with the hint inserted.',
  ].join(' '),
  input: InlayHintsInput,
  output: InlayHintsOutput,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },

  async execute(input, context) {
    const file = await resolveToolFile(context, input.path, input.rootId)
    requireProvider(context, file.path, file.displayPath)
    const reader = sourceReader(context, file.workspace.root)
    const source = await reader.read(file.path)
    const lineCount = source?.lines.lineCount ?? 0
    let range: { startLine: number; endLine: number } | undefined
    if (input.range !== undefined) {
      const startLine = Math.min(input.range.startLine, lineCount)
      const endLine = Math.min(Math.max(input.range.endLine, startLine), lineCount)
      range = { startLine, endLine }
    }
    const result = await context.lsp.query(
      {
        operation: 'inlayHints',
        root: file.workspace.root,
        path: file.path,
        ...(range === undefined || source === undefined
          ? {}
          : {
              range: {
                start: { line: range.startLine - 1, character: 0 },
                end: { line: range.endLine - 1, character: source.lines.lineLength(range.endLine - 1) },
              },
            }),
      },
      context.signal,
    )
    const hints = [...result.hints]
      .filter((h) => range === undefined || (h.position.line >= range.startLine - 1 && h.position.line <= range.endLine - 1))
      .sort((a, b) => comparePositions(a.position, b.position))
    const fingerprint = queryFingerprint([
      'code_inlay_hints',
      file.workspace.id,
      file.displayPath,
      range ?? null,
      source?.document.hash ?? null,
    ])
    const { items, page } = paginate(hints, { limit: clampLimit(input.limit, inlayHintLimits), cursor: input.cursor, fingerprint })
    const notice = joinNotices(noticeFor(result.meta, hints.length === 0, 'hints', file.workspace.id), reader.unreadableNotice())
    return {
      path: file.displayPath,
      ...(range === undefined ? {} : { range }),
      hints: items.map((hint) => {
        const position = toModelPosition(hint.position)
        const label = labelOf(hint)
        let rendered = ''
        if (source !== undefined && hint.position.line < source.lines.lineCount) {
          const text = source.lines.lineText(hint.position.line)
          const shownLabel = `${hint.paddingLeft === true ? ' ' : ''}${label}${hint.paddingRight === true ? ' ' : ''}`
          const withHint = `${text.slice(0, hint.position.character)}⟨${shownLabel}⟩${text.slice(hint.position.character)}`
          rendered = snippetLine(new TextLines(withHint), 0, hint.position.character)
        }
        return { line: position.line, column: position.column, ...(hint.kind === undefined ? {} : { kind: hint.kind }), label, rendered }
      }),
      page,
      readiness: readinessOf(result.meta),
      ...(notice === undefined ? {} : { notice }),
    }
  },

  summary(result) {
    return `${plural(result.page.total, 'hint')} in ${result.path}`
  },

  render(result) {
    return lines(
      `inlay hints in ${result.path}${result.range === undefined ? '' : ` lines ${result.range.startLine}-${result.range.endLine}`}: ${result.page.total}`,
      renderReadiness(result.readiness),
      renderNotice(result.notice),
      result.hints.map((h) => `  ${at(result.path, h.line, h.column)} ${h.kind ?? 'hint'} ${JSON.stringify(h.label)}  ${h.rendered}`),
      renderPage(result.page, 'hints'),
    )
  },
})
