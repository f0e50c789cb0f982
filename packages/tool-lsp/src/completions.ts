import { toModelPosition } from '@codeseam/lsp'
import { Schema } from 'effect'

import { clampLimit, paginate, queryFingerprint } from './budget.js'
import { defineTool } from './definition.js'
import { lines, plural, renderNotice, renderPage, renderReadiness, renderTarget } from './render.js'
import { FirstMatchInput, PageOutput, PositiveInt, ReadinessOutput, ResolvedTargetOutput, TargetInput } from './schemas.js'
import { noticeFor, readinessOf, resolveToolTarget, targetOutput } from './targeting.js'

/** Limits of `code_completions`. */
export const completionLimits = { defaultLimit: 50, maxLimit: 300 } as const

const CompletionsInput = Schema.Struct({
  target: TargetInput.annotate({
    description:
      'Where to complete. With line + matchText the position is the END of matchText: "config." lists the members of config. With symbol, it is the start of the name.',
  }),
  prefix: Schema.optional(Schema.String).annotate({ description: 'Keep only completions starting with this text (case-insensitive).' }),
  limit: Schema.optional(PositiveInt).annotate({ description: 'Completions per page (default 50, max 300).' }),
  cursor: Schema.optional(Schema.String).annotate({ description: 'nextCursor from a previous result with the same arguments.' }),
  firstMatch: FirstMatchInput,
})

const CompletionOutput = Schema.Struct({
  label: Schema.String,
  kind: Schema.optional(Schema.String),
  /** Type or signature, when the server gives one. */
  detail: Schema.optional(Schema.String),
})

const CompletionsOutput = Schema.Struct({
  target: ResolvedTargetOutput,
  items: Schema.Array(CompletionOutput),
  /** The server said the list is incomplete (typing more narrows it further). */
  incomplete: Schema.Boolean,
  page: PageOutput,
  readiness: ReadinessOutput,
  notice: Schema.optional(Schema.String),
})

/** The decoded result of `code_completions`. */
export type CompletionsResult = typeof CompletionsOutput.Type

/** `code_completions`: the members and names available at a position. */
export const codeCompletions = defineTool({
  name: 'code_completions',
  title: 'Completions',
  description: [
    'The members and names the language server offers at a position: the methods and properties of an object after "obj.", or the names in scope.',
    "Use it to find the exact name of an API member instead of guessing or reading the type's source; aim with line + matchText ending where you would type.",
  ].join(' '),
  input: CompletionsInput,
  output: CompletionsOutput,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },

  async execute(input, context) {
    const resolved = await resolveToolTarget(context, input.target, { firstMatch: input.firstMatch })
    // Completion happens where one would type: after matchText, not at its start.
    const position =
      resolved.resolvedBy === 'matchText' && input.target.matchText !== undefined
        ? { line: resolved.position.line, character: resolved.position.character + input.target.matchText.length }
        : resolved.position
    const lastChar = resolved.lines.lineText(position.line).charAt(position.character - 1)
    const result = await context.lsp.query(
      {
        operation: 'completion',
        root: resolved.root,
        path: resolved.path,
        position,
        document: resolved.document,
        ...(lastChar === '.' ? { triggerCharacter: '.' } : {}),
      },
      context.signal,
    )
    const prefix = input.prefix?.toLowerCase()
    const sorted = result.items
      .filter((item) => prefix === undefined || item.label.toLowerCase().startsWith(prefix))
      .map((item) => ({ item, key: item.sortText ?? item.label }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.item.label < b.item.label ? -1 : a.item.label > b.item.label ? 1 : 0))
      .map(({ item }) => item)
    const fingerprint = queryFingerprint([
      'code_completions',
      resolved.rootId,
      resolved.displayPath,
      position,
      input.prefix ?? null,
      resolved.document.hash,
    ])
    const { items, page } = paginate(sorted, { limit: clampLimit(input.limit, completionLimits), cursor: input.cursor, fingerprint })
    const notice = noticeFor(result.meta, sorted.length === 0, 'completions', resolved.rootId)
    const target = targetOutput(resolved)
    return {
      target: { ...target, ...toModelPosition(position) },
      items: items.map((item) => ({
        label: item.label,
        ...(item.kind === undefined ? {} : { kind: item.kind }),
        ...(item.detail === undefined || item.detail === '' ? {} : { detail: item.detail }),
      })),
      incomplete: result.isIncomplete,
      page,
      readiness: readinessOf(result.meta),
      ...(notice === undefined ? {} : { notice }),
    }
  },

  summary(result) {
    return `${plural(result.page.total, 'completion')}`
  },

  render(result) {
    return lines(
      renderTarget(result.target),
      `${plural(result.page.total, 'completion')}${result.incomplete ? ' (server list incomplete: add prefix to narrow)' : ''}`,
      renderReadiness(result.readiness),
      renderNotice(result.notice),
      result.items.map(
        (item) =>
          `  ${item.label}${item.kind === undefined ? '' : ` (${item.kind})`}${item.detail === undefined ? '' : `  ${item.detail}`}`,
      ),
      renderPage(result.page, 'completions'),
    )
  },
})
