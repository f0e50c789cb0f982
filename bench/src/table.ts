import type { BenchReport, RealColdStartSide } from './report.js'

const mb = (bytes: number | undefined) => (bytes === undefined ? '—' : `${Math.round(bytes / 1024 / 1024)} MB`)
const ms = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '—' : value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)
const ratio = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(2)}×`)
const kb = (bytes: number) => (bytes < 10_240 ? `${(bytes / 1024).toFixed(1)} KB` : `${Math.round(bytes / 1024)} KB`)

/** Rows of cells → aligned text (first column left, the rest right). */
export function formatTable(header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

/** Whether a first answer was complete, and if not what it lacked (or that the side failed). */
function completeness(side: RealColdStartSide): string {
  if (side.error !== undefined && side.ms === undefined) return `failed: ${side.error}`.slice(0, 80)
  if (side.complete) return 'yes'
  const parts = [
    `${side.missing} missing`,
    ...(side.extra > 0 ? [`${side.extra} extra`] : []),
    ...(side.error === undefined ? [] : ['error']),
  ]
  return `no: ${parts.join(', ')}`
}

const operationNames: Readonly<Record<string, string>> = { references: 'references', workspaceSymbols: 'workspace symbols' }

/** One table of the report; tables of a `section` are shown under that section's heading in the docs. */
export interface ReportTable {
  readonly title: string
  readonly section?: string
  readonly header: string[]
  readonly rows: string[][]
}

/** The section holding the real-repository tables. */
export const realRepositoriesSection = 'Real repositories'

/** The "Real repositories" tables: the corpora, cold start to the first complete answer, the warm Python series. */
export function realRepositoryTables(report: BenchReport): ReportTable[] {
  const real = report.realRepositories
  if (real === undefined) return []
  const section = realRepositoriesSection
  return [
    {
      section,
      title: 'Corpora and fixed symbols',
      header: [
        'corpus',
        'language',
        'snapshot',
        'source files',
        'projects',
        'workspace folders',
        'symbols (references in the oracle: files, projects)',
      ],
      rows: real.corpora.map((c) => [
        c.name,
        c.language,
        c.repository === undefined ? '—' : `${c.repository}${c.commit === undefined ? '' : `@${c.commit.slice(0, 10)}`}`,
        String(c.sourceFiles),
        String(c.projects),
        String(c.workspaceFolders),
        c.symbols.map((s) => `${s.name} (${s.references}: ${s.files}, ${s.projects})`).join('; '),
      ]),
    },
    {
      section,
      title: 'Cold start to the first complete answer, ms',
      header: ['corpus / symbol / query', 'oracle', 'bare primed', 'codeseam', '× bare primed', 'codeseam complete', 'bare complete'],
      rows: real.coldStart.map((c) => [
        `${c.corpus} / ${c.symbol} / ${operationNames[c.operation] ?? c.operation}`,
        String(c.expected),
        ms(c.bare.ms),
        ms(c.codeseam.ms),
        // An incomplete first answer is a failure, not a longer time: no ratio for it.
        !c.codeseam.complete ? 'failed' : !c.bare.complete ? 'bare failed' : ratio(c.ratio),
        completeness(c.codeseam),
        completeness(c.bare),
      ]),
    },
    {
      section,
      title: 'Workspace symbols on the Python corpus, warm, ms per query',
      header: [
        'corpus (queries)',
        'bare median',
        'bare primed median',
        'codeseam median',
        '× bare',
        '× bare primed',
        'paired Δ median',
        'codeseam p95',
        'target (× bare)',
        'pyright processes',
        'n',
        'wrong',
      ],
      rows: real.warmWorkspaceSymbols.map((w) => {
        const wrong = w.wrong.bare + w.wrong.barePrimed + w.wrong.codeseam
        return [
          `${w.corpus} (${w.queries.join(', ')})`,
          ms(w.bare.median),
          ms(w.barePrimed.median),
          ms(w.codeseam.median),
          ratio(w.ratio),
          ratio(w.ratioToPrimed),
          ms(w.pairedDifference.median),
          ms(w.codeseam.p95),
          `≤ ${w.target.toFixed(1)}×: ${w.withinTarget ? 'met' : 'NOT met'}`,
          w.pyrightProcessesMax === w.pyrightProcesses
            ? String(w.pyrightProcesses)
            : `${w.pyrightProcesses} (max ${w.pyrightProcessesMax})`,
          String(w.codeseam.count),
          wrong === 0 ? '0' : `${w.wrong.codeseam} codeseam, ${w.wrong.bare} bare, ${w.wrong.barePrimed} primed`,
        ]
      }),
    },
  ]
}

/** The tables of a report, as printed on stdout and embedded in docs/performance.md. */
export function reportTables(report: BenchReport): ReportTable[] {
  return [
    {
      title: 'Read mix (definition, references, hover, documentSymbols), ms per query',
      header: ['workspace / layer', 'median', 'p95', '× floor (median)', '× floor (p95)', 'n', 'wrong'],
      rows: report.readMix.map((r) => [
        `${r.workspace} / ${r.layer}`,
        ms(r.all.median),
        ms(r.all.p95),
        ratio(r.ratio?.median),
        ratio(r.ratio?.p95),
        String(r.all.count),
        String(r.incorrect),
      ]),
    },
    {
      title: 'Read mix by operation, median ms (× floor)',
      header: ['workspace / layer', ...Object.keys(report.readMix[0]?.byOperation ?? {}), 'references found'],
      rows: report.readMix.map((r) => [
        `${r.workspace} / ${r.layer}`,
        ...Object.values(r.byOperation).map((o) => `${ms(o.summary.median)} (${ratio(o.ratio?.median)})`),
        String(r.byOperation['references']?.locations ?? '—'),
      ]),
    },
    {
      title: 'Cold start to the first correct answer',
      header: ['profile / via', 'initialized ms', 'first correct ms', 'attempts', 'server RSS', 'note'],
      rows: report.coldStart.map((c) => [
        `${c.profile} / ${c.via}`,
        ms(c.initializedMs),
        ms(c.firstCorrectAnswerMs),
        c.attempts === undefined ? '—' : String(c.attempts),
        mb(c.serverRssBytes),
        c.available ? '' : `unavailable: ${c.note ?? ''}`.slice(0, 80),
      ]),
    },
    {
      title: 'References on the hot symbol',
      header: ['workspace / layer', 'median ms', 'p95 ms', '× floor', 'locations', 'output', 'truncated'],
      rows: report.hotReferences.map((h) => [
        `${h.workspace} / ${h.layer}`,
        ms(h.summary.median),
        ms(h.summary.p95),
        ratio(h.ratio?.median),
        String(h.locations),
        kb(h.outputBytes),
        h.truncated ? 'yes' : 'no',
      ]),
    },
    {
      title: 'Symbol-target resolution (resolveTarget), ms',
      header: ['workspace', 'uncached median', 'uncached p95', 'cached median', 'cached p95'],
      rows: report.targetResolution.map((t) => [
        t.workspace,
        ms(t.uncached.median),
        ms(t.uncached.p95),
        ms(t.cached.median),
        ms(t.cached.p95),
      ]),
    },
    {
      title: '100 concurrent read queries',
      header: ['workspace / layer', 'wall ms', 'queries/s', 'p50 ms', 'p95 ms', 'errors', 'wrong'],
      rows: report.concurrency.map((c) => [
        `${c.workspace} / ${c.layer}`,
        ms(c.wallMs),
        c.throughputPerSecond.toFixed(0),
        ms(c.latency.median),
        ms(c.latency.p95),
        String(c.errors),
        String(c.incorrect),
      ]),
    },
    {
      title: 'Memory (RSS)',
      header: ['workspace / phase', 'host process', 'servers', 'server processes', 'reclaimed after'],
      rows: report.memory.map((m) => [
        `${m.workspace} / ${m.phase}`,
        mb(m.hostRssBytes),
        mb(m.serverRssBytes),
        String(m.servers),
        m.reclaimedMs === undefined ? '—' : `${(m.reclaimedMs / 1000).toFixed(1)} s`,
      ]),
    },
    ...realRepositoryTables(report),
  ]
}

/** The whole report as text for stdout. */
export function printReport(report: BenchReport): string {
  const parts = reportTables(report)
    .filter((table) => table.rows.length > 0)
    .map((table) => `${table.section === undefined ? '' : `${table.section}: `}${table.title}\n${formatTable(table.header, table.rows)}`)
  if (report.missing.length > 0) parts.push(`Not measured\n${report.missing.map((m) => `- ${m.what}: ${m.why}`).join('\n')}`)
  return parts.join('\n\n')
}
