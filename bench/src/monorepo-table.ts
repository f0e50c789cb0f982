import { ms, ratio } from './format.js'
import type { BenchReport } from './report.js'

/** A table of the report (table.ts's ReportTable, which imports this file). */
interface MonorepoTable {
  readonly title: string
  readonly note: ReadonlyArray<string>
  readonly header: string[]
  readonly rows: string[][]
}

/** The large-monorepo scenario's table (issue 50): spawn → first complete references answer, codeseam ÷ bare primed. */
export function monorepoTables(report: BenchReport): MonorepoTable[] {
  const result = report.monorepoFirstAnswer
  if (result === undefined) return []
  const side = (s: { runs: number; complete: number; medianMs?: number }) => `${ms(s.medianMs)} (${s.complete}/${s.runs} complete)`
  return [
    {
      title: `Large monorepo: ${result.corpus} (${result.linkedPackages} workspace packages linked, ${result.sourceFiles} source files, ${result.projects} projects), spawn → first complete references answer, ms`,
      note: [
        'bare primed: the native TypeScript server spawned, one file per project opened, then asked; codeseam: a new host (default settings) asked once; alternating cold starts in the same run, each answer judged by the bare server with every source file open',
        `codeseam loads first the projects that can reach the symbol's file (RFC 0035); target: ≤ ${result.target.toFixed(1)}× (aim ≤ 1.0×)`,
      ],
      header: ['symbol', 'references', 'projects searched first', 'bare primed', 'codeseam', 'codeseam ÷ bare'],
      rows: result.symbols.map((s) => [
        `${s.symbol} (${s.path})`,
        String(s.expected),
        s.projectsSearched === undefined ? '—' : `${s.projectsSearched} of ${result.projects}`,
        side(s.bare),
        side(s.codeseam),
        ratio(s.ratio),
      ]),
    },
  ]
}
