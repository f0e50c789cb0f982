import {
  comparePositions,
  documentSymbolsFor,
  LspError,
  pathToUri,
  rangesOverlap,
  toLspError,
  type LspService,
  type LspDocumentSnapshot,
  type LspRange,
  type LspTextEdit,
  type LspWorkspaceEdit,
  type ResolvedTarget,
} from '@codeseam/lsp'
import {
  defineTool,
  PositiveInt,
  ResolvedTargetOutput,
  TargetInput,
  targetOutput,
  type ToolContext,
  type ToolDefinition,
} from '@codeseam/tool-lsp'
import { Schema } from 'effect'

import { planInsert, planReplace, type PlannedEdit } from '../symbol-edits.js'
import type { ComputedChange, MutationSession } from '../transaction.js'
import { receiptOrThrow, receiptSummary, receiptText, resolveAllowedFile, resolveExact } from './common.js'
import { DryRunInput, ExpectedHashesInput, expectedHashesOf, ReceiptOutput } from './schemas.js'

/**
 * `code_insert`, `code_replace` and `code_replace_batch`: text edits aimed by symbol or line instead of by
 * exact old text, with the declaration span rules of symbol-range.ts, through the transaction engine.
 */

const TextInput = Schema.String.annotate({
  description: 'The code to write, with its own line breaks. Text written flush left is indented to match the target.',
})

const EditOutput = Schema.Struct({
  receipt: ReceiptOutput,
  targets: Schema.Array(ResolvedTargetOutput),
})

type EditOutput = typeof EditOutput.Type

function hints() {
  return { readOnly: false, destructive: true, idempotent: false, openWorld: false } as const
}

/** Whether a range is an insertion point (no text replaced). */
function isEmpty(range: LspRange): boolean {
  return comparePositions(range.start, range.end) === 0
}

/** Groups planned edits per file into one workspace edit; overlapping edits are refused. */
function combine(plans: ReadonlyArray<{ resolved: ResolvedTarget; plan: PlannedEdit; index: number }>): ComputedChange {
  const byFile = new Map<string, { document: LspDocumentSnapshot; edits: { edit: LspTextEdit; index: number }[] }>()
  for (const { resolved, plan, index } of plans) {
    let entry = byFile.get(resolved.path)
    if (entry === undefined) {
      entry = { document: resolved.document, edits: [] }
      byFile.set(resolved.path, entry)
    } else if (entry.document.hash !== resolved.document.hash) {
      throw new LspError(
        'STALE_VERSION',
        `${resolved.displayPath} changed while the targets were resolved; nothing was written; run it again`,
      )
    }
    for (const other of entry.edits) {
      const a = other.edit.range
      const b = plan.edit.range
      // Stricter than the seam's overlap: an insert where another edit starts has no order a reader could
      // predict, so two edits starting at one point are refused unless both are inserts.
      const samePoint = comparePositions(a.start, b.start) === 0
      if (rangesOverlap(a, b) || (samePoint && !(isEmpty(a) && isEmpty(b)))) {
        throw new LspError(
          'INVALID_ARGUMENT',
          `edits ${other.index + 1} and ${index + 1} overlap in ${resolved.displayPath} (lines ${a.start.line + 1}–${a.end.line + 1} and ${b.start.line + 1}–${b.end.line + 1}); nothing was written`,
          {
            data: { path: resolved.displayPath, edits: [other.index + 1, index + 1] },
          },
        )
      }
    }
    entry.edits.push({ edit: plan.edit, index })
  }
  const edit: LspWorkspaceEdit = {
    operations: [...byFile].map(([path, entry]) => ({
      type: 'edit' as const,
      uri: pathToUri(path),
      path,
      version: entry.document.version ?? null,
      edits: entry.edits.map((e) => e.edit),
    })),
  }
  return {
    edit,
    basis: [...byFile.values()].map((e) => e.document),
    notes: plans.flatMap(({ plan, index }) => plan.notes.map((note) => (plans.length > 1 ? `edit ${index + 1}: ${note}` : note))),
  }
}

async function rootOf(context: ToolContext, targets: ReadonlyArray<typeof TargetInput.Type>): Promise<string> {
  const roots = new Set<string>()
  for (const target of targets) roots.add((await resolveAllowedFile(context, target.path, target.rootId)).workspace.root)
  if (roots.size > 1)
    throw new LspError(
      'INVALID_ARGUMENT',
      `one transaction changes one workspace; these targets are in ${roots.size} (${[...roots].join(', ')})`,
    )
  return [...roots][0]!
}

/** Symbols whose uses a line-range replacement may break: at most this many are looked up per target. */
const maxLineTargetSymbols = 20

/** Kinds whose nested symbols are locals (their uses stay inside the replaced range or the body). */
const bodyKinds: ReadonlySet<string> = new Set(['function', 'method', 'constructor'])

/**
 * The symbols a line-range replacement touches: those declared (their name) inside the replaced lines,
 * except locals of a function or method — a local's uses are inside its body.
 */
async function declaredIn(
  lsp: LspService,
  root: string,
  target: ResolvedTarget,
  range: LspRange,
  signal: AbortSignal,
): Promise<Array<{ name: string; position: LspRange['start'] }>> {
  const symbols = await documentSymbolsFor(lsp, root, target.document, signal)
  const inside = (r: LspRange) => r.start.line >= range.start.line && r.start.line <= range.end.line
  const isLocal = (symbol: (typeof symbols)[number]) =>
    symbols.some(
      (outer) =>
        outer !== symbol &&
        bodyKinds.has(outer.kind) &&
        comparePositions(outer.range.start, symbol.range.start) <= 0 &&
        comparePositions(symbol.range.end, outer.range.end) <= 0,
    )
  return symbols
    .filter((symbol) => inside(symbol.selectionRange) && !isLocal(symbol))
    .map((symbol) => ({ name: symbol.qualifiedName, position: symbol.selectionRange.start }))
}

/**
 * The files that use the replaced symbols (their references before the edit): a replacement that changes a
 * signature breaks callers in files it never touches, so their diagnostics are checked before and after. A
 * symbol target is its own symbol; a line target is every symbol declared in the replaced lines (RFC 0018).
 */
async function usesOf(
  lsp: LspService,
  root: string,
  targets: ReadonlyArray<{ readonly resolved: ResolvedTarget; readonly range: LspRange }>,
  signal: AbortSignal,
): Promise<{ paths: string[]; notes: string[] }> {
  const paths = new Set<string>()
  const notes: string[] = []
  for (const { resolved: target, range } of targets) {
    if (!lsp.operationsFor(target.path).includes('references')) continue
    let symbols: Array<{ name: string; position: LspRange['start'] }>
    try {
      symbols =
        target.symbol !== undefined
          ? [{ name: target.symbol.name, position: target.position }]
          : await declaredIn(lsp, root, target, range, signal)
    } catch (cause) {
      if (signal.aborted) throw cause
      const error = toLspError(cause, 'SERVER_ERROR', 'documentSymbols')
      notes.push(
        `the symbols declared in lines ${range.start.line + 1}–${range.end.line + 1} of ${target.displayPath} could not be listed (${error.code}: ${error.message}); only the edited file's diagnostics are checked`,
      )
      continue
    }
    if (symbols.length > maxLineTargetSymbols) {
      notes.push(
        `lines ${range.start.line + 1}–${range.end.line + 1} of ${target.displayPath} declare ${symbols.length} symbols; the uses of the first ${maxLineTargetSymbols} are checked`,
      )
      symbols = symbols.slice(0, maxLineTargetSymbols)
    }
    for (const symbol of symbols) {
      try {
        const answer = await lsp.query(
          { operation: 'references', root, path: target.path, position: symbol.position, document: target.document },
          signal,
        )
        for (const location of answer.locations) paths.add(location.path)
      } catch (cause) {
        if (signal.aborted) throw cause
        const error = toLspError(cause, 'SERVER_ERROR', 'references')
        notes.push(
          `the uses of ${symbol.name} could not be found (${error.code}: ${error.message}); only the edited file's diagnostics are checked`,
        )
      }
    }
  }
  return { paths: [...paths], notes }
}

/**
 * One edit tool's transaction: every target is resolved before any edit is planned (so all plans see the
 * same file contents), the plans are combined into one workspace edit, and the resolved targets reported.
 */
async function runEdits(
  session: MutationSession,
  context: ToolContext,
  request: {
    readonly tool: string
    readonly summary: string
    readonly targets: ReadonlyArray<typeof TargetInput.Type>
    readonly dryRun?: boolean | undefined
    readonly expectedHashes?: typeof ExpectedHashesInput.Type | undefined
    readonly plan: (resolved: ResolvedTarget, index: number) => PlannedEdit
    /** Replacing a symbol may change what its users see: check the files that use it too (RFC 0018). */
    readonly impact?: boolean
  },
): Promise<EditOutput> {
  const root = await rootOf(context, request.targets)
  const targets: EditOutput['targets'][number][] = []
  const receipt = await session.run(
    context.lsp,
    {
      tool: request.tool,
      root,
      ...(request.dryRun === undefined ? {} : { dryRun: request.dryRun }),
      ...(request.expectedHashes === undefined ? {} : { expectedHashes: expectedHashesOf(request.expectedHashes)! }),
      summary: request.summary,
      async compute({ lsp, signal }) {
        const resolvedAll: ResolvedTarget[] = []
        for (const target of request.targets) resolvedAll.push(await resolveExact(context, target, signal))
        targets.push(...resolvedAll.map((resolved) => targetOutput(resolved)))
        const plans = resolvedAll.map((resolved, index) => ({ resolved, plan: request.plan(resolved, index), index }))
        const change = combine(plans)
        if (request.impact !== true) return change
        const impact = await usesOf(
          lsp,
          root,
          plans.map(({ resolved, plan }) => ({ resolved, range: plan.edit.range })),
          signal,
        )
        return { ...change, impact: impact.paths, notes: [...(change.notes ?? []), ...impact.notes] }
      },
    },
    context.signal,
  )
  return { receipt: receiptOrThrow(receipt, context), targets }
}

const InsertInput = Schema.Struct({
  target: TargetInput,
  position: Schema.Literals(['before', 'after', 'start', 'end']).annotate({
    description:
      "before/after: new lines above the declaration (above its doc comment and decorators) or below it, keeping the blank-line spacing around it. start/end: first or last lines inside a symbol's body (after a Python docstring).",
  }),
  text: TextInput,
  dryRun: DryRunInput,
  expectedHashes: ExpectedHashesInput,
})

/** `code_insert`: inserts code relative to a symbol or line. */
export function codeInsertTool(session: MutationSession): ToolDefinition<typeof InsertInput.Type, EditOutput> {
  return defineTool({
    name: 'code_insert',
    title: 'Insert code',
    description: [
      'Insert code next to or inside a declaration found by name, without quoting the surrounding text: add a method at the end of a class, an import-free helper after a function, a field at the start of a class.',
      'Aim with target {path, symbol} (dotted for members) or {path, line}. Doc comments, decorators and blank-line spacing stay attached to the right declaration.',
      'Returns a receipt with the diff, new content hashes and the diagnostics the edit introduced. dryRun previews without writing.',
    ].join(' '),
    input: InsertInput,
    output: EditOutput,
    hints: hints(),
    execute: (input, context) =>
      runEdits(session, context, {
        tool: 'code_insert',
        summary: `insert ${input.position} ${input.target.symbol ?? `line ${input.target.line}`} in ${input.target.path}`,
        targets: [input.target],
        dryRun: input.dryRun,
        expectedHashes: input.expectedHashes,
        plan: (resolved) => planInsert(resolved, input.position, input.text),
      }),
    summary: (result) => receiptSummary(result.receipt),
    render: (result) => receiptText(result.receipt),
  })
}

const EndLineInput = Schema.optional(PositiveInt).annotate({
  description:
    'With a line target: the last line (inclusive) to replace. Not used with a symbol target, which spans its whole declaration.',
})

const ReplaceInput = Schema.Struct({
  target: TargetInput,
  text: TextInput,
  endLine: EndLineInput,
  dryRun: DryRunInput,
  expectedHashes: ExpectedHashesInput,
})

const replaceRule =
  'A symbol target replaces the whole declaration from its first modifier (export, async, def…) to its end; its doc comment and decorators are kept unless text starts with a doc comment (replaces both) or a decorator (replaces the decorators).'

/** `code_replace`: replaces a declaration or a line range. */
export function codeReplaceTool(session: MutationSession): ToolDefinition<typeof ReplaceInput.Type, EditOutput> {
  return defineTool({
    name: 'code_replace',
    title: 'Replace code',
    description: [
      'Replace a declaration found by name (or lines line..endLine) with new code, without quoting the old text.',
      replaceRule,
      'Returns a receipt with the diff, new content hashes and the diagnostics the edit introduced or resolved. dryRun previews without writing.',
    ].join(' '),
    input: ReplaceInput,
    output: EditOutput,
    hints: hints(),
    execute: (input, context) =>
      runEdits(session, context, {
        tool: 'code_replace',
        impact: true,
        summary: `replace ${input.target.symbol ?? `line ${input.target.line}`} in ${input.target.path}`,
        targets: [input.target],
        dryRun: input.dryRun,
        expectedHashes: input.expectedHashes,
        plan: (resolved) => planReplace(resolved, input.text, input.endLine),
      }),
    summary: (result) => receiptSummary(result.receipt),
    render: (result) => receiptText(result.receipt),
  })
}

const BatchInput = Schema.Struct({
  edits: Schema.Array(Schema.Struct({ target: TargetInput, text: TextInput, endLine: EndLineInput }))
    .check(Schema.isMinLength(1))
    .annotate({
      description: 'Replacements to make together; every target is resolved first, overlaps are refused, and all are written or none.',
    }),
  dryRun: DryRunInput,
  expectedHashes: ExpectedHashesInput,
})

/** `code_replace_batch`: several replacements as one atomic edit. */
export function codeReplaceBatchTool(session: MutationSession): ToolDefinition<typeof BatchInput.Type, EditOutput> {
  return defineTool({
    name: 'code_replace_batch',
    title: 'Replace code (batch)',
    description: [
      'Replace several declarations or line ranges at once, in one or more files of one workspace, as one all-or-nothing change.',
      'Every target is resolved against the same file contents before anything changes; overlapping targets are refused.',
      replaceRule,
      'Returns one receipt. dryRun previews without writing.',
    ].join(' '),
    input: BatchInput,
    output: EditOutput,
    hints: hints(),
    execute: (input, context) =>
      runEdits(session, context, {
        tool: 'code_replace_batch',
        impact: true,
        summary: `replace ${input.edits.length} targets`,
        targets: input.edits.map((e) => e.target),
        dryRun: input.dryRun,
        expectedHashes: input.expectedHashes,
        plan: (resolved, index) => planReplace(resolved, input.edits[index]!.text, input.edits[index]!.endLine),
      }),
    summary: (result) => receiptSummary(result.receipt),
    render: (result) => receiptText(result.receipt),
  })
}
