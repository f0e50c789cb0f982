import { listedDifferencesText } from './index-differences.js'
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
        profiled,
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
    ...(result.index === undefined ? [] : [indexTable(result, result.index, side)]),
  ]
}

/** Where codeseam's time went on the symbol nearly every project reaches, before issue 50's changes (RFC 0035, amended). */
const profiled =
  'profiled (QueryClient, 2.5× before): one didOpen per project (102) plus one per file of no project (48), all in ~0.15 s, ' +
  'after the project graph (the compiler-API child: 0.7–1.7 s with the machine at a load average of 6–13, about half of it ' +
  'loading TypeScript) and the reach (0.1–0.4 s); no wait on ' +
  'diagnostics or readiness; planning twice per load < 10 ms. The rest was the server: its first answer asked twice ' +
  '(to confirm it: the second ask repeated the search) and an inferred project of the 48 files of no project searched ' +
  'besides the projects. Now: the TypeScript servers are asked once; files of no project reach only by what they import, ' +
  'and only through a workspace package an import can resolve into (4 of the 48 first: the others import packages not built); ' +
  'the graph’s child loads TypeScript while the configs are listed, the sources are scanned and the question’s file opened ' +
  'while it runs; what is left over bare primed: the graph (~0.7 s quiet, before the other opens). Traced again on a quiet ' +
  'machine (2026-12-07, the LSP traffic in process, a second host): the question’s file opened and the definition asked at ' +
  '0.25 s (the declaring file, RFC 0035 amended), answered at 0.43 s; the graph at 0.88 s, then 102 opens in 0.08 s and ' +
  'references asked at 0.97 s, answered 4.25 s later by the server: the graph’s ~0.45 s after the definition is on the ' +
  'critical path'

const megabytes = (bytes: number | undefined) => (bytes === undefined ? '—' : `${Math.round(bytes / 1024 / 1024)} MB`)

/** The same cold starts answered from a precomputed index (issue 52). */
function indexTable(
  result: NonNullable<BenchReport['monorepoFirstAnswer']>,
  index: NonNullable<NonNullable<BenchReport['monorepoFirstAnswer']>['index']>,
  side: (s: { runs: number; complete: number; medianMs?: number }) => string,
): MonorepoTable {
  return {
    title: `Large monorepo from a precomputed index: ${result.corpus}, spawn → first complete references answer, ms`,
    note: [
      `\`codeseam index\` (default settings; scip-typescript given every tsconfig.json under the root): ${ms(index.ms)} (the indexer ${ms(index.indexMs)}), ${index.documents} documents, ${megabytes(index.bytes)}, peak RSS ${megabytes(index.peakRssBytes)}`,
      `with the index: \`codeseam mcp --daemon never\` (default settings, untrusted) spawned and asked once after each bare primed run above, judged by the same oracle; target: ≤ ${index.target.toFixed(1)}× bare primed`,
      'an answer that lacks only locations docs/index.md lists as differences between the index and the TypeScript server (recognised by what the index holds at each: bench/src/index-differences.ts), and has none the oracle lacks, is counted apart, with the count of each',
    ],
    header: [
      'symbol',
      'references',
      'bare primed',
      'codeseam mcp with the index',
      'answers that said "from the index"',
      '÷ bare primed',
      'apart from listed differences: ÷ bare primed (what the answers lacked)',
      'RSS at the answer (median)',
    ],
    rows: result.symbols.map((s) => [
      `${s.symbol} (${s.path})`,
      String(s.expected),
      side(s.bare),
      s.fromIndex === undefined ? '—' : side(s.fromIndex.side),
      s.fromIndex === undefined ? '—' : `${s.fromIndex.answeredFromIndex}/${s.fromIndex.side.runs}`,
      ratio(s.fromIndex?.ratio),
      s.fromIndex?.listedDifferences === undefined
        ? '—'
        : `${ratio(s.fromIndex.ratioApartFromListed)} (${listedDifferencesText(s.fromIndex.listedDifferences)})`,
      megabytes(s.fromIndex?.rssBytes),
    ]),
  }
}
