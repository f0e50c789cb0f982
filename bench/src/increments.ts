import { isDerivedOperation } from './read-mix.js'
import type { IncrementResult, Layer } from './report.js'
import { pairedDifferences, roundSummary, summarize, type TimingSummary } from './statistics.js'

/** One turn: every layer answered the same query once; its time per layer. */
export interface Turn {
  readonly operation: string
  readonly ms: Readonly<Partial<Record<Layer, number>>>
}

/** The pairs whose difference is each layer's own increment: upper − lower within one turn. */
const pairs: ReadonlyArray<{ key: 'ctxLsp' | 'tools' | 'mcp'; upper: Layer; lower: Layer }> = [
  { key: 'ctxLsp', upper: 'ctx.lsp', lower: 'floor' },
  { key: 'tools', upper: 'tools', lower: 'ctx.lsp' },
  { key: 'mcp', upper: 'mcp', lower: 'tools' },
]

function paired(turns: ReadonlyArray<Turn>, upper: Layer, lower: Layer): TimingSummary | undefined {
  const both = turns.filter((turn) => turn.ms[upper] !== undefined && turn.ms[lower] !== undefined)
  if (both.length === 0) return undefined
  return roundSummary(
    summarize(
      pairedDifferences(
        both.map((turn) => turn.ms[upper]!),
        both.map((turn) => turn.ms[lower]!),
      ),
    ),
  )
}

/**
 * Each layer's own increment per turn (ctx.lsp − floor, tools − ctx.lsp, mcp − tools) and all together (the
 * top layer − floor), over the whole mix and per operation. The whole mix ("all") holds the native operations
 * only: a derived operation's floor is its ingredients, so it has a row of its own.
 */
export function incrementsOf(
  workspace: string,
  mix: IncrementResult['mix'],
  turns: ReadonlyArray<Turn>,
  wrong: Readonly<Record<string, number>>,
  /** Wrong answers per operation and layer, for the per-operation rows (left empty when not given). */
  wrongByOperation: Readonly<Record<string, Readonly<Record<string, number>>>> = {},
): IncrementResult[] {
  const operations = [...new Set(turns.map((turn) => turn.operation))]
  const top = (['mcp', 'tools', 'ctx.lsp'] as const).find((layer) => turns.some((turn) => turn.ms[layer] !== undefined))
  const one = (operation: string, selected: ReadonlyArray<Turn>): IncrementResult => {
    const result: Record<string, unknown> = { workspace, mix, operation, turns: selected.length }
    for (const { key, upper, lower } of pairs) {
      const summary = paired(selected, upper, lower)
      if (summary !== undefined) result[key] = summary
    }
    const total = top === undefined ? undefined : paired(selected, top, 'floor')
    if (total !== undefined) result['total'] = total
    return { ...(result as Omit<IncrementResult, 'wrong'>), wrong: operation === 'all' ? wrong : (wrongByOperation[operation] ?? {}) }
  }
  return [
    one(
      'all',
      turns.filter((turn) => !isDerivedOperation(turn.operation)),
    ),
    ...operations.map((operation) =>
      one(
        operation,
        turns.filter((turn) => turn.operation === operation),
      ),
    ),
  ]
}
