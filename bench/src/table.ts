import { derivedTables, operationColumn } from './derived-table.js'
import { languageTables } from './language-tables.js'
import { monorepoTables } from './monorepo-table.js'
import { ms, ratio } from './format.js'
import type { BenchReport, RealColdStartSide } from './report.js'
import type { TimingSummary } from './statistics.js'
import { targetRows, verdictOf } from './targets.js'

const mb = (bytes: number | undefined) => (bytes === undefined ? '—' : `${Math.round(bytes / 1024 / 1024)} MB`)
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
  /** Lines shown between the title and the table (what a figure is compared with). */
  readonly note?: ReadonlyArray<string>
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
      header: [
        'corpus / symbol / query',
        'oracle',
        'bare primed',
        'codeseam',
        '× bare primed',
        'codeseam complete',
        'bare complete',
        'servers RSS at the answer: bare primed / codeseam',
      ],
      rows: real.coldStart.map((c) => [
        `${c.corpus} / ${c.symbol} / ${operationNames[c.operation] ?? c.operation}`,
        String(c.expected),
        ms(c.bare.ms),
        ms(c.codeseam.ms),
        // An incomplete first answer is a failure, not a longer time: no ratio for it.
        !c.codeseam.complete ? 'failed' : !c.bare.complete ? 'bare failed' : ratio(c.ratio),
        completeness(c.codeseam),
        completeness(c.bare),
        c.bare.rssBytes === undefined && c.codeseam.rssBytes === undefined ? '—' : `${mb(c.bare.rssBytes)} / ${mb(c.codeseam.rssBytes)}`,
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

/** The section holding issue 15's figures (the targets table itself comes first, before every section). */
export const ownCostSection = "codeseam's own cost (issue 15)"

/** Issue 15's targets, judged: shown first on stdout and at the top of docs/performance.md. */
export function targetsTable(report: BenchReport): ReportTable {
  return {
    title: "Targets (issue 15): codeseam's own cost",
    header: ['target', 'measured', 'target value', 'must hold', 'verdict'],
    rows: targetRows(report).map((row) => [row.target, row.measured, row.goal, row.must, row.verdict]),
  }
}

/** Several runs' target figures side by side, with their median and its verdict. */
export function runsSummaryTable(report: BenchReport): ReportTable | undefined {
  const summary = report.runsSummary
  if (summary === undefined) return undefined
  const figure = (value: number | null | undefined, unit: string) =>
    value === undefined || value === null
      ? '—'
      : unit === '×'
        ? ratio(value)
        : unit === 'MB'
          ? `${value.toFixed(0)} MB`
          : unit === 'ms'
            ? `${ms(value)} ms`
            : String(value)
  return {
    title: `Targets over ${summary.runs.length} runs (median of the runs' figures)`,
    header: ['target', ...summary.runs.map((_, i) => `run ${i + 1}`), 'median', 'target value', 'must hold', 'verdict'],
    rows: summary.rows.map((row) => [
      row.target,
      ...row.values.map((v) => figure(v, row.unit)),
      figure(row.median, row.unit),
      row.goal,
      row.must,
      row.verdict,
    ]),
  }
}

const delta = (summary: TimingSummary | undefined) =>
  summary === undefined ? '—' : `${summary.median.toFixed(3)} / ${summary.p95.toFixed(3)}`

/** The figures behind the targets: increments, the SDK's share, start-up, first answer through MCP, own RSS. */
export function ownCostTables(report: BenchReport): ReportTable[] {
  const section = ownCostSection
  const tables: ReportTable[] = [
    {
      section,
      title: "Each layer's own increment per warm query, paired within each turn, ms (median / p95)",
      header: [
        'workspace (mix) / operation',
        'ctx.lsp − floor',
        'tools − ctx.lsp',
        'mcp − tools',
        'all − floor',
        'turns',
        'wrong (floor, ctx.lsp, tools, mcp) / note',
      ],
      rows: (report.increments ?? []).map((i) => [
        `${i.workspace} (${i.mix}) / ${i.mix === 'read mix' ? operationColumn(report, i.operation) : i.operation}`,
        delta(i.ctxLsp),
        delta(i.tools),
        delta(i.mcp),
        delta(i.total),
        String(i.turns),
        i.note ?? ['floor', 'ctx.lsp', 'tools', 'mcp'].map((layer) => String(i.wrong[layer] ?? '—')).join(', '),
      ]),
    },
  ]
  const { sdkNoop, startup } = report
  if (sdkNoop !== undefined)
    tables.push({
      section,
      title: "The MCP SDK's own round trip: a no-op server (low-level Server, one constant tool), ms",
      header: ['series', 'median', 'p95', 'min', 'calls'],
      rows: [
        [
          'tools/call, no-op SDK server over stdio',
          ms(sdkNoop.roundTrip.median),
          ms(sdkNoop.roundTrip.p95),
          ms(sdkNoop.roundTrip.min),
          String(sdkNoop.calls),
        ],
      ],
    })
  if (startup !== undefined) {
    const row = (name: string, s: TimingSummary) => [name, ms(s.median), ms(s.p95), ms(s.min), String(s.count)]
    tables.push({
      section,
      title: `Start-up, ${startup.rounds} rounds alternating (the CLI from ${startup.entry === 'dist' ? 'dist/cli.js' : 'its sources'}; mcp --root ${startup.workspace}), ms`,
      header: ['series', 'median', 'p95', 'min', 'n'],
      rows: [
        row('node -e 0: spawn → exit', startup.nodeExit),
        row('codeseam --help: spawn → exit', startup.helpExit),
        row('  added over node (paired)', startup.helpAdded),
        row('codeseam mcp: spawn → initialize answered', startup.mcpInitialize),
        row('  added over node (paired)', startup.mcpInitializeAdded),
        row('no-op SDK server: spawn → initialize answered', startup.noopInitialize),
        row('  added over node (paired)', startup.noopInitializeAdded),
        ...(startup.proxyListWarm === undefined || startup.proxyListWarmAdded === undefined
          ? []
          : [
              row('codeseam mcp, default flags, daemon running: → tools/list answered', startup.proxyListWarm),
              row('  added over node (paired)', startup.proxyListWarmAdded),
            ]),
        ...(startup.proxyListFirst === undefined || startup.proxyListFirstAdded === undefined
          ? []
          : [
              row('codeseam mcp, default flags, first start: → tools/list answered', startup.proxyListFirst),
              row('  added over node (paired)', startup.proxyListFirstAdded),
            ]),
      ],
    })
  }
  if ((report.firstAnswer ?? []).length > 0)
    tables.push({
      section,
      title: 'Process start → first complete references answer through `codeseam mcp`, ms',
      header: ['corpus / symbol', 'oracle', 'bare primed', 'codeseam mcp', '× bare primed', 'mcp complete', 'bare complete'],
      rows: report.firstAnswer!.map((f) => [
        `${f.corpus} / ${f.symbol}`,
        String(f.expected),
        ms(f.barePrimed.ms),
        ms(f.mcp.ms),
        !f.mcp.complete ? 'failed' : !f.barePrimed.complete ? 'bare failed' : ratio(f.ratio),
        completeness(f.mcp),
        completeness(f.barePrimed),
      ]),
    })
  if ((report.ownMemory ?? []).length > 0)
    tables.push({
      section,
      title: "RSS of codeseam's own processes and of the servers while `codeseam mcp` serves (median / max of the samples)",
      header: ['workspace', 'own (host + watchdog)', 'host', 'watchdog', 'watchdog command', 'servers tree', 'server processes', 'samples'],
      rows: report.ownMemory!.map((m) => [
        m.workspace,
        `${mb(m.own.median)} / ${mb(m.own.max)}`,
        `${mb(m.host.median)} / ${mb(m.host.max)}`,
        m.watchdogs === 0 ? 'none found' : `${mb(m.watchdog.median)} / ${mb(m.watchdog.max)}`,
        (m.watchdogCommand ?? '—').replace(/\s+/g, ' ').slice(0, 24),
        `${mb(m.servers.median)} / ${mb(m.servers.max)}`,
        String(m.serverProcesses),
        String(m.samples),
      ]),
    })
  return tables
}

/** The section holding the "many agents" tables. */
export const manyAgentsSection = 'Many agents: concurrent sessions with and without the daemon'

const rss = (figure: { readonly median: number; readonly max: number } | undefined) =>
  figure === undefined ? '—' : `${mb(figure.median)} / ${mb(figure.max)}`

/** The "many agents" tables: latency per call against the bare server under the same load, and RSS. */
export function manyAgentsTables(report: BenchReport): ReportTable[] {
  const results = report.manyAgents ?? []
  if (results.length === 0) return []
  const section = manyAgentsSection
  const name = (r: (typeof results)[number]) => `${r.mode} / ${r.sessions}`
  return [
    {
      section,
      title: `Per call under concurrent load on ${results[0]!.workspace}, ms (bare: the bare server, N request streams, same rounds)`,
      header: [
        'mode / sessions',
        'p50',
        'p95',
        'bare p50',
        'bare p95',
        'added p50',
        'added p95',
        'calls',
        'errors',
        'wrong (codeseam, bare)',
      ],
      rows: results.map((r) => [
        name(r),
        ms(r.latency.median),
        ms(r.latency.p95),
        ms(r.bare.median),
        ms(r.bare.p95),
        ms(r.addedP50),
        ms(r.addedP95),
        String(r.latency.count),
        String(r.errors),
        `${r.wrong}, ${r.bareWrong}`,
      ]),
    },
    {
      section,
      title: 'RSS while the sessions are served (median / max of the samples)',
      header: [
        'mode / sessions',
        'total',
        'stdio proxies',
        'largest proxy',
        'largest proxy, private',
        'hosts (daemon or mcp) + watchdogs',
        'language servers',
        'server processes',
        'bare server',
        'samples',
      ],
      rows: results.map((r) => [
        name(r),
        rss(r.memory.total),
        rss(r.memory.proxies),
        rss(r.memory.largestProxy),
        rss(r.memory.largestProxyPrivate),
        rss(r.memory.hosts),
        rss(r.memory.servers),
        String(r.memory.serverProcesses),
        mb(r.bareServerRssBytes),
        String(r.memory.samples),
      ]),
    },
  ]
}

/** The section holding the "keeping up with the disk" table (issue 43). */
export const diskChangesSection = 'Keeping up with the disk'

/** Keeping up with the disk: codeseam told nothing against the bare server told of the change, per series. */
export function diskChangeTables(report: BenchReport): ReportTable[] {
  const result = report.diskChanges
  if (result === undefined || result.series.length === 0) return []
  return [
    {
      section: diskChangesSection,
      title: `${result.question}, ms: codeseam (ctx.lsp, told nothing) against the bare server told of the change`,
      header: [
        'server (workspace) / change',
        'bare told',
        'bare median',
        'bare p95',
        'codeseam median',
        'codeseam p95',
        '× bare (median)',
        '× bare (p95)',
        'paired Δ median / p95',
        'first right answer: bare / codeseam median',
        'turns',
        'wrong (bare, codeseam)',
      ],
      rows: result.series.map((s) => [
        `${s.server} (${s.workspace}) / ${s.change}${s.path === undefined ? '' : `: ${s.path}`}`,
        s.bareTold,
        ms(s.bare.median),
        ms(s.bare.p95),
        ms(s.codeseam.median),
        ms(s.codeseam.p95),
        ratio(s.ratio.median),
        ratio(s.ratio.p95),
        `${ms(s.paired.median)} / ${ms(s.paired.p95)}`,
        `${ms(s.firstCorrect.bare.median)} / ${ms(s.firstCorrect.codeseam.median)}`,
        String(s.turns),
        wrongText(s),
      ]),
    },
  ]
}

/** "bare, codeseam", with the step (change made / undone) a wrong first answer came on. */
function wrongText(s: NonNullable<BenchReport['diskChanges']>['series'][number]): string {
  const steps = (counts: ReadonlyArray<number>) =>
    s.change === 'nothing changed' || counts.every((n) => n === 0)
      ? ''
      : ` (${counts[0] ?? 0} after the change, ${counts[1] ?? 0} after undoing it)`
  return `${s.wrong.bare}${steps(s.wrong.byStep.bare)}, ${s.wrong.codeseam}${steps(s.wrong.byStep.codeseam)}`
}

/** The section holding the "pages from the computed answer" table (issue 53). */
export const keptPagesSection = 'Pages from the computed answer'

/** Later pages of a large references answer, cut from the kept answer, against the first page and the bare query. */
export function keptPagesTables(report: BenchReport): ReportTable[] {
  const r = report.keptPages
  if (r === undefined) return []
  return [
    {
      section: keptPagesSection,
      title: `code_navigate references, ${r.limit} a page, ms: each later page against the first page and the bare server's whole query`,
      header: [
        'workspace (references)',
        'bare query median',
        'first page median',
        'later page median',
        'later page p95',
        'later ÷ first',
        'later ÷ bare',
        'later pages timed',
      ],
      rows: [
        [
          `${r.workspace} (${r.references})`,
          ms(r.bare.median),
          ms(r.first.median),
          ms(r.later.median),
          ms(r.later.p95),
          ratio(r.laterToFirst),
          ratio(r.laterToBare),
          String(r.later.count),
        ],
      ],
    },
  ]
}

/** The section holding the telemetry-overhead tables (issue 18). */
export const telemetrySection = 'Telemetry overhead'

const spanText = (names: Readonly<Record<string, number>> | undefined) =>
  names === undefined || Object.keys(names).length === 0
    ? 'none'
    : Object.entries(names)
        .map(([name, count]) => `${name} × ${count}`)
        .join(', ')

/** The verdict on a median against its target, said undecided when the run's 95% interval straddles the target. */
function telemetryVerdict(median: number, interval: { readonly low: number; readonly high: number }, target: number): string {
  const verdict = verdictOf(median, target)
  return interval.low <= target && target < interval.high ? `${verdict} (the 95% interval straddles the target)` : verdict
}

/** Telemetry overhead: instrumented − plain tool calls, paired, without and with an SDK; then per operation. */
export function telemetryTables(report: BenchReport): ReportTable[] {
  const result = report.telemetry
  if (result === undefined) return []
  const section = telemetrySection
  const d3 = (value: number) => value.toFixed(3)
  return [
    {
      section,
      title: `Added latency per tool call, instrumented − plain within each pair, ms (${result.workspace}: ${result.operations.join(', ')})`,
      note: [`calls: ${result.calls}`, ...result.setup],
      header: [
        'series',
        'added median',
        '95% interval of the median',
        'added p95',
        'instrumented median',
        'plain median',
        'CPU added median',
        'spans per instrumented call',
        'exports to the sink (traces, metrics)',
        'pairs',
        'wrong (instrumented, plain)',
        'target (median)',
        'verdict',
      ],
      rows: result.series.map((s) => [
        s.series,
        d3(s.added.median),
        `${d3(s.addedMedianInterval.low)} … ${d3(s.addedMedianInterval.high)}`,
        d3(s.added.p95),
        ms(s.instrumented.median),
        ms(s.plain.median),
        d3(s.addedCpu.median),
        s.spansPerCall === undefined
          ? 'no SDK: nothing records'
          : `median ${s.spansPerCall.median}${s.spansPerCall.min === s.spansPerCall.max ? '' : ` (${s.spansPerCall.min}–${s.spansPerCall.max})`}; mean by name: ${spanText(s.spanNames)}${s.spansDuringPlainCalls ? `; ${s.spansDuringPlainCalls} spans during plain calls` : ''}`,
        s.exported === undefined ? '—' : `${s.exported.traceRequests}, ${s.exported.metricRequests} (${kb(s.exported.bytes)})`,
        String(s.pairs),
        `${s.wrong.instrumented}, ${s.wrong.plain}`,
        `≤ ${s.target} ms`,
        telemetryVerdict(s.added.median, s.addedMedianInterval, s.target),
      ]),
    },
    {
      section,
      title: 'Added latency per tool call by operation, instrumented − plain, ms (median / p95)',
      header: ['series / operation', 'added', 'spans per instrumented call', 'pairs'],
      rows: result.series.flatMap((s) =>
        Object.entries(s.byOperation).map(([operation, o]) => [
          `${s.series} / ${operation}`,
          `${d3(o.added.median)} / ${d3(o.added.p95)}`,
          o.spansPerCall === undefined ? '—' : `${o.spansPerCall}: ${spanText(o.spanNames)}`,
          String(o.added.count),
        ]),
      ),
    },
  ]
}

/** Every operation of the read mix over all workspaces, in the order first met (a workspace may lack one). */
function operationsOf(report: BenchReport): string[] {
  return [...new Set(report.readMix.flatMap((r) => Object.keys(r.byOperation)))]
}

/** The tables of a report, as printed on stdout and embedded in docs/performance.md (the targets table apart). */
export function reportTables(report: BenchReport): ReportTable[] {
  return [
    {
      title: 'Read mix (definition, references, hover, documentSymbols; any derived operation apart), ms per query',
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
      title: 'Read mix by operation, median ms (× floor; a derived operation × the floor answering its ingredients)',
      header: ['workspace / layer', ...operationsOf(report).map((operation) => operationColumn(report, operation)), 'references found'],
      rows: report.readMix.map((r) => [
        `${r.workspace} / ${r.layer}`,
        ...operationsOf(report).map((operation) => {
          const o = r.byOperation[operation]
          return o === undefined ? '—' : `${ms(o.summary.median)} (${ratio(o.ratio?.median)})`
        }),
        String(r.byOperation['references']?.locations ?? '—'),
      ]),
    },
    ...derivedTables(report),
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
    ...monorepoTables(report),
    ...languageTables(report),
    ...ownCostTables(report),
    ...manyAgentsTables(report),
    ...diskChangeTables(report),
    ...keptPagesTables(report),
    ...telemetryTables(report),
  ]
}

/** The whole report as text for stdout. */
export function printReport(report: BenchReport): string {
  const summary = runsSummaryTable(report)
  const parts = [...(summary === undefined ? [] : [summary]), targetsTable(report), ...reportTables(report)]
    .filter((table) => table.rows.length > 0)
    .map(
      (table) =>
        `${table.section === undefined ? '' : `${table.section}: `}${table.title}\n${(table.note ?? []).map((line) => `  ${line}\n`).join('')}${formatTable(table.header, table.rows)}`,
    )
  if (report.missing.length > 0) parts.push(`Not measured\n${report.missing.map((m) => `- ${m.what}: ${m.why}`).join('\n')}`)
  return parts.join('\n\n')
}
