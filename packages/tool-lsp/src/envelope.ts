import {
  failSpan,
  inSpan,
  LspError,
  TelemetryAttr,
  TelemetrySpan,
  telemetryInstruments,
  textRelativizer,
  toLspError,
  type LspErrorCode,
  type LspErrorData,
  type TextRelativizer,
} from '@codeseam/lsp'

import { decodeToolInput, type AnyTool, type ToolContext } from './definition.js'

/**
 * The standard result envelope every harness adapter passes on: structured JSON (MCP structuredContent,
 * `--json`), a rendered text form within a character budget, and a one-line summary for UIs.
 */

/** Default character budget of the rendered text (~6k tokens). */
export const defaultMaxChars = 24_000

/** A successful call. */
export interface ToolSuccess {
  readonly ok: true
  readonly tool: string
  /** The tool's output as plain JSON (undefined fields dropped); validates against the exported output schema. */
  readonly structured: Record<string, unknown>
  /** The rendered text, never longer than the budget; a cut ends with an explicit marker. */
  readonly text: string
  readonly summary: string
  /** Whether `text` was cut to fit the budget. */
  readonly textTruncated: boolean
}

/** A failed call: the error a model reads and acts on (its message says what to do next). */
export interface ToolFailure {
  readonly ok: false
  readonly tool: string
  readonly error: { readonly code: LspErrorCode; readonly message: string; readonly data: LspErrorData }
  readonly text: string
  readonly summary: string
  readonly textTruncated: boolean
}

/** The outcome of one tool call. */
export type ToolOutcome = ToolSuccess | ToolFailure

/** Options for {@link callTool}. */
export interface CallToolOptions {
  /** Character budget of `text`; default {@link defaultMaxChars}. */
  readonly maxChars?: number
}

/** What {@link fitToBudget} returns. */
export interface BudgetedText {
  readonly text: string
  readonly truncated: boolean
}

/**
 * Cuts `text` to at most `maxChars` characters at a line boundary and says so at the end. Never a silent
 * cut: the marker names how much was left out and what to do about it.
 */
export function fitToBudget(text: string, maxChars: number): BudgetedText {
  if (text.length <= maxChars) return { text, truncated: false }
  const marker = (kept: number) =>
    `\n[output truncated: showing ${kept} of ${text.length} characters; narrow the request (path, limit, kind) or page with cursor]`
  const room = Math.max(0, maxChars - marker(text.length).length)
  let cut = text.lastIndexOf('\n', room)
  if (cut < room / 2) cut = room
  // Never split a surrogate pair.
  const code = text.charCodeAt(cut - 1)
  if (cut > 0 && code >= 0xd800 && code <= 0xdbff) cut--
  const kept = text.slice(0, cut)
  return { text: `${kept}${marker(kept.length)}`.slice(0, Math.max(maxChars, 0)), truncated: true }
}

/**
 * `value` as its JSON round trip gives it back (undefined fields dropped, non-finite numbers null), copied
 * directly: a round trip through text costs tens of microseconds on an outline. Anything but plain data
 * (an object with `toJSON`, a bigint, a function) takes the round trip itself, so the answer is the same.
 */
function plain(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (Array.isArray(value)) {
    const out: unknown[] = []
    for (let i = 0; i < value.length; i++) out.push(plain(value[i]) ?? null)
    return out
  }
  if (typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value)) {
      const field = plain((value as Record<string, unknown>)[key])
      if (field !== undefined) out[key] = field
    }
    return out
  }
  const json = JSON.stringify(value)
  return json === undefined ? undefined : JSON.parse(json)
}

/** A tool result or error data as plain JSON (see {@link plain}). */
export function plainJson(value: unknown): Record<string, unknown> {
  return plain(value) as Record<string, unknown>
}

const relativizers = new Map<string, TextRelativizer>()

/**
 * Rewrites absolute paths under the context's roots to workspace-relative form (innermost root first). Answers
 * already are (the seam rewrites them); errors are written by many hands (`"x" is outside the workspace root
 * /abs/…`), so their message and data pass through this too.
 */
function relativizerOf(context: ToolContext): TextRelativizer {
  const rewriters = [...new Set(context.roots.map((r) => r.root))]
    .sort((a, b) => b.length - a.length)
    .map((root) => {
      let rewriter = relativizers.get(root)
      if (rewriter === undefined) {
        rewriter = textRelativizer(root)
        if (relativizers.size >= 64) relativizers.delete(relativizers.keys().next().value as string)
        relativizers.set(root, rewriter)
      }
      return rewriter
    })
  return (text) => rewriters.reduce((out, rewrite) => rewrite(out), text)
}

/**
 * Error data as a model sees it: top-level strings and lists of strings (`root`, `path`, `open`) rewritten.
 * Nested structures (a mutation receipt with its diffs, candidates) are left as they are: they carry
 * workspace-relative paths already, and quote code that must not change.
 */
function relativizeData(data: Record<string, unknown>, rewrite: TextRelativizer): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => [
      key,
      typeof value === 'string'
        ? rewrite(value)
        : Array.isArray(value)
          ? value.map((item: unknown) => (typeof item === 'string' ? rewrite(item) : item))
          : value,
    ]),
  )
}

/** Renders an error for a model: the message, then candidates or nearest names when the seam gave them. */
export function renderError(error: LspError): string {
  const lines = [`error ${error.code}: ${error.message}`]
  const candidates = error.data.candidates
  if (Array.isArray(candidates) && candidates.length > 0) {
    lines.push('candidates (pass one of these as the target):')
    for (const candidate of candidates.slice(0, 20)) lines.push(`  - ${candidate.label}`)
    if (candidates.length > 20) lines.push(`  … ${candidates.length - 20} more`)
  }
  const nearest = error.data.nearest
  if (Array.isArray(nearest) && nearest.length > 0 && !error.message.includes('nearest')) {
    lines.push(`nearest names: ${nearest.slice(0, 10).join(', ')}`)
  }
  return lines.join('\n')
}

/**
 * Decodes arguments, runs the tool and wraps the outcome. Every failure (bad arguments, ambiguous target,
 * server crash, cancellation) comes back as a {@link ToolFailure} with a stable code; nothing throws.
 */
export function callTool(tool: AnyTool, args: unknown, context: ToolContext, options: CallToolOptions = {}): Promise<ToolOutcome> {
  const started = performance.now()
  return inSpan(TelemetrySpan.tool, { [TelemetryAttr.tool]: tool.name }, async (span) => {
    const outcome = await callToolNow(tool, args, context, options)
    const elapsedMs = performance.now() - started
    const instruments = telemetryInstruments()
    if (outcome.ok) instruments.toolDuration.record(elapsedMs, { [TelemetryAttr.tool]: tool.name })
    else {
      instruments.toolDuration.record(elapsedMs, { [TelemetryAttr.tool]: tool.name, [TelemetryAttr.errorCode]: outcome.error.code })
      instruments.errors.add(1, { [TelemetryAttr.tool]: tool.name, [TelemetryAttr.errorCode]: outcome.error.code })
    }
    if (span.isRecording()) {
      span.setAttributes({
        [TelemetryAttr.outcome]: outcome.ok ? 'ok' : 'error',
        [TelemetryAttr.chars]: outcome.text.length,
        [TelemetryAttr.truncated]: outcome.textTruncated,
      })
      // A failure the model reads is the call's answer, not a crash of the call: its code marks the span.
      if (!outcome.ok) failSpan(span, new LspError(outcome.error.code, outcome.error.code))
    }
    return outcome
  })
}

async function callToolNow(tool: AnyTool, args: unknown, context: ToolContext, options: CallToolOptions): Promise<ToolOutcome> {
  const maxChars = options.maxChars ?? defaultMaxChars
  try {
    const input = decodeToolInput(tool, args)
    const result: unknown = await tool.execute(input, context)
    const budgeted = await inSpan(TelemetrySpan.render, {}, async () => fitToBudget(tool.render(result), maxChars))
    return {
      ok: true,
      tool: tool.name,
      structured: plainJson(result),
      text: budgeted.text,
      summary: tool.summary(result),
      textTruncated: budgeted.truncated,
    }
  } catch (cause) {
    const raw = context.signal.aborted
      ? new LspError('CANCELLED', `${tool.name} was cancelled`, { cause })
      : toLspError(cause, 'SERVER_ERROR', tool.name)
    const rewrite = relativizerOf(context)
    const error = new LspError(raw.code, rewrite(raw.message), {
      data: relativizeData(plainJson(raw.data), rewrite) as LspErrorData,
      cause: raw,
    })
    const budgeted = fitToBudget(renderError(error), maxChars)
    return {
      ok: false,
      tool: tool.name,
      error: { code: error.code, message: error.message, data: error.data },
      text: budgeted.text,
      summary: `failed: ${error.code}`,
      textTruncated: budgeted.truncated,
    }
  }
}
