// Size: one scenario over the corpora — the oracle's answers, the warm series and the cold starts share its setup.
// Real repositories (issue 13): the public corpora in ../shared/corpora — flask (Python, nested example
// projects) and vscode-languageserver-node (TypeScript, a deep graph of composite projects) — judged by the
// completeness oracle of packages/lsp-local/test/oracle.
//
// 1. Cold start to the first COMPLETE answer, for a few fixed symbols per corpus: references and a
//    workspace-symbol search, each side asked once from a fresh start (a second attempt would be a failure,
//    so there is none: an incomplete first answer is reported as such, with its time).
//    - bare: the bench's floor client, primed — spawn the server with the workspace folders codeseam uses,
//      open every source file (the oracle's definition of "every source file"), ask once.
//    - codeseam: createLocalHost() + createLsp() + attach (default settings, untrusted root, as `codeseam
//      mcp` starts), ask once through ctx.lsp.
//    Both answers are normalised with the oracle's keys and compared with the oracle's answer (the bare
//    server with the same folders after every file was opened and taken in).
// 2. Python corpus: a workspace-symbol search, warm, through ctx.lsp vs the bare pyright with the same
//    workspace folders (the oracle's server), in alternating rounds; medians, paired differences, the ratio
//    (target: codeseam ≤ 1.5× bare), and how many pyright processes codeseam ran.
// 3. The wider mix (issue 15, scenarios/wide-mix.ts): each layer's own increment per warm query over
//    definition, references, implementation, hover, symbols, call hierarchy and diagnostics, every answer
//    compared with the floor's.
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

import { createLsp } from '@codeseam/lsp'
import { createLocalHost } from '@codeseam/lsp-local'
import type { Location, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol'

import {
  OracleServer,
  difference,
  locationKey,
  projectModel,
  seamAsk,
  sourceFilesOf,
  unique,
  unpackCorpora,
  workspaceLayoutOf,
  workspaceSymbolKey,
  type OracleLanguage,
  type OracleWorkspace,
  type ProjectModel,
  type SymbolTarget,
  type WorkspaceLayout,
} from '../../../packages/lsp-local/test/oracle/index.js'
import { sourceExtensions } from '../../../packages/lsp-local/test/oracle/oracle.js'
import { corporaFolder } from '../../../packages/lsp-local/test/oracle/workspaces.js'
import { FloorClient, type ServerCommand } from '../floor-client.js'
import { withDeadline } from '../measure.js'
import { childProcesses, treeRss } from '../process-memory.js'
import type {
  FirstAnswerResult,
  IncrementResult,
  MissingMeasurement,
  RealColdStartResult,
  RealColdStartSide,
  RealRepositoriesReport,
  RealRepositoryCorpus,
  RealWarmWorkspaceSymbolsResult,
} from '../report.js'
import { round, roundSummary, summarize } from '../statistics.js'
import { defaultProfile, serverCommandOf } from '../server-commands.js'
import { mcpFirstAnswer } from './mcp-first-answer.js'
import { runWideMix } from './wide-mix.js'

/** A symbol asked about in every corpus run: where it is declared, found by the text that declares it. */
export interface FixedSymbol {
  readonly path: string
  readonly name: string
  readonly kind: string
  /** The start of the declaring line; the symbol's position is its name in it. */
  readonly declaration: string
}

/**
 * The fixed symbols: the oracle's top three exported symbols by references spanning two or more projects (its
 * select.ts ranking, run once; the corpora are pinned snapshots). TypeScript: leaving out an interface named
 * `_` (a workspace-symbol search for `_` says nothing), the next one instead.
 */
export const fixedSymbols: Readonly<Record<string, ReadonlyArray<FixedSymbol>>> = {
  flask: [
    { path: 'src/flask/app.py', name: 'Flask', kind: 'class', declaration: 'class Flask(' },
    { path: 'src/flask/blueprints.py', name: 'Blueprint', kind: 'class', declaration: 'class Blueprint(' },
    { path: 'src/flask/helpers.py', name: 'url_for', kind: 'function', declaration: 'def url_for(' },
  ],
  'vscode-languageserver-node': [
    { path: 'jsonrpc/src/common/disposable.ts', name: 'Disposable', kind: 'interface', declaration: 'export interface Disposable ' },
    { path: 'types/src/main.ts', name: 'Range', kind: 'interface', declaration: 'export interface Range ' },
    { path: 'jsonrpc/src/common/messages.ts', name: 'Message', kind: 'interface', declaration: 'export interface Message ' },
  ],
}

/** Extra warm workspace-symbol queries on the Python corpus, besides the symbols' names (the issue's "Blueprint" is one of them). */
const extraWarmQueries: ReadonlyArray<string> = ['render_template']

/** The warm ratio the issue asks for: codeseam's median within 1.5× of the bare server's. */
export const warmTarget = 1.5

type Operation = 'references' | 'workspaceSymbols'
const operations: ReadonlyArray<Operation> = ['references', 'workspaceSymbols']

export interface RealRepositoriesOptions {
  readonly rounds: number
  readonly missing: MissingMeasurement[]
  readonly log: (message: string) => void
  /** Also time process start → the first complete references answer through `codeseam mcp` (issue 15). */
  readonly mcpFirstAnswer?: boolean
  /** Also run the wider mix through every layer (issue 15's per-layer increments). */
  readonly wideMix?: boolean
  /** Lines for the report's notes. */
  readonly notes?: string[]
}

/** Start → first complete answer through `codeseam mcp`: at most this multiple of the bare server primed. */
export const firstAnswerTarget = 1.3

/** The symbol's position, from its declaring line. */
export function locate(root: string, symbol: FixedSymbol): SymbolTarget {
  const lines = readFileSync(nodePath.join(root, symbol.path), 'utf8').split(/\r?\n/)
  const line = lines.findIndex((text) => text.startsWith(symbol.declaration))
  if (line < 0) throw new Error(`${symbol.path} has no line starting with "${symbol.declaration}": has the corpus changed?`)
  return { path: symbol.path, name: symbol.name, kind: symbol.kind, line, character: symbol.declaration.indexOf(symbol.name) }
}

/** Repository and commit of a corpus archive, from the corpora README's table (undefined when absent). */
export function corpusOrigin(folder: string, name: string): { repository?: string; commit?: string } {
  try {
    const row = readFileSync(nodePath.join(folder, 'README.md'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith(`| ${name}.tar.gz |`))
    const cells = row?.split('|').map((cell) => cell.trim())
    return cells === undefined ? {} : { ...(cells[2] ? { repository: cells[2] } : {}), ...(cells[3] ? { commit: cells[3] } : {}) }
  } catch {
    return {}
  }
}

/** Workspace-relative path of a file URI inside the root, else undefined (as the oracle normalises). */
function relativeInside(root: string, uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined
  const relative = nodePath.relative(root, fileURLToPath(uri))
  if (relative === '' || relative.startsWith('..') || nodePath.isAbsolute(relative)) return undefined
  return relative.split(nodePath.sep).join('/')
}

/** The bare answers in the oracle's normal form (keys.ts), so they compare with its answers. */
export function referenceKeys(root: string, answer: ReadonlyArray<Location> | null): string[] {
  return unique(
    (answer ?? []).flatMap((location) => {
      const path = relativeInside(root, location.uri)
      return path === undefined ? [] : [locationKey(path, location.range)]
    }),
  )
}

function symbolKeys(root: string, language: OracleLanguage, answer: ReadonlyArray<SymbolInformation | WorkspaceSymbol> | null): string[] {
  const extensions = sourceExtensions[language]
  return unique(
    (answer ?? []).flatMap((symbol) => {
      const path = relativeInside(root, symbol.location.uri)
      if (path === undefined || !extensions.includes(nodePath.extname(path).toLowerCase())) return []
      const range =
        'range' in symbol.location ? symbol.location.range : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }
      return [workspaceSymbolKey(symbol.name, symbol.kind, path, range)]
    }),
  )
}

/**
 * The bare server: the built-in profile's executable, with the workspace folders and settings codeseam gives
 * it (the oracle's {@link workspaceLayoutOf}: lsp-local's own rule, automatic type acquisition off).
 */
interface BareServer {
  readonly command: ServerCommand
  readonly layout: WorkspaceLayout
}

async function bareServer(root: string, language: OracleLanguage): Promise<BareServer> {
  const profile = await defaultProfile(language)
  if (profile.unavailable !== undefined) throw new Error(profile.unavailable)
  const layout = await workspaceLayoutOf(root, language)
  return { command: { ...serverCommandOf(profile), settings: layout.settings }, layout }
}

interface TimedKeys {
  readonly ms: number
  readonly keys: ReadonlyArray<string>
  /** RSS of the side's language-server process trees right after it answered. */
  readonly rssBytes?: number
}

/** Bare, primed: spawn with the workspace folders, open every source file, ask once. Spawn → answer. */
async function bareCold(
  workspace: OracleWorkspace,
  bare: BareServer,
  files: ReadonlyArray<string>,
  operation: Operation,
  target: SymbolTarget,
): Promise<TimedKeys> {
  const { root, language } = workspace
  const started = performance.now()
  const client = await FloorClient.start(bare.command, root, { folders: bare.layout.folders, unscopedSettings: bare.layout.unscoped })
  try {
    for (const file of files) await client.ensureOpen(file)
    const keys =
      operation === 'references'
        ? referenceKeys(root, await client.references(target.path, { line: target.line, character: target.character }))
        : symbolKeys(root, language, await client.workspaceSymbols(target.name))
    const ms = performance.now() - started
    return { ms, keys, rssBytes: client.process.pid === undefined ? 0 : treeRss([client.process.pid]) }
  } finally {
    await withDeadline(client.stop(), 30_000, 'the bare server to stop')
  }
}

/** codeseam, cold: a new host with default settings (untrusted root) attached to a new seam, asked once. Host creation → answer. */
async function seamCold(workspace: OracleWorkspace, operation: Operation, target: SymbolTarget): Promise<TimedKeys> {
  const { root, language } = workspace
  const started = performance.now()
  const host = await createLocalHost()
  const lsp = createLsp()
  const release = await host.attach(lsp, [{ root }])
  try {
    const keys = await seamAsk(lsp, root, language, operation, target)
    const ms = performance.now() - started
    // The in-process host's servers are this process's only children now (the oracle was disposed before).
    return { ms, keys, rssBytes: treeRss(childProcesses()) }
  } finally {
    await withDeadline(
      (async () => {
        await release()
        await lsp.dispose()
        await host.dispose()
      })(),
      30_000,
      'the lsp-local host to dispose',
    )
  }
}

/** One side's first answer judged by the oracle's. */
export function judged(expected: ReadonlyArray<string>, answer: TimedKeys | Error): RealColdStartSide {
  if (answer instanceof Error)
    return { complete: false, found: 0, missing: expected.length, extra: 0, error: answer.message.split('\n')[0]!.slice(0, 200) }
  const errors = answer.keys.filter((key) => key.startsWith('!error'))
  const keys = answer.keys.filter((key) => !key.startsWith('!'))
  const { missing, extra } = difference(expected, keys)
  return {
    ms: round(answer.ms, 1),
    complete: errors.length === 0 && missing.length === 0 && extra.length === 0,
    found: keys.length,
    missing: missing.length,
    extra: extra.length,
    ...(answer.rssBytes === undefined ? {} : { rssBytes: answer.rssBytes }),
    ...(missing.length > 0 ? { missingExamples: missing.slice(0, 5) } : {}),
    ...(extra.length > 0 ? { extraExamples: extra.slice(0, 5) } : {}),
    ...(errors.length > 0 ? { error: errors[0]!.slice(0, 200) } : {}),
  }
}

/** The run's result, or the error it threw (a side that fails is reported, not fatal). */
export async function attempt<T>(run: () => Promise<T>): Promise<T | Error> {
  try {
    return await run()
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

/** Command line of a process ('' when it is gone). */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
  } catch {
    return ''
  }
}

/** pyright processes among this process's descendants, leaving out `excluded` (the bare server's). */
function pyrightProcesses(excluded: ReadonlySet<number>): number {
  return childProcesses().filter((pid) => !excluded.has(pid) && commandLine(pid).includes('langserver.index.js')).length
}

/** CPU time (clock ticks) a process has used; 0 when it is gone. */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return 0
  }
}

/**
 * Waits until this process's descendants (both servers, the host's helpers) have used at most `slackTicks`
 * of CPU over `quietMs` — the servers are done with their background analysis — bounded by `maxMs`.
 * Returns how long it waited.
 */
async function untilQuiet(quietMs = 1_000, maxMs = 60_000, slackTicks = 2): Promise<number> {
  const started = performance.now()
  const total = () => childProcesses().reduce((sum, pid) => sum + cpuTicks(pid), 0)
  let mark = total()
  let markedAt = performance.now()
  while (performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    const now = total()
    if (now - mark > slackTicks) {
      mark = now
      markedAt = performance.now()
    } else if (performance.now() - markedAt >= quietMs) {
      break
    }
  }
  return performance.now() - started
}

const sameKeys = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((key, index) => key === b[index])

/** A timed side of the warm series: asks one query, returns the normalised answer. */
interface WarmSide {
  readonly name: 'bare' | 'bare primed' | 'codeseam'
  ask(query: string): Promise<ReadonlyArray<string>>
  readonly times: number[]
  wrong: number
}

/**
 * Warm workspace symbols on a Python corpus, three sides with the same workspace folders and settings:
 * - bare: the bench's bare client, started like codeseam's server and sent nothing but the queries (no file
 *   open) — the server a bare client has; the issue's target compares against this one;
 * - bare primed: the oracle's server, every source file open (pyright answers workspace symbols from open
 *   files' parse trees, which is much faster than from closed files);
 * - codeseam: ctx.lsp over a new host with default settings.
 * Every side first answers every query until its answer equals the oracle's (bounded); then all servers go
 * quiet; then the sides take turns query by query, the order rotating every turn. Each is timed from the call
 * to its normalised answer (the same key building on every side).
 */
async function warmWorkspaceSymbols(
  workspace: OracleWorkspace,
  oracle: OracleServer,
  bareServer: BareServer,
  queries: ReadonlyArray<string>,
  expected: ReadonlyMap<string, ReadonlyArray<string>>,
  rounds: number,
): Promise<RealWarmWorkspaceSymbolsResult> {
  const { root, language } = workspace
  const client = await FloorClient.start(bareServer.command, root, {
    folders: bareServer.layout.folders,
    unscopedSettings: bareServer.layout.unscoped,
  })
  let host: Awaited<ReturnType<typeof createLocalHost>> | undefined
  let release: (() => Promise<void>) | undefined
  const lsp = createLsp()
  try {
    // Every process running now is a bare server's: codeseam's are the ones that appear after.
    const excluded = new Set(childProcesses())
    host = await createLocalHost()
    release = await host.attach(lsp, [{ root }])
    const target = (query: string): SymbolTarget => ({ path: '', name: query, kind: 'query', line: 0, character: 0 })
    const sides: WarmSide[] = [
      { name: 'bare', ask: async (query) => symbolKeys(root, language, await client.workspaceSymbols(query)), times: [], wrong: 0 },
      { name: 'bare primed', ask: (query) => oracle.workspaceSymbols(query), times: [], wrong: 0 },
      { name: 'codeseam', ask: (query) => seamAsk(lsp, root, language, 'workspaceSymbols', target(query)), times: [], wrong: 0 },
    ]
    const warmupAttempts: Record<string, number> = {}
    for (const side of sides) {
      warmupAttempts[side.name] = 0
      for (const query of queries) {
        const deadline = performance.now() + 60_000
        for (;;) {
          warmupAttempts[side.name]!++
          if (sameKeys(await side.ask(query), expected.get(query) ?? [])) break
          if (performance.now() > deadline) break
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
    }
    // Warm means settled: pyright keeps analysing for a while after its first answers.
    const settleMs = await untilQuiet()
    const [bare, primed, seam] = sides as [WarmSide, WarmSide, WarmSide]
    const differences: number[] = []
    let pyrightMax = pyrightProcesses(excluded)
    let turn = 0
    for (let index = 0; index < rounds; index++) {
      for (const query of queries) {
        const want = expected.get(query) ?? []
        const times = new Map<WarmSide, number>()
        const shift = turn++ % sides.length
        for (const side of [...sides.slice(shift), ...sides.slice(0, shift)]) {
          const started = performance.now()
          const keys = await side.ask(query)
          const ms = performance.now() - started
          side.times.push(ms)
          times.set(side, ms)
          if (!sameKeys(keys, want)) side.wrong++
        }
        differences.push(times.get(seam)! - times.get(bare)!)
      }
      pyrightMax = Math.max(pyrightMax, pyrightProcesses(excluded))
    }
    const bareSummary = summarize(bare.times)
    const primedSummary = summarize(primed.times)
    const seamSummary = summarize(seam.times)
    const ratio = seamSummary.median / bareSummary.median
    return {
      corpus: workspace.name,
      queries: [...queries],
      rounds,
      workspaceFolders: bareServer.layout.folders.length,
      bare: roundSummary(bareSummary),
      barePrimed: roundSummary(primedSummary),
      codeseam: roundSummary(seamSummary),
      ratio: round(ratio, 2),
      ratioToPrimed: round(seamSummary.median / primedSummary.median, 2),
      pairedDifference: roundSummary(summarize(differences)),
      target: warmTarget,
      withinTarget: ratio <= warmTarget,
      wrong: { bare: bare.wrong, barePrimed: primed.wrong, codeseam: seam.wrong },
      warmupAttempts,
      settleMs: round(settleMs, 0),
      pyrightProcesses: pyrightProcesses(excluded),
      pyrightProcessesMax: pyrightMax,
      results: Object.fromEntries(queries.map((query) => [query, expected.get(query)?.length ?? 0])),
    }
  } finally {
    await withDeadline(
      (async () => {
        await release?.()
        await lsp.dispose()
        await host?.dispose()
        await client.stop()
      })(),
      30_000,
      'the lsp-local host and the bare server to stop',
    )
  }
}

/** Projects a symbol's references span (by the oracle's project model). */
function spannedProjects(model: ProjectModel, keys: ReadonlyArray<string>): number {
  return new Set(keys.flatMap((key) => model.projectsOf(key.slice(0, key.indexOf('@'))))).size
}

/** What the run collects (the report's shape, growing). */
interface Collected {
  readonly corpora: RealRepositoryCorpus[]
  readonly coldStart: RealColdStartResult[]
  readonly warmWorkspaceSymbols: RealWarmWorkspaceSymbolsResult[]
  readonly firstAnswer: FirstAnswerResult[]
  readonly increments: IncrementResult[]
}

/** One corpus: the oracle's answers (and, for Python, the warm series while it runs), then the cold starts. */
async function runCorpus(workspace: OracleWorkspace, folder: string, options: RealRepositoriesOptions, out: Collected): Promise<void> {
  const { root, language, name } = workspace
  const { log } = options
  const symbols = (fixedSymbols[name] ?? []).map((symbol) => locate(root, symbol))
  if (symbols.length === 0) throw new Error(`no fixed symbols for the corpus ${name}`)
  const files = sourceFilesOf(root, language)
  const model = projectModel(root, language)
  const warmQueries = language === 'python' ? unique([...symbols.map((symbol) => symbol.name), ...extraWarmQueries]) : []

  const bare = await bareServer(root, language)
  log(`${name}: the oracle (bare ${(await defaultProfile(language)).id}, ${files.length} source files open)`)
  const expected = new Map<string, ReadonlyArray<string>>()
  const warmExpected = new Map<string, ReadonlyArray<string>>()
  const started = performance.now()
  const oracle = await OracleServer.start(root, language)
  const settleMs = performance.now() - started
  try {
    for (const symbol of symbols)
      for (const operation of operations) expected.set(`${operation} ${symbol.name}`, await oracle.ask(operation, symbol))
    for (const query of warmQueries) warmExpected.set(query, await oracle.workspaceSymbols(query))
    if (warmQueries.length > 0) {
      log(`${name}: warm workspace symbols × ${options.rounds} rounds (${warmQueries.join(', ')})`)
      out.warmWorkspaceSymbols.push(await warmWorkspaceSymbols(workspace, oracle, bare, warmQueries, warmExpected, options.rounds))
    }
  } finally {
    await oracle.dispose()
  }
  const origin = corpusOrigin(folder, name)
  out.corpora.push({
    name,
    language,
    ...origin,
    sourceFiles: files.length,
    projects: model.projects.length,
    workspaceFolders: bare.layout.folders.length,
    oracleSettleMs: round(settleMs, 0),
    symbols: symbols.map((symbol) => {
      const references = expected.get(`references ${symbol.name}`) ?? []
      return {
        name: symbol.name,
        path: symbol.path,
        line: symbol.line + 1,
        references: references.length,
        files: new Set(references.map((key) => key.slice(0, key.indexOf('@')))).size,
        projects: spannedProjects(model, references),
      }
    }),
  })

  let turn = 0
  for (const symbol of symbols) {
    for (const operation of operations) {
      log(`${name}: cold ${operation} for ${symbol.name}`)
      const want = expected.get(`${operation} ${symbol.name}`) ?? []
      // Who starts first alternates, so neither side always follows the other's teardown.
      const bareFirst = turn++ % 2 === 0
      const bareAnswer = bareFirst ? await attempt(() => bareCold(workspace, bare, files, operation, symbol)) : undefined
      const seam = await attempt(() => seamCold(workspace, operation, symbol))
      const bareSide = judged(want, bareAnswer ?? (await attempt(() => bareCold(workspace, bare, files, operation, symbol))))
      const seamSide = judged(want, seam)
      out.coldStart.push({
        corpus: name,
        symbol: symbol.name,
        path: `${symbol.path}:${symbol.line + 1}`,
        operation,
        expected: want.length,
        bare: bareSide,
        codeseam: seamSide,
        ...(bareSide.ms !== undefined && seamSide.ms !== undefined ? { ratio: round(seamSide.ms / bareSide.ms, 2) } : {}),
      })
      if (!seamSide.complete)
        log(`${name}: codeseam's first ${operation} answer for ${symbol.name} was not complete: ${JSON.stringify(seamSide)}`)
      if (operation === 'references' && options.mcpFirstAnswer === true) {
        // Right after the bare primed side of the same symbol: the pair shares the machine's load.
        log(`${name}: codeseam mcp, start → first references answer for ${symbol.name}`)
        const mcpSide = judged(want, await attempt(() => mcpFirstAnswer(root, symbol)))
        out.firstAnswer.push({
          corpus: name,
          symbol: symbol.name,
          operation,
          expected: want.length,
          barePrimed: bareSide,
          mcp: mcpSide,
          ...(bareSide.ms !== undefined && mcpSide.ms !== undefined ? { ratio: round(mcpSide.ms / bareSide.ms, 2) } : {}),
        })
      }
    }
  }

  if (options.wideMix === true) {
    try {
      const wide = await runWideMix(
        name,
        root,
        { command: bare.command, folders: bare.layout.folders, unscoped: bare.layout.unscoped },
        options.rounds,
        log,
      )
      out.increments.push(...wide.increments)
      options.notes?.push(...wide.notes)
    } catch (error) {
      const why = (error as Error).message.split('\n')[0]!.slice(0, 300)
      options.missing.push({ what: `real repositories: ${name}: wide mix`, why })
      log(`not measured: real repositories: ${name}: wide mix: ${why}`)
    }
  }
}

/** Every corpus in ../shared/corpora (or CODESEAM_CORPORA_DIR); a missing folder is a note and a `missing` entry. */
export async function runRealRepositories(options: RealRepositoriesOptions): Promise<
  | (RealRepositoriesReport & {
      readonly firstAnswer: ReadonlyArray<FirstAnswerResult>
      readonly increments: ReadonlyArray<IncrementResult>
    })
  | undefined
> {
  const folder = corporaFolder()
  if (folder === undefined) {
    const why = '../shared/corpora (or CODESEAM_CORPORA_DIR) is missing: the corpora were not unpacked'
    options.missing.push({ what: 'real repositories', why })
    options.log(`not measured: real repositories: ${why}`)
    return undefined
  }
  const workspaces = unpackCorpora()
  const out: Collected = { corpora: [], coldStart: [], warmWorkspaceSymbols: [], firstAnswer: [], increments: [] }
  try {
    for (const workspace of workspaces) {
      if (fixedSymbols[workspace.name] === undefined) {
        options.log(`real repositories: ${workspace.name} has no fixed symbols; skipped`)
        continue
      }
      try {
        await runCorpus(workspace, folder, options, out)
      } catch (error) {
        const why = (error as Error).message.split('\n')[0]!.slice(0, 300)
        options.missing.push({ what: `real repositories: ${workspace.name}`, why })
        options.log(`not measured: real repositories: ${workspace.name}: ${why}`)
      }
    }
  } finally {
    for (const workspace of workspaces) workspace.remove()
  }
  return out
}
