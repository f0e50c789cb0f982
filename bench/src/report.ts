import { cpus, freemem, release, totalmem } from 'node:os'

import type { ListedDifference } from './index-differences.js'
import type { ColdSideSummary } from './first-complete.js'
import type { FloorRatio, TimingSummary } from './statistics.js'

/** The machine the figures came from. */
export interface MachineInfo {
  readonly cpuModel: string
  readonly cores: number
  readonly memoryBytes: number
  readonly freeMemoryBytesAtStart: number
  readonly node: string
  readonly platform: string
  readonly kernel: string
}

/** Reads the machine description. */
export function machineInfo(): MachineInfo {
  const cores = cpus()
  return {
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryBytes: totalmem(),
    freeMemoryBytesAtStart: freemem(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    kernel: release(),
  }
}

/** The layers measured, bottom to top. */
export const layers = ['floor', 'ctx.lsp', 'tools', 'mcp'] as const
export type Layer = (typeof layers)[number]

/** What each layer is, for tables and docs. */
export const layerDescriptions: Readonly<Record<Layer, string>> = {
  floor: 'bare vscode-jsonrpc client ↔ native TS 7 server (tsc --lsp --stdio)',
  'ctx.lsp': 'createLsp() + @codeseam/lsp-local host, in process',
  tools: '@codeseam/tool-lsp tools (target resolution, budgeting, rendering) over ctx.lsp',
  mcp: '`codeseam mcp` over stdio, called with the MCP SDK client',
}

export interface WorkspaceInfo {
  readonly name: string
  readonly files: number
  readonly hotReferences?: number
  readonly generated: boolean
}

/** A derived operation of the read mix, as the report describes it beside the native ones. */
export interface DerivedOperationInfo {
  /** The operation's name in the read mix (a column of the by-operation table). */
  readonly operation: string
  /** What every layer above the floor is asked. */
  readonly asked: string
  /** The native operations codeseam builds it from (plus the files' text). */
  readonly derivedFrom: ReadonlyArray<string>
  /** What the floor's figure is: the bare server answering the ingredients. */
  readonly floor: string
  /** What a correct answer is. */
  readonly verified: string
}

/**
 * Timings of one layer on one workspace: the whole mix (native operations only) and each operation, derived
 * ones included (marked `derived`; their ratio is to the floor answering their ingredients).
 */
export interface ReadMixResult {
  readonly workspace: string
  readonly layer: Layer
  readonly all: TimingSummary
  readonly ratio?: FloorRatio
  readonly byOperation: Readonly<
    Record<
      string,
      {
        readonly summary: TimingSummary
        readonly ratio?: FloorRatio
        /** references: locations found. */
        readonly locations?: number
        /** Derived by codeseam (see BenchReport.derivedOperations for what the floor answered instead). */
        readonly derived?: true
      }
    >
  >
  /** Every answer was checked against the expectation of its query; failures are listed. */
  readonly incorrect: number
}

export interface ColdStartResult {
  readonly profile: string
  readonly via: 'floor' | 'host'
  readonly available: boolean
  readonly note?: string
  readonly initializedMs?: number
  /** Spawn → the first answer that is correct (queries repeat until then: an early wrong answer does not count). */
  readonly firstCorrectAnswerMs?: number
  readonly attempts?: number
  readonly serverRssBytes?: number
}

export interface HotReferencesResult {
  readonly workspace: string
  readonly layer: Layer
  readonly summary: TimingSummary
  readonly ratio?: FloorRatio
  /** Locations the layer saw (before budgeting). */
  readonly locations: number
  /** Bytes of what the layer hands its caller (raw JSON for floor/ctx.lsp, the tool output for tools/mcp). */
  readonly outputBytes: number
  readonly truncated: boolean
}

export interface TargetResolutionResult {
  readonly workspace: string
  readonly uncached: TimingSummary
  readonly cached: TimingSummary
}

export interface ConcurrencyResult {
  readonly workspace: string
  readonly layer: Layer
  readonly queries: number
  readonly wallMs: number
  readonly throughputPerSecond: number
  readonly latency: TimingSummary
  readonly errors: number
  readonly incorrect: number
}

export interface MemoryResult {
  readonly workspace: string
  /**
   * floor busy: the bare server after the read mix and the burst (only their files opened); floor primed busy: the
   * same server after one file of every project was opened too (what codeseam loads for a complete workspace-wide
   * answer); busy: this process + the in-process host's servers; mcp busy: the MCP server process + its servers.
   */
  readonly phase: 'floor busy' | 'floor primed busy' | 'busy' | 'mcp busy' | 'after idle reclamation'
  readonly hostRssBytes?: number
  readonly serverRssBytes: number
  readonly servers: number
  readonly reclaimedMs?: number
}

/** A real repository from ../shared/corpora, as the "Real repositories" set ran on it. */
export interface RealRepositoryCorpus {
  readonly name: string
  readonly language: 'python' | 'typescript' | 'go' | 'rust' | 'java'
  /** From the corpora README: where the snapshot comes from. */
  readonly repository?: string
  readonly commit?: string
  readonly sourceFiles: number
  /** TypeScript: tsconfig projects (the oracle's project model); Python: project folders (root + nested markers). */
  readonly projects: number
  /** Workspace folders both servers were started with. */
  readonly workspaceFolders: number
  /** How long the oracle (bare server, every file open) took to take everything in. */
  readonly oracleSettleMs: number
  /** The fixed symbols, with what the oracle found for their references. */
  readonly symbols: ReadonlyArray<{
    readonly name: string
    readonly path: string
    readonly line: number
    readonly references: number
    readonly files: number
    readonly projects: number
  }>
}

/** One side's first answer after a cold start, judged by the completeness oracle. */
export interface RealColdStartSide {
  /** Start (spawn / host creation) → the first answer, complete or not; absent when the side failed. */
  readonly ms?: number
  /** The first answer equals the oracle's (no second attempt is made). */
  readonly complete: boolean
  readonly found: number
  /** Oracle keys the answer lacks, and keys it has that the oracle has not. */
  readonly missing: number
  readonly extra: number
  readonly missingExamples?: ReadonlyArray<string>
  readonly extraExamples?: ReadonlyArray<string>
  readonly error?: string
  /** RSS of the side's language-server process trees right after its answer (absent in older reports). */
  readonly rssBytes?: number
}

export interface RealColdStartResult {
  readonly corpus: string
  readonly symbol: string
  /** Where the symbol is declared (workspace-relative path:line). */
  readonly path: string
  readonly operation: 'references' | 'workspaceSymbols'
  /** Size of the oracle's answer. */
  readonly expected: number
  /** The bare server primed with every source file open. */
  readonly bare: RealColdStartSide
  /** createLocalHost() + createLsp() + attach, asked through ctx.lsp. */
  readonly codeseam: RealColdStartSide
  /** codeseam ms ÷ bare ms. */
  readonly ratio?: number
}

export interface RealWarmWorkspaceSymbolsResult {
  readonly corpus: string
  readonly queries: ReadonlyArray<string>
  readonly rounds: number
  /** Workspace folders every side's server has (the root plus nested folders with a configuration of their own). */
  readonly workspaceFolders: number
  /** Bare pyright, same folders and settings, nothing opened (per query). */
  readonly bare: TimingSummary
  /** The oracle's pyright: same folders and settings, every source file open. */
  readonly barePrimed: TimingSummary
  /** ctx.lsp over a local host with default settings. */
  readonly codeseam: TimingSummary
  /** codeseam median ÷ bare median (the target). */
  readonly ratio: number
  /** codeseam median ÷ bare-primed median. */
  readonly ratioToPrimed: number
  /** codeseam − bare, per query of each turn. */
  readonly pairedDifference: TimingSummary
  readonly target: number
  readonly withinTarget: boolean
  /** Timed answers that differed from the oracle's. */
  readonly wrong: { readonly bare: number; readonly barePrimed: number; readonly codeseam: number }
  /** Queries asked per side before the rounds (until each answer equalled the oracle's). */
  readonly warmupAttempts: Readonly<Record<string, number>>
  /** How long the servers took to go quiet (CPU) after the warm-up, before the rounds. */
  readonly settleMs: number
  /** codeseam's pyright processes (command line containing langserver.index.js) at the end, and the most seen after any round. */
  readonly pyrightProcesses: number
  readonly pyrightProcessesMax: number
  /** The oracle's result count per query. */
  readonly results: Readonly<Record<string, number>>
}

/** The "Real repositories" set: cold start to the first complete answer, and the warm Python workspace-symbol series. */
export interface RealRepositoriesReport {
  readonly corpora: ReadonlyArray<RealRepositoryCorpus>
  readonly coldStart: ReadonlyArray<RealColdStartResult>
  readonly warmWorkspaceSymbols: ReadonlyArray<RealWarmWorkspaceSymbolsResult>
}

/**
 * Each layer's own increment per warm query: within one turn every layer answers the same query, and the
 * differences ctx.lsp − floor, tools − ctx.lsp, mcp − tools (and mcp − floor, all together) are taken per
 * turn, so load on the machine falls on both sides of each difference alike.
 */
export interface IncrementResult {
  readonly workspace: string
  /** "read mix": the bench's read mix; "wide mix": every operation the server supports, on a real repository. */
  readonly mix: 'read mix' | 'wide mix'
  /** "all" for the whole mix, else one operation. */
  readonly operation: string
  readonly turns: number
  readonly ctxLsp?: TimingSummary
  readonly tools?: TimingSummary
  readonly mcp?: TimingSummary
  /** The top layer measured − floor (mcp − floor when the MCP layer ran). */
  readonly total?: TimingSummary
  /** Timed answers that were not correct, per layer. */
  readonly wrong: Readonly<Record<string, number>>
  /** Why an operation of the mix was not asked (then turns is 0 and there are no figures). */
  readonly note?: string
}

/** A bare server's cold start in the Go and Rust rows: asked from spawn until its answer counts as complete. */
export interface LanguageBareColdSide {
  /** Spawn → the first complete answer (see {@link LanguageResult.rule}); absent when none came. */
  readonly ms?: number
  readonly complete: boolean
  /** Answers asked until then (failed requests included). */
  readonly attempts: number
  /** Spawn → the first answer of any kind (complete or not, not a failure). */
  readonly firstAnswerMs?: number
  /** rust-analyzer: spawn → its first `experimental/serverStatus` saying quiescent. */
  readonly quiescentMs?: number
  readonly found: number
  readonly error?: string
  /** RSS of the server's process tree at its first complete answer. */
  readonly rssBytes?: number
}

/** One Go or Rust row: the three figures, codeseam against the bare server in the same run. */
export interface LanguageResult {
  readonly language: 'Go' | 'Rust'
  /** The built-in profile (gopls, rust-analyzer). */
  readonly profile: string
  /** The server as the record names it, with the version its lookup found. */
  readonly server: string
  readonly corpus: string
  /** Why nothing was measured: what is missing and how to install it (then every figure is absent). */
  readonly unavailable?: { readonly what: string; readonly why: string; readonly install: string }
  /** From the corpora README: where the snapshot comes from. */
  readonly repository?: string
  readonly commit?: string
  readonly sourceFiles?: number
  /** Both sides' trust level (codeseam's default, as `codeseam mcp` starts) and what lsp-local's plan changed for it. */
  readonly trust: 'untrusted' | 'trusted'
  readonly hardening?: ReadonlyArray<string>
  /** How "complete" is decided for the bare side (first-complete.ts). */
  readonly rule: 'equalsFinal' | 'quiescentThenEqualsFinal'
  /** The workspace-wide question of the first-answer figure: references of a widely used symbol. */
  readonly symbol?: { readonly name: string; readonly path: string; readonly line: number }
  /** Size of the final answer (the bare server's after every source file was opened, settled). */
  readonly expected?: number
  /**
   * Several cold starts, the sides alternating who goes first: each run's sides, and per side the complete
   * runs' median. `ratio` is the median of the runs' codeseam ÷ bare, given only when every run of both sides
   * was complete (first-complete.ts).
   */
  readonly firstAnswer?: {
    readonly runs: ReadonlyArray<{
      /** The bare side ran first in this run. */
      readonly bareFirst: boolean
      readonly bare: LanguageBareColdSide
      /** createLocalHost() + createLsp() + attach → one references query through ctx.lsp (one attempt). */
      readonly codeseam: RealColdStartSide & { readonly rssBytes?: number }
      /** spawn `codeseam mcp` → initialize → one code_navigate references call (one attempt). */
      readonly mcp?: RealColdStartSide
    }>
    readonly bare: ColdSideSummary
    readonly codeseam: ColdSideSummary
    readonly mcp?: ColdSideSummary
    readonly ratio?: number
    readonly mcpRatio?: number
    /** Median over the runs of each side's server-tree RSS at its answer. */
    readonly rssAtAnswer: { readonly bare?: number; readonly codeseam?: number }
  }
  /** The warm series: the floor and ctx.lsp taking turns query by query (scenarios/read-mix.ts). */
  readonly warm?: {
    readonly rounds: number
    /** Every query's label and the floor's settled answer size. */
    readonly queries: ReadonlyArray<{ readonly label: string; readonly operation: string; readonly floorCount: number }>
    /** The floor's and ctx.lsp's timings, whole mix and per operation, as the read mix reports them. */
    readonly readMix: ReadonlyArray<ReadMixResult>
    /** ctx.lsp − floor paired within each turn: "all" and each operation. */
    readonly increments: ReadonlyArray<IncrementResult>
  }
  /**
   * RSS of the server process trees (codeseam's: its language server and children, the host's watchdog apart),
   * sampled every 250 ms while the warm rounds ran: median and largest sample.
   */
  readonly rss?: {
    readonly samples: number
    readonly bare: RssFigure
    readonly codeseam: RssFigure
    /** codeseam median ÷ bare median. */
    readonly ratio: number
    /** codeseam's language-server processes (the host's direct children that are not its watchdog), the most seen. */
    readonly codeseamProcesses: number
  }
  /** Anything the reader should know about this row (an operation left out, a layer that failed). */
  readonly notes: ReadonlyArray<string>
  /** How long the row took, every side included. */
  readonly durationMs?: number
}

/** The official MCP SDK's own round trip: a no-op low-level `Server` over stdio, one constant tool. */
export interface SdkNoopResult {
  readonly calls: number
  readonly roundTrip: TimingSummary
}

/** Start-up, paired in the same run: rounds alternate between the sides. */
export interface StartupResult {
  readonly rounds: number
  /** Where `codeseam mcp --root` pointed. */
  readonly workspace: string
  /** The CLI measured: the built dist/cli.js, or its sources when no fresh build was found. */
  readonly entry: 'dist' | 'source'
  /** `node -e 0`, spawn → exit. */
  readonly nodeExit: TimingSummary
  /** `node dist/cli.js --help`, spawn → exit. */
  readonly helpExit: TimingSummary
  /** help − node, per round. */
  readonly helpAdded: TimingSummary
  /** `codeseam mcp --root <ws>`: spawn → initialize answered (SDK client connect). */
  readonly mcpInitialize: TimingSummary
  /** The no-op SDK server: spawn → initialize answered. */
  readonly noopInitialize: TimingSummary
  /** codeseam mcp − node -e 0, per round. */
  readonly mcpInitializeAdded: TimingSummary
  /** no-op SDK server − node -e 0, per round. */
  readonly noopInitializeAdded: TimingSummary
  /** `codeseam mcp --root <ws>` with default flags (the relay), no daemon yet (a fresh runtime folder): spawn → initialize and tools/list answered. */
  readonly proxyListFirst?: TimingSummary
  /** proxyListFirst − node -e 0, per round. */
  readonly proxyListFirstAdded?: TimingSummary
  /** The same with its daemon already running. */
  readonly proxyListWarm?: TimingSummary
  /** proxyListWarm − node -e 0, per round. */
  readonly proxyListWarmAdded?: TimingSummary
}

/** Process start → the first complete answer through `codeseam mcp`, against the bare server primed. */
export interface FirstAnswerResult {
  readonly corpus: string
  readonly symbol: string
  readonly operation: 'references'
  readonly expected: number
  /** The bare server with every source file open (the cold-start table's "bare primed"), same run, next to it. */
  readonly barePrimed: RealColdStartSide
  /** spawn `codeseam mcp` → initialize → tools/call code_navigate references, judged by the oracle. */
  readonly mcp: RealColdStartSide
  /** mcp ms ÷ bare primed ms (both complete). */
  readonly ratio?: number
}

/** RSS of codeseam's own processes (MCP host + watchdog) and of the servers' trees, sampled while serving. */
export interface OwnMemoryResult {
  readonly workspace: string
  readonly samples: number
  /** The `codeseam mcp` process. */
  readonly host: { readonly median: number; readonly max: number }
  /** The host's watchdog (a child that is not a language server); 0 when none was found. */
  readonly watchdog: { readonly median: number; readonly max: number }
  readonly watchdogs: number
  /** How the watchdog was recognised (its command), for the reader to check. */
  readonly watchdogCommand?: string
  /** host + watchdog. */
  readonly own: { readonly median: number; readonly max: number }
  /** Every other descendant of the host: the language servers and their children. */
  readonly servers: { readonly median: number; readonly max: number }
  readonly serverProcesses: number
}

/** How the sessions of the "many agents" scenario reach codeseam. */
export type ManyAgentsMode = 'no daemon' | 'daemon, stdio proxies' | 'daemon, direct HTTP'

/** RSS samples taken while the sessions were served: their median and the largest, bytes. */
export interface RssFigure {
  readonly median: number
  readonly max: number
}

/**
 * N agents at once on one workspace, through one way of reaching codeseam, against the bare server answering
 * the same concurrent load (N request streams) in the same rounds.
 */
export interface ManyAgentsResult {
  readonly workspace: string
  readonly mode: ManyAgentsMode
  readonly sessions: number
  /** Timed rounds: in each, every session runs the mix once, all sessions at once. */
  readonly rounds: number
  /** Every timed call through codeseam. */
  readonly latency: TimingSummary
  /** The bare server: N concurrent streams of the same calls, in the same rounds (turns alternating). */
  readonly bare: TimingSummary
  /** codeseam p50 − bare p50, and p95 − p95 (ms). */
  readonly addedP50: number
  readonly addedP95: number
  readonly errors: number
  readonly wrong: number
  readonly bareWrong: number
  /** RSS while the rounds ran (every sample re-reads the process trees). */
  readonly memory: {
    readonly samples: number
    /** proxies + hosts + servers. */
    readonly total: RssFigure
    /** The N `codeseam mcp` stdio proxies together (daemon, stdio proxies only). */
    readonly proxies?: RssFigure
    /** The largest single proxy in each sample. */
    readonly largestProxy?: RssFigure
    /** The largest single proxy's private memory (USS: what it adds; its RSS also counts node's shared code). */
    readonly largestProxyPrivate?: RssFigure
    /** The processes hosting the servers: the daemon, or the N in-process `codeseam mcp`; with their watchdogs. */
    readonly hosts: RssFigure
    /** The language servers' process trees. */
    readonly servers: RssFigure
    /** Language-server processes (the hosts' children that are not watchdogs), the most seen in a sample. */
    readonly serverProcesses: number
  }
  /** The bare server's process tree after the rounds, for comparison with "servers". */
  readonly bareServerRssBytes: number
}

/** One series of the telemetry-overhead scenario: instrumented and plain tool calls alternating, paired. */
export interface TelemetrySeriesResult {
  /** "API, no SDK": only @opentelemetry/api loaded; "with exporter": an SDK with OTLP/HTTP exporters registered. */
  readonly series: 'API, no SDK' | 'with exporter'
  /** Pairs timed (each: one instrumented and one plain call of the same query, the order random per pair). */
  readonly pairs: number
  /** instrumented − plain within each pair, ms. */
  readonly added: TimingSummary
  /** 95% confidence interval of `added.median` (distribution-free): how finely the run pinned the median down. */
  readonly addedMedianInterval: { readonly low: number; readonly high: number }
  /** This process's CPU time (user + system, every thread) per call, instrumented − plain within each pair, ms. */
  readonly addedCpu: TimingSummary
  readonly instrumented: TimingSummary
  readonly plain: TimingSummary
  /** The same, per operation of the mix (with the spans one instrumented call of it emitted, median). */
  readonly byOperation: Readonly<
    Record<string, { readonly added: TimingSummary; readonly spansPerCall?: number; readonly spanNames?: Readonly<Record<string, number>> }>
  >
  /** Spans started per instrumented call (counting span processor); absent without an SDK (nothing records). */
  readonly spansPerCall?: { readonly median: number; readonly min: number; readonly max: number }
  /** Spans started by codeseam during plain calls (telemetry disabled): should be 0. */
  readonly spansDuringPlainCalls?: number
  /** Spans per instrumented call by name (mean over the timed calls). */
  readonly spanNames?: Readonly<Record<string, number>>
  /** What the in-process OTLP sink received during the series (requests and bytes, per signal). */
  readonly exported?: {
    readonly traceRequests: number
    readonly metricRequests: number
    readonly bytes: number
  }
  /** Timed answers that were not correct, per arm. */
  readonly wrong: { readonly instrumented: number; readonly plain: number }
  /** The target for the median added latency, ms. */
  readonly target: number
}

/** Telemetry overhead (issue 18): tool calls with codeseam's telemetry on against off, in one process. */
export interface TelemetryOverheadResult {
  readonly workspace: string
  /** What was called (the tools layer's `callTool`, in process) and with which queries. */
  readonly calls: string
  readonly operations: ReadonlyArray<string>
  readonly series: ReadonlyArray<TelemetrySeriesResult>
  /** How the SDK of the "with exporter" series was set up (processor, exporters, intervals, context manager). */
  readonly setup: ReadonlyArray<string>
}

/** What changed on disk right before a call of the "keeping up with the disk" series (issue 43). */
export type DiskChange = 'nothing changed' | 'open file changed' | 'closed file changed' | 'file created / deleted'

/**
 * One series of the "keeping up with the disk" scenario: the hot references question asked of codeseam
 * (ctx.lsp, told nothing) and of the bare server (told of the change the way an editor would), each on its own
 * copy of the workspace, turn by turn, the side going first alternating.
 */
export interface DiskChangeSeriesResult {
  readonly language: 'TypeScript' | 'Python'
  /** The built-in profile (the same server on both sides). */
  readonly server: string
  readonly workspace: string
  readonly change: DiskChange
  /** The file appended to and restored, or created and deleted (workspace-relative). */
  readonly path?: string
  /** What the bare client sent before asking: nothing, didChange, didChangeWatchedFiles (…). */
  readonly bareTold: string
  readonly turns: number
  /** From the write's end (for the bare side: through its notification) to the answer, ms. */
  readonly bare: TimingSummary
  readonly codeseam: TimingSummary
  /** codeseam ÷ bare, median over median and p95 over p95. */
  readonly ratio: FloorRatio
  /** codeseam − bare within each turn, ms. */
  readonly paired: TimingSummary
  /** From the same start to the first right answer (a wrong one is followed by asking again at once, back to back). */
  readonly firstCorrect: { readonly bare: TimingSummary; readonly codeseam: TimingSummary; readonly ratio: number }
  /** First answers that differed from the set known to be true (the appended or created uses present, or gone). */
  readonly wrong: {
    readonly bare: number
    readonly codeseam: number
    /** The same per step of the series: [change made, change undone] (one entry when nothing changed). */
    readonly byStep: { readonly bare: ReadonlyArray<number>; readonly codeseam: ReadonlyArray<number> }
  }
  /** codeseam answers whose meta said changes on disk were taken in (`meta.disk.filesChanged` > 0). */
  readonly codeseamSawChanges: number
}

/** Keeping up with the disk (issue 43): warm calls with nothing changed and calls right after one change on disk. */
export interface DiskChangesResult {
  /** What both sides were asked. */
  readonly question: string
  readonly turns: number
  readonly series: ReadonlyArray<DiskChangeSeriesResult>
  readonly durationMs: number
}

/** Pages from the computed answer (issue 53, RFC 0026): later pages of a large references answer against the first. */
export interface KeptPagesResult {
  readonly workspace: string
  /** References in the answer. */
  readonly references: number
  /** Locations a page. */
  readonly limit: number
  /** The bare server's whole references query, warm. */
  readonly bare: TimingSummary
  /** The first page through the tools: the query, the outlines of the answer's files, the answer kept. */
  readonly first: TimingSummary
  /** Each later page, cut from the kept answer. */
  readonly later: TimingSummary
  /** Medians: a later page ÷ the first page, and ÷ the bare query. */
  readonly laterToFirst: number
  readonly laterToBare: number
}

/** One of issue 15's targets, judged. */
export interface TargetVerdictRow {
  readonly target: string
  readonly measured: string
  readonly goal: string
  /** The floor it must hold in any case ("—" when the issue sets none). */
  readonly must: string
  readonly verdict: 'met' | 'not met' | 'not met, over the must' | 'not measured'
}

/** Several runs summarised: each target's figure per run and the median (docs/lsp-local.md's three runs). */
export interface RunsSummary {
  readonly runs: ReadonlyArray<{ readonly generatedAt: string; readonly durationMs: number }>
  readonly rows: ReadonlyArray<{
    readonly target: string
    /** null: that run did not measure it (JSON keeps null in arrays, not undefined). */
    readonly values: ReadonlyArray<number | null>
    readonly median?: number
    readonly unit: string
    readonly goal: string
    readonly must: string
    readonly verdict: TargetVerdictRow['verdict']
  }>
}

/** A layer that could not be measured, and why. */
export interface MissingMeasurement {
  readonly what: string
  readonly why: string
}

/** One symbol of the large-monorepo scenario (issue 50, RFC 0035): spawn → first complete references answer. */
export interface MonorepoSymbolResult {
  readonly symbol: string
  readonly path: string
  /** References in the oracle's answer (the bare server with every source file open). */
  readonly expected: number
  /** The bare native TypeScript server primed with one file per project. */
  readonly bare: ColdSideSummary
  readonly codeseam: ColdSideSummary
  /** codeseam ÷ bare primed, the median of the paired cold starts (absent unless every run of both was complete). */
  readonly ratio?: number
  /** Projects codeseam's first answer searched (those that can reach the symbol's file; all when need-first fell back). */
  readonly projectsSearched?: number
  /** `codeseam mcp` spawned with the stored index (issue 52): its cold starts, paired with the same bare runs. */
  readonly fromIndex?: {
    readonly side: ColdSideSummary
    /** Runs whose answer said it came from the index (tool-lsp's source note). */
    readonly answeredFromIndex: number
    readonly ratio?: number
    /**
     * When an answer lacked only locations that docs/index.md lists as differences between the index and the server
     * (bench/src/index-differences.ts recognises them by what the index holds there): how many of each, the most in a run.
     */
    readonly listedDifferences?: Partial<Record<ListedDifference, number>>
    /** The ratio with such answers counted complete (absent unless every run was, one way or the other). */
    readonly ratioApartFromListed?: number
    /** Median RSS of the `codeseam mcp` process tree right after its answer. */
    readonly rssBytes?: number
  }
}

/** The large-monorepo scenario: tanstack-query with its workspace packages linked. */
export interface MonorepoFirstAnswerResult {
  readonly corpus: string
  readonly linkedPackages: number
  readonly sourceFiles: number
  readonly projects: number
  /** The ratio the issue asks for (≤). */
  readonly target: number
  readonly symbols: ReadonlyArray<MonorepoSymbolResult>
  /** `codeseam index` on the linked tree (default settings: every tsconfig.json under the root), when it was built. */
  readonly index?: {
    /** The ratio issue 52 asks for (≤): `codeseam mcp` with a matching index ÷ bare primed. */
    readonly target: number
    /** `codeseam index` spawn → exit, and the indexer's own time (the sidecar's). */
    readonly ms: number
    readonly indexMs: number
    readonly bytes: number
    readonly documents: number
    /** Largest RSS of the `codeseam index` process tree, sampled every 250 ms. */
    readonly peakRssBytes: number
  }
}

/** Everything one `pnpm bench` run measured; the docs are generated from this alone. */
export interface BenchReport {
  readonly schema: 1
  readonly generatedAt: string
  readonly command: string
  readonly durationMs: number
  readonly machine: MachineInfo
  readonly workspaces: ReadonlyArray<WorkspaceInfo>
  readonly readMix: ReadonlyArray<ReadMixResult>
  /** The read mix's derived operations: what was asked, what they are built from, what the floor answered. */
  readonly derivedOperations?: ReadonlyArray<DerivedOperationInfo>
  readonly coldStart: ReadonlyArray<ColdStartResult>
  readonly hotReferences: ReadonlyArray<HotReferencesResult>
  readonly targetResolution: ReadonlyArray<TargetResolutionResult>
  readonly concurrency: ReadonlyArray<ConcurrencyResult>
  readonly memory: ReadonlyArray<MemoryResult>
  /** Absent in reports from before the set existed, and when the corpora are missing (see `missing`). */
  readonly realRepositories?: RealRepositoriesReport
  /** A large monorepo, installed: spawn → first complete workspace-wide answer against the bare primed server (issue 50). */
  readonly monorepoFirstAnswer?: MonorepoFirstAnswerResult
  /** Issue 15's figures (absent in reports from before they were measured). */
  readonly increments?: ReadonlyArray<IncrementResult>
  readonly sdkNoop?: SdkNoopResult
  readonly startup?: StartupResult
  readonly firstAnswer?: ReadonlyArray<FirstAnswerResult>
  readonly ownMemory?: ReadonlyArray<OwnMemoryResult>
  /** The "many agents" scenario (absent when it did not run). */
  readonly manyAgents?: ReadonlyArray<ManyAgentsResult>
  /** Go and Rust rows: gopls and rust-analyzer on their corpora against the bare servers (absent when it did not run). */
  readonly languages?: ReadonlyArray<LanguageResult>
  /** Keeping up with the disk: calls with nothing changed and right after a change, against the bare server (absent when it did not run). */
  readonly diskChanges?: DiskChangesResult
  /** Pages from the computed answer: later pages of a large references answer (absent when it did not run). */
  readonly keptPages?: KeptPagesResult
  /** Telemetry overhead: instrumented against plain tool calls, without and with an SDK (absent when it did not run). */
  readonly telemetry?: TelemetryOverheadResult
  /** Present when the report summarises several runs (`--runs N`): its other figures are the last run's. */
  readonly runsSummary?: RunsSummary
  readonly missing: ReadonlyArray<MissingMeasurement>
  readonly notes: ReadonlyArray<string>
}
