// The read mix's derived operations beside the native ones: each layer's figure for the derived operation,
// its ratio to the floor answering the derivation's ingredients, and the same layer's native mix beside it.
import { ms, ratio } from './format.js'
import type { BenchReport } from './report.js'

/** A table as table.ts builds them (kept structural here, so this file needs nothing from table.ts). */
interface DerivedTable {
  readonly title: string
  readonly note: string[]
  readonly header: string[]
  readonly rows: string[][]
}

/** The by-operation table's column name for an operation: derived ones say so. */
export function operationColumn(report: BenchReport, operation: string): string {
  return (report.derivedOperations ?? []).some((info) => info.operation === operation) ? `${operation} (derived)` : operation
}

/** One table per derived operation the read mix measured. */
export function derivedTables(report: BenchReport): DerivedTable[] {
  return (report.derivedOperations ?? []).flatMap((info) => {
    const results = report.readMix.filter((r) => r.byOperation[info.operation] !== undefined)
    if (results.length === 0) return []
    const wrongOf = (workspace: string, layer: string) =>
      (report.increments ?? []).find((i) => i.workspace === workspace && i.mix === 'read mix' && i.operation === info.operation)?.wrong[
        layer
      ]
    return [
      {
        title: `Derived operation beside the native ones: ${info.operation}, ms per query`,
        note: [
          `Asked: ${info.asked}. Derived by codeseam from ${info.derivedFrom.join(', ')}.`,
          `× floor: the floor has no such operation; its figure is ${info.floor}. The ratio is what deriving costs on top of its ingredients.`,
          `Native mix: the same layer's median over the native operations (definition, references, hover, documentSymbols), same run.`,
          `Correct: ${info.verified}.`,
        ],
        header: [
          'workspace / layer',
          'median',
          'p95',
          '× floor (ingredients, median)',
          '× floor (p95)',
          'native mix median',
          '× native mix',
          'n',
          'wrong',
        ],
        rows: results.map((r) => {
          const o = r.byOperation[info.operation]!
          return [
            `${r.workspace} / ${r.layer}`,
            ms(o.summary.median),
            ms(o.summary.p95),
            ratio(o.ratio?.median),
            ratio(o.ratio?.p95),
            ms(r.all.median),
            ratio(o.summary.median / r.all.median),
            String(o.summary.count),
            String(wrongOf(r.workspace, r.layer) ?? '—'),
          ]
        }),
      },
    ]
  })
}
