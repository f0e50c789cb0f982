// The Go and Rust rows (scenarios/languages.ts) as tables: the three figures per language first, then what each
// stands on (servers and corpora, the cold starts, the warm increments per operation, the RSS samples).
import { ms, ratio } from './format.js'
import type { ColdSideSummary } from './first-complete.js'
import type { BenchReport, LanguageResult, RealColdStartSide } from './report.js'

/** A table as table.ts builds them (kept structural here, so this file needs nothing from table.ts). */
interface LanguageTable {
  readonly section: string
  readonly title: string
  readonly note?: string[]
  readonly header: string[]
  readonly rows: string[][]
}

/** The section holding the Go and Rust tables. */
export const languagesSection = 'Go and Rust'

const mb = (bytes: number | undefined) => (bytes === undefined ? '—' : `${Math.round(bytes / 1024 / 1024)} MB`)
const delta = (summary: { median: number; p95: number } | undefined) =>
  summary === undefined ? '—' : `${summary.median.toFixed(3)} / ${summary.p95.toFixed(3)}`

const label = (row: LanguageResult) => `${row.language} / ${row.profile} / ${row.corpus}`

/** What a row without figures says instead: what is missing, why, and the install command. */
export function unavailableNote(row: LanguageResult): string {
  const missing = row.unavailable
  if (missing === undefined) return ''
  // A server's own reason already names its install command; a corpus's does not.
  return `not measured: ${missing.why}${missing.why.includes(missing.install) ? '' : ` — install: ${missing.install}`}`
}

/** Whether a one-attempt first answer was complete, and if not what it lacked. */
function complete(side: RealColdStartSide | undefined): string {
  if (side === undefined) return '—'
  if (side.error !== undefined && side.ms === undefined) return `failed: ${side.error}`.slice(0, 80)
  if (side.complete) return 'yes'
  return `no: ${side.missing} missing${side.extra > 0 ? `, ${side.extra} extra` : ''}${side.error === undefined ? '' : ', error'}`
}

/** A one-attempt side's ratio cell: an incomplete answer is a failure, not a longer time. */
function ratioCell(side: RealColdStartSide | undefined, bareComplete: boolean, value: number | undefined): string {
  if (side === undefined) return '—'
  if (!side.complete) return 'failed'
  return bareComplete ? ratio(value) : 'bare failed'
}

/**
 * The ratio cell of several cold starts: the paired ratio when every run of both sides was complete, else
 * how many were (an incomplete first answer is a failure, which a ratio of the others would hide).
 */
export function summaryRatio(upper: ColdSideSummary, bare: ColdSideSummary, value: number | undefined): string {
  if (upper.complete < upper.runs) return `failed (${upper.complete} of ${upper.runs} complete)`
  if (bare.complete < bare.runs) return `bare failed (${bare.complete} of ${bare.runs} complete)`
  return ratio(value)
}

const allIncrement = (row: LanguageResult) => row.warm?.increments.find((i) => i.operation === 'all')
const layerOf = (row: LanguageResult, layer: 'floor' | 'ctx.lsp') => row.warm?.readMix.find((r) => r.layer === layer)

/** The Go and Rust tables (empty when the section did not run). */
export function languageTables(report: BenchReport): LanguageTable[] {
  const rows = report.languages ?? []
  if (rows.length === 0) return []
  const section = languagesSection
  return [
    {
      section,
      title: 'The three figures, codeseam against the bare server in the same run',
      note: rows.flatMap((row) => row.notes.map((note) => `${row.language} (${row.corpus}): ${note}`)),
      header: [
        'language / server / corpus',
        'first complete answer, ms: bare',
        'codeseam',
        '× bare',
        'warm Δ per query, ms (median / p95)',
        'warm median, ms: bare / codeseam',
        'server RSS: bare / codeseam',
        '× bare',
        'note',
      ],
      rows: rows.map((row) => {
        const first = row.firstAnswer
        const increment = allIncrement(row)
        const floor = layerOf(row, 'floor')
        const seam = layerOf(row, 'ctx.lsp')
        return [
          label(row),
          ms(first?.bare.medianMs),
          ms(first?.codeseam.medianMs),
          first === undefined ? '—' : summaryRatio(first.codeseam, first.bare, first.ratio),
          delta(increment?.ctxLsp),
          floor === undefined || seam === undefined ? '—' : `${ms(floor.all.median)} / ${ms(seam.all.median)}`,
          row.rss === undefined ? '—' : `${mb(row.rss.bare.median)} / ${mb(row.rss.codeseam.median)}`,
          ratio(row.rss?.ratio),
          row.unavailable !== undefined ? unavailableNote(row) : row.notes.filter((note) => note.startsWith('no ')).join('; '),
        ]
      }),
    },
    {
      section,
      title: 'Servers and corpora',
      header: [
        'language / server / corpus',
        'server',
        'snapshot',
        'source files',
        'question (final answer)',
        'trust: what the plan changed',
        'took',
      ],
      rows: rows.map((row) => [
        label(row),
        row.server,
        row.repository === undefined ? '—' : `${row.repository}${row.commit === undefined ? '' : `@${row.commit.slice(0, 10)}`}`,
        row.sourceFiles === undefined ? '—' : String(row.sourceFiles),
        row.symbol === undefined ? '—' : `references of ${row.symbol.name} (${row.symbol.path}:${row.symbol.line}): ${row.expected ?? '—'}`,
        row.unavailable !== undefined ? unavailableNote(row) : `${row.trust}: ${(row.hardening ?? []).join('; ') || 'nothing'}`,
        row.durationMs === undefined ? '—' : `${(row.durationMs / 1000).toFixed(0)} s`,
      ]),
    },
    {
      section,
      title: 'Start → first complete references answer, ms: each cold start, then the median of the complete ones',
      header: [
        'language / corpus / symbol / run',
        'final',
        'bare',
        'bare: quiescent at',
        'bare: asked',
        'codeseam (ctx.lsp)',
        '× bare',
        'codeseam complete',
        'codeseam mcp',
        'mcp × bare',
        'mcp complete',
        'RSS at the answer: bare / codeseam',
        'note',
      ],
      rows: rows.flatMap((row) => {
        const first = row.firstAnswer
        const name = `${row.language} / ${row.corpus} / ${row.symbol?.name ?? '—'}`
        const final = row.expected === undefined ? '—' : String(row.expected)
        if (first === undefined)
          return [[name, final, '—', '—', '—', '—', '—', '—', '—', '—', '—', '—', unavailableNote(row) || row.notes.join('; ')]]
        const perRun = first.runs.map((run, index) => {
          const { bare, codeseam, mcp } = run
          const per = (side: RealColdStartSide | undefined) =>
            side !== undefined && side.ms !== undefined && bare.ms !== undefined ? side.ms / bare.ms : undefined
          return [
            `${name} / ${index + 1} (${run.bareFirst ? 'bare first' : 'codeseam first'})`,
            final,
            bare.complete ? ms(bare.ms) : `none (${bare.error ?? ''})`.slice(0, 60),
            ms(bare.quiescentMs),
            String(bare.attempts),
            ms(codeseam.ms),
            ratioCell(codeseam, bare.complete, per(codeseam)),
            complete(codeseam),
            ms(mcp?.ms),
            ratioCell(mcp, bare.complete, per(mcp)),
            complete(mcp),
            `${mb(bare.rssBytes)} / ${mb(codeseam.rssBytes)}`,
            '',
          ]
        })
        const counted = (summary: ColdSideSummary | undefined) => (summary === undefined ? '—' : `${summary.complete} of ${summary.runs}`)
        return [
          ...perRun,
          [
            `${name} / median`,
            final,
            ms(first.bare.medianMs),
            '',
            counted(first.bare),
            ms(first.codeseam.medianMs),
            summaryRatio(first.codeseam, first.bare, first.ratio),
            counted(first.codeseam),
            ms(first.mcp?.medianMs),
            first.mcp === undefined ? '—' : summaryRatio(first.mcp, first.bare, first.mcpRatio),
            counted(first.mcp),
            `${mb(first.rssAtAnswer.bare)} / ${mb(first.rssAtAnswer.codeseam)}`,
            "× bare: the median of the runs' ratios",
          ],
        ]
      }),
    },
    {
      section,
      title: 'Warm queries: the bare server and codeseam (ctx.lsp) taking turns, ms (medians; Δ paired within each turn, median / p95)',
      header: [
        'language / corpus / operation',
        'asked',
        'bare median',
        'codeseam median',
        'Δ ctx.lsp − bare',
        'turns',
        'wrong (bare, codeseam)',
        'note',
      ],
      rows: rows.flatMap((row) => {
        if (row.warm === undefined) return [[`${row.language} / ${row.corpus} / all`, '—', '—', '—', '—', '—', '—', unavailableNote(row)]]
        const floor = layerOf(row, 'floor')
        const seam = layerOf(row, 'ctx.lsp')
        return row.warm.increments.map((increment) => {
          const asked = row.warm!.queries.find((q) => q.operation === increment.operation)
          const of = (layer: typeof floor) =>
            increment.operation === 'all' ? layer?.all.median : layer?.byOperation[increment.operation]?.summary.median
          return [
            `${row.language} / ${row.corpus} / ${increment.operation}`,
            asked === undefined ? `${row.warm!.queries.length} queries` : `${asked.label} (${asked.floorCount})`,
            ms(of(floor)),
            ms(of(seam)),
            delta(increment.ctxLsp),
            String(increment.turns),
            `${increment.wrong['floor'] ?? '—'}, ${increment.wrong['ctx.lsp'] ?? '—'}`,
            increment.note ?? '',
          ]
        })
      }),
    },
    {
      section,
      title: 'RSS of the server process trees during the warm rounds (median / max of the samples)',
      header: ['language / corpus', 'bare server', 'codeseam server', '× bare (medians)', 'codeseam server processes', 'samples', 'note'],
      rows: rows.map((row) => [
        `${row.language} / ${row.corpus}`,
        row.rss === undefined ? '—' : `${mb(row.rss.bare.median)} / ${mb(row.rss.bare.max)}`,
        row.rss === undefined ? '—' : `${mb(row.rss.codeseam.median)} / ${mb(row.rss.codeseam.max)}`,
        ratio(row.rss?.ratio),
        row.rss === undefined ? '—' : String(row.rss.codeseamProcesses),
        row.rss === undefined ? '—' : String(row.rss.samples),
        unavailableNote(row),
      ]),
    },
  ]
}
