import { isLspError, type LspSignatureHelp } from '@codeseam/lsp'
import { Schema } from 'effect'

import { defineTool } from './definition.js'
import { lines, renderNotice, renderReadiness, renderTarget } from './render.js'
import { FirstMatchInput, NonNegativeInt, ReadinessOutput, ResolvedTargetOutput, TargetInput } from './schemas.js'
import { noticeFor, readinessOf, resolveToolTarget, targetOutput } from './targeting.js'

/** Longest hover text kept (docs of huge declarations are cut, and say so). */
export const maxHoverChars = 4000

const HoverInput = Schema.Struct({ target: TargetInput, firstMatch: FirstMatchInput })

const SignatureOutput = Schema.Struct({
  /** The signature with the active parameter marked «like this». */
  label: Schema.String,
  activeParameter: Schema.optional(Schema.String),
  activeParameterIndex: Schema.optional(NonNegativeInt),
  parameters: Schema.Array(Schema.String),
  documentation: Schema.optional(Schema.String),
  /** Other overloads, when the call has several. */
  overloads: NonNegativeInt,
})

const HoverOutput = Schema.Struct({
  target: ResolvedTargetOutput,
  /** The type or signature (code blocks of the hover, fences removed). */
  signature: Schema.optional(Schema.String),
  /** Documentation prose. */
  documentation: Schema.optional(Schema.String),
  /** Signature help when the target sits inside a call's arguments. */
  call: Schema.optional(SignatureOutput),
  truncated: Schema.Boolean,
  readiness: ReadinessOutput,
  notice: Schema.optional(Schema.String),
})

/** The decoded result of `code_hover`. */
export type HoverResult = typeof HoverOutput.Type

/**
 * Splits markdown hover text into the signature (the code blocks before any prose: what the server says the symbol
 * is) and the documentation (the prose, separators and escapes removed, HTML entities decoded). A code block inside
 * the documentation (a JSDoc `@example`) stays there, fenced, in its place.
 */
export function splitHover(contents: string, format: 'markdown' | 'plaintext'): { code: string; prose: string } {
  if (format === 'plaintext') return { code: '', prose: decodeEntities(contents).trim() }
  const code: string[] = []
  const prose: string[] = []
  // Code blocks kept in the documentation, out of the prose's clean-up (their text is code, not markdown).
  const kept: string[] = []
  const fence = /```[\w+-]*\n([\s\S]*?)```/g
  let last = 0
  for (const match of contents.matchAll(fence)) {
    const before = contents.slice(last, match.index)
    const leading = prose.every((part) => isSeparators(part)) && isSeparators(before)
    if (leading) code.push(match[1]!.trimEnd())
    if (!leading) kept.push(match[0])
    prose.push(leading ? before : `${before}\uE000${kept.length - 1}\uE001`)
    last = match.index + match[0].length
  }
  prose.push(contents.slice(last))
  const cleanProse = decodeEntities(
    prose
      .join('\n')
      .split('\n')
      .filter((line) => !/^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(line))
      .join('\n')
      .replace(/\\([\\`*_{}[\]()#+\-.!<>])/g, '$1'),
  )
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .replace(/\uE000(\d+)\uE001/g, (_, index: string) => kept[Number(index)] ?? '')
  return { code: code.join('\n').trim(), prose: cleanProse }
}

/** Blank text or markdown separator lines only. */
function isSeparators(text: string): boolean {
  return text.split('\n').every((line) => /^\s*((-{3,}|\*{3,}|_{3,})\s*)?$/.test(line))
}

const namedEntities: Readonly<Record<string, string>> = { nbsp: ' ', lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

/** HTML entities servers put in markdown (pyright indents docstrings with `&nbsp;`), as the characters they stand for. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16))
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10))
    return namedEntities[name.toLowerCase()] ?? entity
  })
}

function cap(text: string, budget: number): { text: string; cut: boolean } {
  return text.length <= budget ? { text, cut: false } : { text: `${text.slice(0, budget)}…`, cut: true }
}

function describeSignature(help: LspSignatureHelp): typeof SignatureOutput.Type | undefined {
  const signature = help.signatures[help.activeSignature] ?? help.signatures[0]
  if (signature === undefined) return undefined
  const activeIndex = signature.activeParameter ?? help.activeParameter
  const active = signature.parameters[activeIndex]
  let label = signature.label
  if (active !== undefined) {
    const at = label.indexOf(active.label)
    if (at >= 0) label = `${label.slice(0, at)}«${active.label}»${label.slice(at + active.label.length)}`
  }
  return {
    label,
    ...(active === undefined ? {} : { activeParameter: active.label, activeParameterIndex: activeIndex }),
    parameters: signature.parameters.map((p) => p.label),
    ...(signature.documentation === undefined || signature.documentation === ''
      ? {}
      : { documentation: splitHover(signature.documentation, 'markdown').prose }),
    overloads: help.signatures.length - 1,
  }
}

/** `code_hover`: type, signature and docs at a target, plus signature help inside calls. */
export const codeHover = defineTool({
  name: 'code_hover',
  title: 'Hover: type and docs',
  description: [
    'The type, signature and documentation of a symbol as the language server infers it (what an editor shows on hover), as plain text.',
    'Use it to learn what a variable holds, what a function takes and returns, or what a library symbol does, without opening its definition.',
    "Aimed inside a call's arguments (line + matchText), it also returns the call signature with the active parameter marked.",
  ].join(' '),
  input: HoverInput,
  output: HoverOutput,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },

  async execute(input, context) {
    const resolved = await resolveToolTarget(context, input.target, { firstMatch: input.firstMatch })
    const request = { root: resolved.root, path: resolved.path, position: resolved.position, document: resolved.document }
    // Both asked at once: the server answers the second while the first travels back.
    const help = context.lsp.operationsFor(resolved.path).includes('signatureHelp')
      ? context.lsp.query({ operation: 'signatureHelp', ...request }, context.signal).then(
          (answer) => (answer.signatureHelp === null ? undefined : describeSignature(answer.signatureHelp)),
          (error: unknown) => {
            // Signature help is an enrichment: only a missing capability is tolerated, never a failure.
            if (isLspError(error, 'UNSUPPORTED_OPERATION')) return undefined
            return { failed: error }
          },
        )
      : undefined
    const hover = await context.lsp.query({ operation: 'hover', ...request }, context.signal).catch(async (error: unknown) => {
      await help // settled before the call ends, so its work is not left running behind the failure
      throw error
    })
    const helped = await help
    if (helped !== undefined && 'failed' in helped) throw helped.failed
    const call: typeof SignatureOutput.Type | undefined = helped
    const parts = hover.hover === null ? { code: '', prose: '' } : splitHover(hover.hover.contents, hover.hover.format)
    const signature = cap(parts.code, maxHoverChars)
    const documentation = cap(parts.prose, Math.max(0, maxHoverChars - signature.text.length))
    const empty = signature.text === '' && documentation.text === ''
    const notice =
      noticeFor(hover.meta, empty, 'type information', resolved.rootId, resolved) ??
      (empty
        ? 'the server has no hover information at this position; aim at an identifier (symbol, or line + matchText on the name)'
        : undefined)
    return {
      target: targetOutput(resolved),
      ...(signature.text === '' ? {} : { signature: signature.text }),
      ...(documentation.text === '' ? {} : { documentation: documentation.text }),
      ...(call === undefined ? {} : { call }),
      truncated: signature.cut || documentation.cut,
      readiness: readinessOf(hover.meta),
      ...(notice === undefined ? {} : { notice }),
    }
  },

  summary(result) {
    const first = (result.signature ?? result.documentation ?? 'no information').split('\n')[0] ?? ''
    return first.length > 80 ? `${first.slice(0, 77)}...` : first
  },

  render(result) {
    return lines(
      renderTarget(result.target),
      renderReadiness(result.readiness),
      renderNotice(result.notice),
      result.signature,
      result.documentation === undefined ? undefined : ['', result.documentation],
      result.call === undefined
        ? undefined
        : [
            '',
            `call: ${result.call.label}${result.call.overloads > 0 ? `  (+${result.call.overloads} overloads)` : ''}`,
            ...(result.call.documentation === undefined ? [] : [result.call.documentation]),
          ],
      result.truncated ? '[hover text cut]' : undefined,
    )
  },
})
