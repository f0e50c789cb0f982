// Issue 15's targets for codeseam's own cost, each with the figure this run measured and a verdict.
import type { BenchReport, TargetVerdictRow } from './report.js'
import { listedDifferencesText } from './index-differences.js'

/** One target: its figure from the report (undefined when not measured), the goal and the floor it must hold. */
export interface TargetFigure {
  readonly target: string
  readonly unit: 'ms' | '×' | 'MB' | ''
  readonly value?: number
  /** What the figure is, in words (which workspace was worst, the figures beside it). */
  readonly detail: string
  readonly goal: number
  readonly must?: number
}

/** met: within the goal; not met: over the goal but within the must; over the must: the floor is broken too. */
export function verdictOf(value: number | undefined, goal: number, must?: number): TargetVerdictRow['verdict'] {
  if (value === undefined || Number.isNaN(value)) return 'not measured'
  if (value <= goal) return 'met'
  return must !== undefined && value > must ? 'not met, over the must' : 'not met'
}

const mb = (bytes: number) => bytes / 1024 / 1024
const fixed = (value: number, unit: TargetFigure['unit']) =>
  !Number.isFinite(value)
    ? 'no complete answer'
    : unit === '×'
      ? `${value.toFixed(2)}×`
      : unit === 'MB'
        ? `${value.toFixed(0)} MB`
        : unit === 'ms'
          ? `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`
          : String(value)

/** The largest of named figures, and which it was. */
function worst(entries: ReadonlyArray<readonly [string, number]>): { value?: number; where: string } {
  if (entries.length === 0) return { where: '' }
  const [where, value] = entries.reduce((a, b) => (b[1] > a[1] ? b : a))
  return { value, where }
}

/** Issue 51's allowance for the servers codeseam runs: the bare server's RSS + 10 % + 80 MB. */
const serverAllowance = (bareBytes: number) => 1.1 * mb(bareBytes) + 80

/**
 * Every place this run measured the servers' RSS under codeseam beside the bare server's, as codeseam ÷ the
 * allowance: the generated workspaces busy (in process, and through `codeseam mcp`) against the floor primed busy, the
 * real repositories at each side's first answer (bare primed), Go and Rust at their first answers.
 */
function serverMemoryPairs(report: BenchReport): Array<readonly [string, number]> {
  const pairs: Array<{ where: string; bare: number; codeseam: number }> = []
  for (const workspace of new Set(report.memory.map((m) => m.workspace))) {
    const at = (phase: string) => report.memory.find((m) => m.workspace === workspace && m.phase === phase)?.serverRssBytes
    // Against the bare server holding the projects codeseam loads (primed), when this run measured it.
    const primed = at('floor primed busy')
    const bare = primed ?? at('floor busy')
    for (const phase of ['busy', 'mcp busy']) {
      const codeseam = at(phase)
      if (bare !== undefined && codeseam !== undefined)
        pairs.push({ where: `${workspace} ${phase}${primed === undefined ? '' : ' (bare primed)'}`, bare, codeseam })
    }
  }
  for (const c of report.realRepositories?.coldStart ?? []) {
    if (c.bare.rssBytes !== undefined && c.codeseam.rssBytes !== undefined)
      pairs.push({ where: `${c.corpus} / ${c.symbol} / ${c.operation}`, bare: c.bare.rssBytes, codeseam: c.codeseam.rssBytes })
  }
  for (const l of report.languages ?? []) {
    const rss = l.firstAnswer?.rssAtAnswer
    if (rss?.bare !== undefined && rss.codeseam !== undefined)
      pairs.push({ where: `${l.language} / ${l.corpus}`, bare: rss.bare, codeseam: rss.codeseam })
  }
  return pairs.map(
    ({ where, bare, codeseam }) =>
      [`${where}: ${mb(codeseam).toFixed(0)} MB against bare ${mb(bare).toFixed(0)} MB`, mb(codeseam) / serverAllowance(bare)] as const,
  )
}

/** Every target of issue 15 with this report's figure. */
export function targetFigures(report: BenchReport): TargetFigure[] {
  const { startup, sdkNoop } = report
  const increments = (report.increments ?? []).filter((i) => i.operation === 'all')
  const incrementFigure = (
    key: 'ctxLsp' | 'tools' | 'mcp' | 'total',
    target: string,
    goal: number,
    must?: number,
    extra = '',
  ): TargetFigure => {
    const found = worst(increments.flatMap((i) => (i[key] === undefined ? [] : [[`${i.workspace} (${i.mix})`, i[key]!.median] as const])))
    const all = increments.flatMap((i) => (i[key] === undefined ? [] : [i[key]!.median]))
    return {
      target,
      unit: 'ms',
      ...(found.value === undefined ? {} : { value: found.value }),
      detail:
        found.value === undefined
          ? ''
          : `worst mix: ${found.where}; medians ${Math.min(...all).toFixed(3)}–${Math.max(...all).toFixed(3)} ms over ${all.length} mixes${extra}`,
      goal,
      ...(must === undefined ? {} : { must }),
    }
  }
  const firstAnswer = report.firstAnswer ?? []
  const firstWorst = worst(
    firstAnswer.map(
      (f) =>
        [
          `${f.corpus} / ${f.symbol}`,
          f.mcp.complete && f.barePrimed.complete && f.ratio !== undefined ? f.ratio : Number.POSITIVE_INFINITY,
        ] as const,
    ),
  )
  const own = worst((report.ownMemory ?? []).map((m) => [m.workspace, mb(m.own.median)] as const))
  const serverMemory = worst(serverMemoryPairs(report))
  // An incomplete first answer is a failure: no ratio, shown as infinite.
  const monorepo = report.monorepoFirstAnswer
  const monorepoWorst = worst((monorepo?.symbols ?? []).map((s) => [s.symbol, s.ratio ?? Number.POSITIVE_INFINITY] as const))
  // An answer that lacks only differences docs/index.md lists between the index and the server counts, said by name.
  const indexSymbols = monorepo?.index === undefined ? [] : monorepo.symbols
  const indexWorst = worst(
    indexSymbols.map((s) => [s.symbol, s.fromIndex?.ratio ?? s.fromIndex?.ratioApartFromListed ?? Number.POSITIVE_INFINITY] as const),
  )
  const apartFromListed = indexSymbols
    .filter((s) => s.fromIndex?.ratio === undefined && s.fromIndex?.ratioApartFromListed !== undefined)
    .map(
      (s) => `${s.symbol}: complete apart from differences docs/index.md lists (${listedDifferencesText(s.fromIndex?.listedDifferences)})`,
    )
  const watchdogRows = (report.ownMemory ?? []).filter((m) => m.watchdogs > 0)
  const watchdog = worst(watchdogRows.map((m) => [m.workspace, mb(m.watchdog.median)] as const))
  const concurrency = report.concurrency
  const agents = report.manyAgents ?? []
  const daemonModes = agents.filter((a) => a.mode !== 'no daemon')
  const at = (mode: string, sessions: number) => daemonModes.find((a) => a.mode === mode && a.sessions === sessions)
  const modes = [...new Set(daemonModes.map((a) => a.mode))]
  const most = Math.max(0, ...agents.map((a) => a.sessions))
  // One server's worth: the daemon's servers at the most sessions against the bare server that answered the same
  // load. Not against the daemon's own figure at one session: the server itself grows with the calls it answers
  // (the bare server does too), which says nothing about how many servers run.
  const serverWeight = worst(
    modes.flatMap((mode) => {
      const many = at(mode, most)
      return many === undefined || many.bareServerRssBytes === 0
        ? []
        : [[mode, many.memory.servers.median / many.bareServerRssBytes] as const]
    }),
  )
  const serverCount = worst(
    modes.flatMap((mode) => (at(mode, most) === undefined ? [] : [[mode, at(mode, most)!.memory.serverProcesses] as const])),
  )
  // What a proxy adds is its private memory: its RSS also counts node's code, shared with every node process.
  const proxy = worst(
    daemonModes.flatMap((a) =>
      a.memory.largestProxyPrivate === undefined
        ? []
        : [
            [
              `${a.sessions} sessions (RSS ${mb(a.memory.largestProxy?.median ?? 0).toFixed(0)} MB)`,
              mb(a.memory.largestProxyPrivate.median),
            ] as const,
          ],
    ),
  )
  const latencyGrowth = worst(
    modes.flatMap((mode) => {
      const one = at(mode, 1)
      const many = at(mode, most)
      if (one === undefined || many === undefined || most === 1) return []
      // Added latency at N=1 at or below zero gives no ratio: N sessions must then add at most that little.
      return [[mode, one.addedP50 > 0 ? many.addedP50 / one.addedP50 : many.addedP50 <= 0 ? 0 : Number.POSITIVE_INFINITY] as const]
    }),
  )
  const addedText = (mode: string) => `${mode}: ${at(mode, 1)?.addedP50.toFixed(2)} → ${at(mode, most)?.addedP50.toFixed(2)} ms`
  const failures = concurrency.reduce((total, c) => total + c.errors + c.incorrect, 0)
  return [
    {
      target: '`codeseam --help`, added over bare `node -e 0` (median of paired rounds)',
      unit: 'ms',
      ...(startup === undefined ? {} : { value: startup.helpAdded.median }),
      detail:
        startup === undefined
          ? ''
          : `${startup.rounds} rounds; --help ${startup.helpExit.median.toFixed(0)} ms, node ${startup.nodeExit.median.toFixed(0)} ms (${startup.entry})`,
      goal: 150,
      must: 300,
    },
    {
      target: 'process start → MCP `initialize` answered, added over bare node',
      unit: 'ms',
      ...(startup === undefined ? {} : { value: startup.mcpInitializeAdded.median }),
      detail:
        startup === undefined
          ? ''
          : `codeseam mcp ${startup.mcpInitialize.median.toFixed(0)} ms; no-op SDK server ${startup.noopInitialize.median.toFixed(0)} ms (added ${startup.noopInitializeAdded.median.toFixed(0)} ms)`,
      goal: 250,
      must: 400,
    },
    {
      target: 'process start → MCP `initialize` + `tools/list`, default flags (the relay, its daemon running), added over bare node',
      unit: 'ms',
      ...(startup?.proxyListWarmAdded === undefined ? {} : { value: startup.proxyListWarmAdded.median }),
      detail: startup?.proxyListWarm === undefined ? '' : `codeseam mcp ${startup.proxyListWarm.median.toFixed(0)} ms (${startup.entry})`,
      goal: 250,
    },
    {
      target: 'the same on a machine’s first start (no daemon yet), added over bare node',
      unit: 'ms',
      ...(startup?.proxyListFirstAdded === undefined ? {} : { value: startup.proxyListFirstAdded.median }),
      detail: startup?.proxyListFirst === undefined ? '' : `codeseam mcp ${startup.proxyListFirst.median.toFixed(0)} ms (${startup.entry})`,
      goal: 400,
    },
    {
      target: 'start → first complete answer through `codeseam mcp`, × bare primed, on every workspace (worst)',
      unit: '×',
      ...(firstWorst.value === undefined ? {} : { value: firstWorst.value }),
      detail:
        firstAnswer.length === 0
          ? ''
          : `worst: ${firstWorst.where}; ${firstAnswer.length} symbols, ${firstAnswer.filter((f) => !f.mcp.complete).length} incomplete`,
      goal: 1.3,
    },
    incrementFigure('ctxLsp', 'per warm call: ctx.lsp − bare server (median, worst mix)', 0.3),
    incrementFigure('tools', 'per warm call: tools − ctx.lsp (median, worst mix)', 0.7, 1.5),
    incrementFigure(
      'mcp',
      'per warm call: MCP − tools (median, worst mix)',
      1.0,
      2.5,
      sdkNoop === undefined
        ? ''
        : `; the SDK's own no-op round trip: ${sdkNoop.roundTrip.median.toFixed(3)} ms median, ${sdkNoop.roundTrip.p95.toFixed(3)} ms p95`,
    ),
    incrementFigure('total', 'per warm call: all layers together − bare server (median, worst mix)', 2),
    {
      target: "RSS of codeseam's own processes (MCP host + watchdog) while serving, above the servers' tree",
      unit: 'MB',
      ...(own.value === undefined ? {} : { value: own.value }),
      detail: own.value === undefined ? '' : `median of the samples, worst workspace: ${own.where}`,
      goal: 80,
    },
    {
      target: "RSS of the language servers' trees under codeseam ÷ (the bare server's × 1.1 + 80 MB), worst workspace",
      unit: '×',
      ...(serverMemory.value === undefined ? {} : { value: serverMemory.value }),
      detail: serverMemory.value === undefined ? '' : `worst: ${serverMemory.where}`,
      goal: 1,
    },
    {
      target: 'large monorepo (tanstack-query, linked): spawn → first complete references answer, codeseam ÷ bare primed (worst symbol)',
      unit: '×',
      ...(monorepoWorst.value === undefined ? {} : { value: monorepoWorst.value }),
      detail: monorepoWorst.value === undefined ? '' : `worst: ${monorepoWorst.where}`,
      goal: 1.3,
    },
    {
      target: 'the same from a precomputed index: `codeseam mcp` with a matching index ÷ bare primed (worst symbol)',
      unit: '×',
      ...(indexWorst.value === undefined ? {} : { value: indexWorst.value }),
      detail: indexWorst.value === undefined ? '' : [`worst: ${indexWorst.where}`, ...apartFromListed].join('; '),
      goal: 0.3,
    },
    {
      target: 'RSS of the watchdog',
      unit: 'MB',
      ...(watchdog.value === undefined ? {} : { value: watchdog.value }),
      detail:
        watchdog.value === undefined
          ? (report.ownMemory ?? []).length > 0
            ? 'no watchdog process was found'
            : ''
          : `worst workspace: ${watchdog.where}`,
      goal: 5,
    },
    {
      target: '100 concurrent reads: errors + wrong answers, every layer and workspace',
      unit: '',
      ...(concurrency.length === 0 ? {} : { value: failures }),
      detail:
        concurrency.length === 0
          ? ''
          : `${concurrency.reduce((t, c) => t + c.errors, 0)} errors, ${concurrency.reduce((t, c) => t + c.incorrect, 0)} wrong over ${concurrency.length} bursts`,
      goal: 0,
    },
    {
      target: `many agents: language-server processes with the daemon, ${most} sessions on one root (most in a sample)`,
      unit: '',
      ...(serverCount.value === undefined ? {} : { value: serverCount.value }),
      detail: serverCount.value === undefined ? '' : `worst mode: ${serverCount.where}`,
      goal: 1,
    },
    {
      target: `many agents: language servers' RSS with the daemon, ${most} sessions, ÷ one bare server after the same load`,
      unit: '×',
      ...(serverWeight.value === undefined ? {} : { value: serverWeight.value }),
      detail:
        serverWeight.value === undefined
          ? ''
          : `worst mode: ${serverWeight.where}; servers (median of the samples) at 1 → ${most} sessions, bare server after the same load: ${modes
              .map(
                (mode) =>
                  `${mode}: ${mb(at(mode, 1)?.memory.servers.median ?? 0).toFixed(0)} → ${mb(at(mode, most)?.memory.servers.median ?? 0).toFixed(0)} MB, bare ${mb(at(mode, 1)?.bareServerRssBytes ?? 0).toFixed(0)} → ${mb(at(mode, most)?.bareServerRssBytes ?? 0).toFixed(0)} MB`,
              )
              .join('; ')}`,
      goal: 1.25,
    },
    {
      target: 'many agents: memory each `codeseam mcp` stdio proxy adds (private memory of the largest, median of the samples)',
      unit: 'MB',
      ...(proxy.value === undefined ? {} : { value: proxy.value }),
      detail: proxy.value === undefined ? '' : `worst: ${proxy.where}`,
      goal: 50,
    },
    {
      target: `many agents: p50 added over the bare server with the daemon, ${most} sessions ÷ 1 session`,
      unit: '×',
      ...(latencyGrowth.value === undefined ? {} : { value: latencyGrowth.value }),
      detail: latencyGrowth.value === undefined ? '' : `worst mode: ${latencyGrowth.where}; ${modes.map(addedText).join('; ')}`,
      goal: 2,
    },
  ]
}

/** The targets table's rows: measured value, the target, the must, met / not met. */
export function targetRows(report: BenchReport): TargetVerdictRow[] {
  return targetFigures(report).map((figure) => ({
    target: figure.target,
    measured:
      figure.value === undefined
        ? 'not measured'
        : `${fixed(figure.value, figure.unit)}${figure.detail === '' ? '' : ` (${figure.detail})`}`,
    goal: `≤ ${fixed(figure.goal, figure.unit)}`,
    must: figure.must === undefined ? '—' : `≤ ${fixed(figure.must, figure.unit)}`,
    verdict: verdictOf(figure.value, figure.goal, figure.must),
  }))
}
