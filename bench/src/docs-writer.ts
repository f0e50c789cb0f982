import { writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { languagesSection } from './language-tables.js'
import { ownMemoryFindings } from './own-memory-findings.js'
import { layerDescriptions, layers, type BenchReport } from './report.js'
import {
  diskChangesSection,
  keptPagesSection,
  manyAgentsSection,
  ownCostSection,
  realRepositoriesSection,
  reportTables,
  runsSummaryTable,
  targetsTable,
  telemetrySection,
} from './table.js'

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const escapeCell = (text: string) => text.replace(/\|/g, '\\|')

function markdownTable(header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string {
  // Figures align right; a column of words aligns left.
  const numeric = header.map((_, i) => i > 0 && rows.every((row) => /^([—-]|\d|$)/.test(row[i] ?? '')))
  return [
    `| ${header.map(escapeCell).join(' | ')} |`,
    `|${header.map((_, i) => (numeric[i] ? ' ---: ' : ' --- ')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
  ].join('\n')
}

const layerColors: Readonly<Record<string, string>> = { floor: '#6b7280', 'ctx.lsp': '#2563eb', tools: '#16a34a', mcp: '#d97706' }

/**
 * The chart: per workspace, each layer's read-mix median and p95 as a multiple of the floor's (a bar for the
 * median, a tick for the p95), on one shared scale.
 */
export function performanceSvg(report: BenchReport): string {
  const workspaces = [...new Set(report.readMix.map((r) => r.workspace))]
  const rowHeight = 18
  const groupGap = 16
  const left = 130
  const width = 900
  const plotWidth = 500
  const labelX = left + plotWidth + 12
  const top = 54
  const rows = report.readMix.filter((r) => r.ratio !== undefined)
  // Log scale from 0.5× so a 1.2× layer and a 20× layer are both readable.
  const minRatio = 0.5
  const maxRatio = Math.max(4, ...rows.map((r) => Math.max(r.ratio!.median, r.ratio!.p95)))
  const scale = (value: number) =>
    ((Math.log(Math.min(Math.max(value, minRatio), maxRatio)) - Math.log(minRatio)) / (Math.log(maxRatio) - Math.log(minRatio))) * plotWidth
  const parts: string[] = []
  let y = top
  for (const workspace of workspaces) {
    parts.push(`<text x="8" y="${y + 12}" font-weight="bold">${escapeXml(workspace)}</text>`)
    y += rowHeight
    for (const row of rows.filter((r) => r.workspace === workspace)) {
      const color = layerColors[row.layer] ?? '#000'
      parts.push(
        `<text x="${left - 8}" y="${y + 12}" text-anchor="end">${escapeXml(row.layer)}</text>`,
        `<rect x="${left}" y="${y + 2}" width="${scale(row.ratio!.median).toFixed(1)}" height="${rowHeight - 5}" fill="${color}"/>`,
        `<line x1="${(left + scale(row.ratio!.p95)).toFixed(1)}" x2="${(left + scale(row.ratio!.p95)).toFixed(1)}" y1="${y}" y2="${y + rowHeight - 1}" stroke="#111" stroke-width="2"/>`,
        `<text x="${labelX}" y="${y + 12}">${row.ratio!.median.toFixed(2)}× (p95 ${row.ratio!.p95.toFixed(2)}×) · ${row.all.median.toFixed(2)} ms</text>`,
      )
      y += rowHeight
    }
    y += groupGap
  }
  const height = y + 28
  const oneX = left + scale(1)
  const machine = report.machine
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="8" y="20" font-size="15" font-weight="bold">Read-query latency per layer, as a multiple of the bare language server</text>`,
    `<text x="8" y="38" fill="#444">bar: median ratio · tick: p95 ratio · log scale · ${escapeXml(`${machine.cpuModel}, ${machine.cores} cores, node ${machine.node}, ${report.generatedAt.slice(0, 10)}`)}</text>`,
    `<line x1="${oneX.toFixed(1)}" x2="${oneX.toFixed(1)}" y1="${top}" y2="${y - groupGap}" stroke="#999" stroke-dasharray="4 3"/>`,
    `<text x="${oneX.toFixed(1)}" y="${y}" text-anchor="middle" fill="#666">1× = floor</text>`,
    ...parts,
    `</svg>`,
    '',
  ].join('\n')
}

/** The "many agents" section's introduction. */
const manyAgentsIntroduction: ReadonlyArray<string> = [
  'Several agents on the same workspace at once (bench/src/scenarios/many-agents.ts), 1, 4 and 8 sessions, three ways:',
  '',
  '- **no daemon**: N × `codeseam mcp --daemon never --root <ws>` over stdio, each with its own host and servers;',
  '- **daemon, stdio proxies**: N × `codeseam mcp --daemon auto --root <ws>` over stdio; the first starts the daemon',
  '  (`codeseam serve --auto`), the others join it, and every proxy relays its session to it;',
  '- **daemon, direct HTTP**: one `codeseam serve --http 127.0.0.1:0 --no-socket`, N MCP SDK clients over',
  '  Streamable HTTP with its bearer token, the session in the URL (`?root=<ws>&trust=trusted&edits=read-only`).',
  '',
  'Every session is trusted and read-only. The workspace is the generated ts-500 (one tsconfig project), so the',
  "bare server and codeseam find the same answers and the added latency is codeseam's own. Each series gets",
  'fresh processes and a fresh daemon, in a private runtime folder (`CODESEAM_RUNTIME_DIR`, 0700), so the bench',
  "never joins a user's daemon; the daemons are stopped by their pid at the end of each series, even on failure.",
  'After every session answered each query of the mix correctly once and one untimed round, the timed rounds',
  'begin: in each, every session runs the native read mix (definition, references, hover, document symbols) one',
  'call after another, starting at its own place in the mix, all sessions at once. *bare*: one bare server (the',
  "floor's client, the same positions) answering N such streams at once, in the same rounds (the order",
  'alternating each round). "added" is codeseam − bare, p50 − p50 and p95 − p95. Without the daemon the N',
  "sessions run N servers, which compete for the machine's cores; the bare figure is still one server's.",
  'RSS is sampled every 250 ms during the timed rounds: the stdio proxies (daemon mode), the hosts (the daemon, or',
  "the N in-process `codeseam mcp`) with their watchdogs, and the language servers' trees (the hosts'",
  'children that are not watchdogs); "server processes" counts those children.',
]

/** Text under a section's heading, before its tables. */
const sectionIntroductions: Readonly<Record<string, ReadonlyArray<string>>> = {
  [diskChangesSection]: [
    "What codeseam's catch-up with the disk before each question costs (issue 43; bench/src/scenarios/disk-changes.ts).",
    'On fresh copies of the generated 50-file TypeScript workspace (the native TS 7 server) and of the small Python one',
    '(pyright), one copy per side, both sides are asked for the references of the hot symbol in turns, the side going',
    'first alternating. *codeseam*: `ctx.lsp` over a local host, asked right after a plain write to disk and told',
    'nothing. *bare*: the bare client (advertising watched files, as an editor does) told of the change the way an',
    'editor would — `didChange` for the file it has open (the one it asks from), `workspace/didChangeWatchedFiles`',
    '(Changed, or Created / Deleted) for the others — then asked; its time runs from the end of the write through the',
    "notification to the answer, as codeseam's does. Each series alternates a change and its undoing: a use of the hot",
    'symbol appended to a file and removed again, or a file using it created and deleted. Every answer is compared',
    'with the set known to be true (the warm answer plus the added uses, or without them), location by location; a',
    'different first answer counts as wrong, and that side is asked again at once until it is right ("first right',
    'answer", timed from the same start). "× bare" is codeseam ÷ bare; "paired Δ" is codeseam − bare within each',
    'turn. Nothing sleeps: each side waits only for its own answers. For pyright, files created or deleted cost',
    'codeseam a quiet wait of about a second (pyright plans its files on a timer of its own, and is left alone until',
    'it has), where the bare server, asked at once, may answer without the new file: see "wrong", and the first right',
    "answer's time.",
  ],
  [manyAgentsSection]: manyAgentsIntroduction,
  [keptPagesSection]: [
    'Later pages of a large answer cut from the answer the first page computed (issue 53, RFC 0026;',
    'bench/src/scenarios/kept-pages.ts). On the generated 1,000-module TypeScript workspace (the hot symbol referenced',
    '5,001 times), `code_navigate` references through the tools in process, 40 a page: each round asks the first page',
    "(the query runs; the answer and its files' outlines are kept) and then follows the cursor for the later pages,",
    "with no language-server request. *bare*: the bare server's whole references query, warm, in the same rounds.",
  ],
  [telemetrySection]: [
    "What codeseam's OpenTelemetry spans and metrics add to a tool call (issue 18; bench/src/scenarios/telemetry-overhead.ts).",
    'In one process, on a warm in-process host over the generated workspace, the tools layer (`callTool`) answers the',
    'native read mix; every pair is the same call twice, once instrumented (`configureTelemetry({ enabled: true })`) and',
    'once plain (`enabled: false`: no span opens and no metric is recorded, even under an SDK), the order random per',
    'pair. "added" is instrumented − plain within each pair: its median against the target, its p95, and the 95%',
    'interval of the median (distribution-free), which says how finely this run pinned the median down on this',
    'machine. "CPU added" is the same difference of this process\'s CPU time (user + system) per call, which waiting',
    'on the language server does not blur. Targets: with the API but no SDK registered ≤ 0.05 ms per call at the',
    'median; with an SDK exporting over OTLP/HTTP ≤ 0.3 ms.',
    '',
    '- **API, no SDK**: only `@opentelemetry/api` is loaded, nothing registered — what a library user pays by default.',
    '- **with exporter**: an SDK registered in process for the whole series, both arms: a BatchSpanProcessor with the',
    '  OTLP/HTTP trace exporter, a MeterProvider with a PeriodicExportingMetricReader and the OTLP/HTTP metric',
    '  exporter, posting (more often than their defaults, so exports land inside the series) to a sink on 127.0.0.1',
    '  in the same process that discards them, and the AsyncLocalStorage context manager. The context manager is part',
    "  of the SDK set-up, so the plain arm runs with it too: its own cost is in neither arm's difference. A counting",
    '  span processor says how many spans, of which names, one instrumented call emitted: the spans codeseam has at',
    '  the time of the run.',
  ],
  [ownCostSection]: [
    'The figures behind the targets table at the top. Increments are paired: within one turn every layer answers',
    'the same query, and each difference is taken inside that turn (see "How each figure is taken").',
  ],
  [languagesSection]: [
    'gopls on the gorilla-mux corpus and rust-analyzer on the bytes corpus (`../shared/corpora`), each against the bare',
    "server in the same run (bench/src/scenarios/languages.ts). Every bare server is started with lsp-local's own spawn",
    "plan for the same trust level — codeseam's default, an untrusted root — so it gets the same executable, arguments,",
    'environment, initialization options and settings (and the same heap cap); its client advertises',
    "`experimental.serverStatusNotification`, as codeseam's does. A server or corpus that is missing gives a row that",
    'says what is missing and how to install it, never a figure.',
    '',
    '- **First complete answer**: references of a widely used type. *final*: a bare server with every source file',
    '  open (rust-analyzer: asked only while quiescent), asked until three answers in a row agree. *bare*: spawn →',
    '  initialize → the file opened → asked again and again (50 ms apart) until an answer counts as complete: for',
    '  gopls the first answer equal to the final one; for rust-analyzer the first such answer asked once its',
    '  `experimental/serverStatus` said quiescent (bench/src/first-complete.ts). *codeseam*: `createLocalHost()` +',
    '  `createLsp()` + attach, default settings, asked **once** through `ctx.lsp` (host creation → answer; lsp-local',
    "  itself waits for gopls's progress to end and for rust-analyzer to be quiescent); *codeseam mcp*: `codeseam mcp",
    '  --root <corpus>` spawned and asked once (`code_navigate` references). An incomplete one-attempt answer is',
    '  shown as such and gets no ratio.',
    '- **Warm Δ per query**: the bare client and `ctx.lsp` (a host of its own, untrusted) take turns query by query',
    "  over the wider mix's operations but diagnostics (definition, references, implementation, hover, document",
    '  symbols, call hierarchy: prepare + incoming calls), after each answered every query as the bare server settled',
    "  on; Δ is ctx.lsp − bare within each turn, its median and p95 (the read mix's machinery, scenarios/read-mix.ts).",
    '  These increments are not among the issue-15 targets at the top, which judge the TypeScript and Python mixes.',
    "- **Server RSS**: both servers' process trees sampled every 250 ms while the warm rounds run (codeseam's: the",
    "  host's language-server children and theirs, its watchdog apart); median (and largest) of the samples.",
  ],
  [realRepositoriesSection]: [
    'Two public repositories nobody on this project wrote, unpacked from `../shared/corpora` (see its README;',
    'without that folder the set is skipped and listed under "Not measured"). Every answer is judged by the',
    'completeness oracle (packages/lsp-local/test/oracle): the bare server with the same workspace folders after',
    "every source file was opened and taken in. The fixed symbols are among the oracle's most referenced exported",
    'symbols (bench/src/scenarios/real-repositories.ts).',
    '',
    '- **Cold start to the first complete answer**: for each symbol, references and a workspace-symbol search for',
    '  its name, each side from a fresh start and asked **once** — a second attempt would count as a failure, so an',
    "  incomplete first answer is shown as incomplete, with its time, and gets no ratio. *bare primed*: the bench's",
    '  bare client spawns the server with the workspace folders and settings codeseam uses, opens every source file',
    '  and asks at once (spawn → answer); *codeseam*: `createLocalHost()` + `createLsp()` + attach, default settings',
    '  (an untrusted root, as `codeseam mcp` starts), asked through `ctx.lsp` (host creation → answer). "oracle" is',
    "  the size of the oracle's answer.",
    '- **Warm workspace symbols on the Python corpus**: three pyright servers with the same workspace folders and',
    "  settings (lsp-local's rule: the root plus nested folders with a pyright configuration of their own; the other",
    "  nested projects as search paths). *bare*: the bench's bare client, sent nothing but the queries — the issue's",
    "  target is codeseam ≤ 1.5× this; *bare primed*: the oracle's server, every source file open (with every file",
    '  open pyright answers workspace symbols faster than with files closed: compare the two bare columns);',
    '  *codeseam*: `ctx.lsp`, default settings. Once every side answered each query as the oracle does and the',
    '  servers went quiet (no CPU use for a second), the sides take turns query by query, the order rotating;',
    '  "paired Δ" is the median of codeseam − bare within each turn. Every side is timed to the same normalised',
    '  answer. "pyright processes" counts codeseam\'s processes whose command line contains `langserver.index.js`',
    '  after the rounds (and the most seen after any round, if more).',
  ],
}

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`

/** docs/performance.md: every figure comes from the report. */
export function performanceMarkdown(report: BenchReport, jsonName: string, svgName: string): string {
  const { machine } = report
  const measuredLayers = layers.filter((layer) => report.readMix.some((r) => r.layer === layer))
  const out = [
    '# Performance',
    '',
    `<!-- Generated by \`${report.command}\` (bench/src/docs-writer.ts) from ${jsonName}. Do not edit by hand: run the bench, or \`pnpm --filter @codeseam/bench run docs\` to regenerate from the JSON. -->`,
    '',
    'Every layer of codeseam answers the same read queries as the bare language server, in the same run, on the',
    'same machine; the figures below are ratios to that floor, which no layer on top of the server can beat.',
    'Reproduce them with one command: `pnpm bench` (add `--large` for the 2000-file workspace; `--runs 3` for',
    "three runs and the median of each target's figures).",
    '',
    ...(() => {
      const summary = runsSummaryTable(report)
      const targets = targetsTable(report)
      return [
        ...(summary === undefined ? [] : [`## ${summary.title}`, '', markdownTable(summary.header, summary.rows), '']),
        `## ${summary === undefined ? targets.title : `${targets.title} (the last run)`}`,
        '',
        markdownTable(targets.header, targets.rows),
        '',
        '"must hold" is the floor the issue sets in any case; "not met" is over the target value, "over the must"',
        "over that floor too. Per-call figures are the worst mix's median paired increment (every mix must meet it).",
        '',
      ]
    })(),
    `![Read-query latency per layer relative to the floor](${svgName})`,
    '',
    '## Machine',
    '',
    markdownTable(
      ['', ''],
      [
        ['CPU', machine.cpuModel],
        ['cores', String(machine.cores)],
        ['memory', `${gib(machine.memoryBytes)} (${gib(machine.freeMemoryBytesAtStart)} free at start)`],
        ['node', machine.node],
        ['platform', `${machine.platform}, kernel ${machine.kernel}`],
        ['run', `${report.generatedAt}, ${(report.durationMs / 1000).toFixed(0)} s, \`${report.command}\``],
      ],
    ),
    '',
    'The layers take turns query by query, so any other load on the machine falls on all of them alike;',
    'absolute times are noisier than the ratios.',
    '',
    '## Layers',
    '',
    markdownTable(
      ['layer', 'what answers'],
      measuredLayers.map((layer) => [layer, layerDescriptions[layer]]),
    ),
    '',
    '## Workspaces',
    '',
    markdownTable(
      ['workspace', 'files', 'hot-symbol references'],
      report.workspaces.map((w) => [
        w.name,
        w.generated ? String(w.files) : 'this repository',
        w.hotReferences === undefined ? '—' : String(w.hotReferences),
      ]),
    ),
    '',
    'Generated workspaces are deterministic (bench/src/workspace-generator.ts): modules that import their',
    'neighbour, each with a class, an interface and many calls to one hot function; the two modules after the',
    'middle one subclass its class (and one subclasses a subclass): a small known type hierarchy. The read mix is a',
    'cross-file definition, references on an exported function, hover on a call and the document outline of',
    'one module, and one derived operation — the subtypes of the middle class, which the native TS 7 server',
    'cannot answer and codeseam derives (see its own table); every timed answer is checked for correctness',
    '("wrong" counts answers that were not).',
    '',
  ]
  const sectionsShown = new Set<string>()
  for (const table of reportTables(report)) {
    if (table.rows.length === 0) continue
    const note = table.note === undefined ? [] : [...table.note.map((line) => `- ${line}`), '']
    if (table.section === undefined) {
      out.push(`## ${table.title}`, '', ...note, markdownTable(table.header, table.rows), '')
      continue
    }
    if (!sectionsShown.has(table.section)) {
      sectionsShown.add(table.section)
      out.push(`## ${table.section}`, '', ...(sectionIntroductions[table.section] ?? []), '')
    }
    out.push(`### ${table.title}`, '', ...note, markdownTable(table.header, table.rows), '')
  }
  out.push(...ownMemoryFindings)
  out.push(
    '## How each figure is taken',
    '',
    '- **Ratios**: layer median ÷ floor median and layer p95 ÷ floor p95, per workspace, after every layer has',
    '  answered each query correctly once (warm-up).',
    '- **Derived operations** (the type hierarchy: `prepareTypeHierarchy` + `subtypes`, built by lsp-local from',
    "  document symbols, the class headers' text and references): the floor has no such operation, so its figure",
    '  is the bare server answering those ingredients, and the ratio is what deriving adds on top of them. They',
    '  are timed in the same turns as the native operations but kept out of the whole-mix figures (the read-mix',
    '  ratio, the "all" increments the targets judge, the concurrent burst), and shown beside them instead.',
    '- **Cold start**: from spawning (floor) or creating the host (host) to the first *correct* answer; queries',
    '  repeat until one is correct, because some servers answer early from a partial project.',
    '- **Hot references**: references (with the declaration) on the function every module calls. "output" is',
    '  what the caller receives: the raw JSON for the floor and ctx.lsp, the budgeted tool output for the tools',
    '  and MCP layers.',
    '- **Target resolution**: `resolveTarget` on `ServiceNNNN.add` in distinct files (uncached), then the same',
    '  targets again (cached per content hash).',
    '- **References found**: on this repository the host first loads every tsconfig project (the native server',
    "  only searches loaded projects), so its references answers can hold more locations than the floor's, which",
    '  opened one file: compare the counts before reading that ratio as overhead.',
    '- **Concurrency**: 100 queries of the mix sent at once through one layer.',
    "- **Each layer's own increment** (issue 15): in each turn of the read mix every layer answers the same",
    '  query once (the order rotating); per turn the bench takes ctx.lsp − floor, tools − ctx.lsp, mcp − tools and',
    '  mcp − floor, and reports the median and p95 of these paired differences, over the whole mix and per',
    '  operation. Every timed answer is checked as the read mix checks it; "wrong" counts each layer\'s failures.',
    '  Every layer has a server of its own (ctx.lsp and tools each an in-process host, MCP its process), so no',
    "  layer is timed against a server another layer's turn has just woken; each wakes its own, as a real",
    "  call after an agent's pause does. The MCP increment still holds waking its host process, an extra hop.",
    "- **The MCP SDK's own share**: `bench/noop-mcp-server.mjs`, the official SDK's low-level `Server` over stdio",
    '  with one tool returning a constant, run as a child process and called from the same SDK client the MCP',
    "  layer uses (after 50 untimed calls): the MCP increment less this is codeseam's own MCP work.",
    '- **Start-up**: rounds alternate (the order rotating) between `node -e 0` (spawn → exit), `node <cli> --help`',
    "  (spawn → exit), `codeseam mcp --root <ws>` and the no-op SDK server (spawn → the SDK client's `initialize`",
    '  answered; the server is then closed and waited for). "added" is the median of each side − node within its',
    '  round. The CLI is `packages/lsp-mcp/dist/cli.js` when built and newer than its sources, whatever it is.',
    '- **Start → first complete answer through `codeseam mcp`**: on the real repositories, for each fixed symbol,',
    "  right after the cold-start table's bare primed references side: spawn `codeseam mcp --root <corpus>` (default",
    '  settings), `initialize`, one `tools/call code_navigate` references (limit 500, one page); its locations are',
    "  turned into the oracle's keys and judged by the oracle (one attempt). Target: ≤ 1.3× bare primed.",
    '- **Own RSS**: every 250 ms while `codeseam mcp` serves the read mix and the 100 concurrent reads, the bench',
    '  reads the RSS of the MCP host process, of its watchdog (a direct child of the host whose command line is',
    "  `node -e …kill…` or a shell, e.g. `/bin/sh`) and of every other descendant (the language servers' trees).",
    '  own = host + watchdog; the target compares the median of the samples (worst workspace) with 80 MB.',
    '  What a profile found (issue 51): a heap snapshot of the MCP host after 20 calls held 19 MB of live objects',
    '  (5 MB of it module source text) while its anonymous RSS was 49 MB — heap V8 had grown and kept. The',
    '  `codeseam` executable now sets `--semi-space-growth-factor=1` and `--optimize-for-size`',
    '  (packages/lsp-mcp/src/heap.ts): 105 / 112 MB → 79 / 81 MB on ts-50 / ts-500, latency unchanged. What',
    '  was found and removed after that, lever by lever: "Memory of codeseam\'s own processes" above.',
    "- **Where the servers' memory goes** (issue 51, `bench/scripts/server-memory.ts`: the bare default server, the",
    '  root its one folder, and `codeseam mcp --daemon never` each open the first 20 source files and are asked their',
    '  outlines, the references and the workspace symbols of one class; peak RSS per process, sampled every 100 ms).',
    '  flask (pyright): bare 248 MB; codeseam 260 MB for the tree = the server 178 MB + the MCP host 81 MB (one',
    "  pyright, its 4 projects as 4 workspace folders; 198 references against the bare server's 65, which searches",
    "  the root's program only). A 40-file library importing pydantic, boto3 and requests with 3 nested",
    '  `pyproject.toml` folders: bare 186 MB, codeseam 238 MB (server 164 MB). vscode-languageserver-node (TS 7): bare',
    '  101 MB, codeseam 249 MB: the server 166 MB, as the first workspace-wide question loads all 28 projects and the',
    '  bare server only those of the 20 files it opened (issue 50 loads what a question needs first), plus the',
    '  short-lived child that reads the tsconfig graph with the compiler API (93 MB while it runs, gone before the',
    "  peak). The held-out Python library's 1,299 MB against 551 MB was not reproduced on these shapes.",
    "  The targets table's row takes every pair this run measured (the generated workspaces and this repository busy,",
    "  in process and through `codeseam mcp`, against the floor primed busy; the real repositories at each side's",
    '  first answer, bare primed; Go and Rust at their first answers) as codeseam ÷ (bare × 1.1 + 80 MB), the worst',
    "  shown. The floor busy has opened only the read mix's files, so its server holds the projects of those files",
    "  and its references across projects are incomplete, while codeseam's workspace-wide questions load every project",
    '  that can reach the target and the rest in the background. So the floor is then primed: one file of every',
    "  project opened (the oracle's project model) and one query answered, and its RSS read again (the memory table's",
    '  "floor primed busy"); the row compares with that, the bare server holding the projects codeseam holds. Both',
    '  floor figures are in the memory table.',
    '- **Three runs**: `pnpm bench --runs 3` runs the bench three times (each to its own JSON) and summarises them',
    "  (`bench/src/summarize.ts`): every target's figure per run, the median of the three and its verdict, as",
    '  docs/lsp-local.md reports three consecutive runs.',
    '- **Many agents**: see that section. The targets, with the daemon (the worse of its two modes): at 8 sessions one',
    "  language-server process; the servers' RSS at 8 sessions within 1.25× of the bare server that answered the same",
    '  load (one server\'s worth: a second server would make it 2×; the issue\'s "8 sessions = 1 session" is not',
    '  taken literally because the server itself grows with the calls it answers, 8 sessions making 8× the calls —',
    "  the bare server grows alike, as the target's detail shows); each stdio proxy adds ≤ 50 MB, taken as its private",
    "  memory (its RSS also counts node's own code, shared with every node process, which one more proxy does not add;",
    '  both are in the RSS table); and the p50 added over the bare server at 8 sessions ≤ 2× the figure at 1 session.',
    '- **Go and Rust**: see that section; "× bare" is codeseam ÷ the bare server started with the same spawn plan in',
    '  the same run.',
    '- **Memory**: RSS of the benchmark process (which hosts the in-process layers) and of the language-server',
    '  process trees, while busy and after the host reclaimed its idle servers (idle TTL shortened for the run).',
    "  The host's processes include any helper it keeps for its lifetime (lsp-local's one shared watchdog), which",
    '  is what remains after reclamation.',
    '',
  )
  if (report.notes.length > 0) out.push('## Notes on this run', '', ...report.notes.map((n) => `- ${n}`), '')
  if (report.missing.length > 0) {
    out.push('## Not measured in this run', '', ...report.missing.map((m) => `- **${m.what}**: ${m.why}`), '')
  }
  return out.join('\n')
}

/** Writes performance.md and performance.svg next to the JSON. */
export async function writeDocs(report: BenchReport, dir: string): Promise<string[]> {
  const md = nodePath.join(dir, 'performance.md')
  const svg = nodePath.join(dir, 'performance.svg')
  await writeFile(md, performanceMarkdown(report, 'performance.json', 'performance.svg'))
  await writeFile(svg, performanceSvg(report))
  return [md, svg]
}
