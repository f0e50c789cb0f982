// Go and Rust rows (issue 28): gopls on the gorilla-mux corpus and rust-analyzer on the bytes corpus, each
// against the bare server in the same run, with the three figures the TypeScript and Python rows have:
//
// 1. Start → the first COMPLETE workspace-wide answer (references of a widely used type).
//    - final: a bare server with every source file open (rust-analyzer: once quiescent), asked until its answer
//      settles — what "complete" means for both sides.
//    - bare: spawn → initialize → asked again and again until an answer counts as complete under the record's
//      readiness (first-complete.ts: gopls the first answer equal to the final one; rust-analyzer the first
//      such answer asked once its experimental/serverStatus said quiescent — the bare client advertises
//      `serverStatusNotification` as codeseam's does).
//    - codeseam: createLocalHost() + createLsp() + attach (default settings: an untrusted root), asked ONCE
//      through ctx.lsp (host creation → answer), and `codeseam mcp` spawned and asked once; judged against the
//      final answer as the real repositories' cold starts are.
// 2. The warm per-query increment: the floor (the bare client) and ctx.lsp take turns query by query over the
//    wider mix's operations (scenarios/read-mix.ts, increments.ts): ctx.lsp − floor paired per turn.
// 3. RSS of the server process trees after those rounds (codeseam's server tree, the host's watchdog apart).
//
// Every bare server is started with lsp-local's own spawn plan for the same trust level (server-commands.ts:
// planSpawn + the heap cap): the same executable, arguments, environment, initialization options and
// settings. A missing server or corpus gives a row that says what is missing and how to install it.
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { performance } from 'node:perf_hooks'

import { builtinLanguages, type ServerProfile, type TrustLevel } from '@codeseam/lsp-local'

import { unpackCorpora, type OracleWorkspace } from '../../../packages/lsp-local/test/oracle/index.js'
import { walkFiles } from '../../../packages/lsp-local/test/oracle/oracle.js'
import { corporaFolder } from '../../../packages/lsp-local/test/oracle/workspaces.js'
import { coldSideSummary, pairedColdRatio, type CompletenessRule } from '../first-complete.js'
import type { ServerCommand } from '../floor-client.js'
import { ctxLspLayer, startHostedLsp, type HostedLsp } from '../layers/ctx-lsp-layer.js'
import { startFloorLayer } from '../layers/floor-layer.js'
import { untilCorrect, withDeadline } from '../measure.js'
import { childProcesses, treeRss } from '../process-memory.js'
import type { ReadQuery } from '../read-mix.js'
import type { LanguageResult, MissingMeasurement, RealColdStartSide } from '../report.js'
import { defaultProfile, plannedServerCommand } from '../server-commands.js'
import { quantile, round } from '../statistics.js'
import { wideMixQueries } from '../wide-mix.js'
import { bareCold, deadlineMs, finalAnswer, rssFigure, seamCold, serverRoots } from './languages-cold.js'
import { mcpFirstAnswer } from './mcp-first-answer.js'
import { runReadMix } from './read-mix.js'
import { attempt, corpusOrigin, judged, locate, type FixedSymbol } from './real-repositories.js'
import { settledFloorAnswer } from './wide-mix.js'

/** One language's row: which language (its default built-in profile serves it), on which corpus, asked about which symbol. */
export interface LanguageCase {
  readonly language: LanguageResult['language']
  /** The LSP language id; the record serving it by default is the server measured. */
  readonly languageId: 'go' | 'rust'
  readonly corpus: string
  /** The source files the final answer's server opens. */
  readonly extensions: ReadonlyArray<string>
  /** The first-answer question: references of this symbol (a type used across the crate or module). */
  readonly symbol: FixedSymbol
}

export const languageCases: ReadonlyArray<LanguageCase> = [
  {
    language: 'Go',
    languageId: 'go',
    corpus: 'gorilla-mux',
    extensions: ['.go'],
    symbol: { path: 'mux.go', name: 'Router', kind: 'struct', declaration: 'type Router struct {' },
  },
  {
    language: 'Rust',
    languageId: 'rust',
    corpus: 'bytes',
    extensions: ['.rs'],
    symbol: { path: 'src/bytes.rs', name: 'Bytes', kind: 'struct', declaration: 'pub struct Bytes {' },
  },
]

/** The rule a profile's first complete answer is judged by: its record's readiness decides. */
export function completenessRuleOf(profile: Pick<ServerProfile, 'readiness'>): CompletenessRule {
  return profile.readiness === 'serverStatus' ? 'quiescentThenEqualsFinal' : 'equalsFinal'
}

export interface LanguagesOptions {
  readonly rounds: number
  readonly missing: MissingMeasurement[]
  readonly log: (message: string) => void
  /** Also time `codeseam mcp` start → first answer (default true). */
  readonly mcp?: boolean
  /** Cold starts per side for the first-answer figure, alternating who goes first (default 3). */
  readonly coldRuns?: number
  /** Only these languages (default: every case). */
  readonly cases?: ReadonlyArray<LanguageCase>
}

/** Both sides' trust level: codeseam's default, as `codeseam mcp` starts. */
const trust: TrustLevel = 'untrusted'

/** The warm series and the RSS after it: the floor and ctx.lsp (untrusted, as the bare plan) taking turns. */
async function warmSeries(
  testCase: LanguageCase,
  command: ServerCommand,
  root: string,
  rule: CompletenessRule,
  rounds: number,
  log: (message: string) => void,
): Promise<Pick<LanguageResult, 'warm' | 'rss'>> {
  const floor = await startFloorLayer(command, root, { wide: true, serverStatus: rule === 'quiescentThenEqualsFinal' })
  let hosted: HostedLsp | undefined
  try {
    if (rule === 'quiescentThenEqualsFinal') await floor.client.untilQuiescent(deadlineMs)
    const read = (path: string) => readFileSync(nodePath.join(root, path), 'utf8')
    const queries: ReadQuery[] = []
    for (const query of wideMixQueries(testCase.corpus, read))
      queries.push({ ...query, expect: { floor: await settledFloorAnswer(root, floor, query) } })
    const excluded = new Set(childProcesses())
    hosted = await startHostedLsp(root, { trust, otherPids: () => floor.pids() })
    log(`${testCase.corpus}: warm ${queries.map((q) => q.operation).join(', ')} × ${rounds} rounds through floor, ctx.lsp`)
    // Warm before sampling: a server still starting would pull codeseam's RSS median down.
    const seamLayer = ctxLspLayer(hosted)
    for (const query of queries) await untilCorrect(seamLayer, query)
    // Both trees sampled every 250 ms while the rounds run (a Go heap's RSS moves with its collections: one
    // reading would be a coin toss); the figure is the median of the samples.
    const bareSamples: number[] = []
    const seamSamples: number[] = []
    let seamProcesses = 0
    const sample = () => {
      const servers = serverRoots(excluded)
      seamProcesses = Math.max(seamProcesses, servers.length)
      bareSamples.push(treeRss(floor.pids()))
      seamSamples.push(treeRss(servers))
    }
    const sampler = setInterval(sample, 250)
    let mix: Awaited<ReturnType<typeof runReadMix>>
    try {
      mix = await runReadMix(testCase.corpus, [floor, seamLayer], queries, rounds, { mix: 'wide mix' })
    } finally {
      clearInterval(sampler)
    }
    sample()
    const { results, increments } = mix
    const bareRss = rssFigure(bareSamples)
    const seamRss = rssFigure(seamSamples)
    return {
      warm: {
        rounds,
        queries: queries.map((q) => ({ label: q.label, operation: q.operation, floorCount: q.expect.floor!.count })),
        readMix: results,
        increments,
      },
      rss: {
        samples: bareSamples.length,
        bare: bareRss,
        codeseam: seamRss,
        ratio: round(seamRss.median / bareRss.median, 2),
        codeseamProcesses: seamProcesses,
      },
    }
  } finally {
    await withDeadline(
      (async () => {
        await hosted?.dispose()
        await floor.stop()
      })(),
      60_000,
      'the warm series to stop',
    )
  }
}

const medianOf = (values: ReadonlyArray<number>) =>
  values.length === 0
    ? undefined
    : Math.round(
        quantile(
          [...values].sort((a, b) => a - b),
          0.5,
        ),
      )

/** Why a row has no figures: the server's own reason and install command, or the corpus's. */
function unavailableRow(base: LanguageResult, what: string, why: string, install: string, missing: MissingMeasurement[]): LanguageResult {
  missing.push({
    what: `${base.language} (${base.profile} on ${base.corpus})`,
    why: why.includes(install) ? why : `${why} (install: ${install})`,
  })
  return { ...base, unavailable: { what, why, install } }
}

/** One language's row. */
async function runLanguage(
  testCase: LanguageCase,
  workspace: OracleWorkspace | undefined,
  folder: string | undefined,
  options: LanguagesOptions,
): Promise<LanguageResult> {
  const { log } = options
  const profile = await defaultProfile(testCase.languageId)
  const described = (await builtinLanguages()).find((language) => language.id === profile.id)
  const rule = completenessRuleOf(profile)
  const base: LanguageResult = {
    language: testCase.language,
    profile: profile.id,
    server: `${described?.server ?? profile.id}${described?.version === undefined ? '' : ` (found: ${described.version})`}`,
    corpus: testCase.corpus,
    trust,
    rule,
    notes: [],
  }
  if (profile.unavailable !== undefined)
    return unavailableRow(base, `the ${profile.id} server`, profile.unavailable, profile.install ?? '—', options.missing)
  if (folder === undefined)
    return unavailableRow(
      base,
      'the corpora',
      '../shared/corpora (or CODESEAM_CORPORA_DIR) is missing: the corpora were not unpacked',
      'unpack the corpora archives into ../shared/corpora beside the repository (see its README)',
      options.missing,
    )
  if (workspace === undefined)
    return unavailableRow(
      base,
      `the ${testCase.corpus} corpus`,
      `${nodePath.join(folder, `${testCase.corpus}.tar.gz`)} is missing`,
      `put the ${testCase.corpus} snapshot its README lists into ${folder} as ${testCase.corpus}.tar.gz`,
      options.missing,
    )

  const { root } = workspace
  const notes: string[] = []
  const origin = corpusOrigin(folder, testCase.corpus)
  const target = locate(root, testCase.symbol)
  const files = walkFiles(root, (name) => testCase.extensions.includes(nodePath.extname(name).toLowerCase()))
  const { command, hardening } = plannedServerCommand(profile, root, trust)
  const row: LanguageResult = {
    ...base,
    ...origin,
    sourceFiles: files.length,
    hardening,
    symbol: { name: target.name, path: target.path, line: target.line + 1 },
    notes,
  }

  log(`${testCase.corpus}: the final answer (bare ${profile.id}, ${files.length} source files open)`)
  const final = await attempt(() => finalAnswer(command, root, files, target, rule))
  if (final instanceof Error) {
    const why = final.message.slice(0, 300)
    options.missing.push({ what: `${testCase.language} (${profile.id} on ${testCase.corpus}): first answer`, why })
    notes.push(`no final answer, so no first-answer figures: ${why}`)
  } else {
    notes.push(`final answer: ${final.keys.length} references, settled ${(final.ms / 1000).toFixed(1)} s after spawn with every file open`)
    const runs: Array<NonNullable<LanguageResult['firstAnswer']>['runs'][number]> = []
    for (let run = 0; run < (options.coldRuns ?? 3); run++) {
      // Who starts first alternates, so neither side always follows the other's teardown.
      const bareFirst = run % 2 === 0
      const bareSide = async () => {
        log(`${testCase.corpus}: cold ${run + 1}, bare ${profile.id} → first complete references answer for ${target.name}`)
        return bareCold(command, root, target, final.keys, rule)
      }
      const first = bareFirst ? await bareSide() : undefined
      log(`${testCase.corpus}: cold ${run + 1}, codeseam (ctx.lsp) → first references answer for ${target.name}`)
      const seamAnswer = await attempt(() => seamCold(root, target))
      const bare = first ?? (await bareSide())
      const codeseam = {
        ...judged(final.keys, seamAnswer),
        ...(seamAnswer instanceof Error ? {} : { rssBytes: seamAnswer.rssBytes }),
      }
      let mcp: RealColdStartSide | undefined
      if (options.mcp !== false) {
        log(`${testCase.corpus}: cold ${run + 1}, codeseam mcp → first references answer for ${target.name}`)
        mcp = judged(final.keys, await attempt(() => mcpFirstAnswer(root, target)))
      }
      if (!codeseam.complete)
        log(`${testCase.corpus}: codeseam's first references answer was not complete: ${JSON.stringify(codeseam).slice(0, 300)}`)
      runs.push({ bareFirst, bare, codeseam, ...(mcp === undefined ? {} : { mcp }) })
    }
    const mcpRuns = runs.flatMap((r) => (r.mcp === undefined ? [] : [{ upper: r.mcp, lower: r.bare }]))
    const ratio = pairedColdRatio(runs.map((r) => ({ upper: r.codeseam, lower: r.bare })))
    const mcpRatio = mcpRuns.length === 0 ? undefined : pairedColdRatio(mcpRuns)
    const bareRss = medianOf(runs.flatMap((r) => (r.bare.rssBytes === undefined ? [] : [r.bare.rssBytes])))
    const seamRss = medianOf(runs.flatMap((r) => (r.codeseam.rssBytes === undefined ? [] : [r.codeseam.rssBytes])))
    Object.assign(row, {
      expected: final.keys.length,
      firstAnswer: {
        runs,
        bare: coldSideSummary(runs.map((r) => r.bare)),
        codeseam: coldSideSummary(runs.map((r) => r.codeseam)),
        ...(mcpRuns.length === 0 ? {} : { mcp: coldSideSummary(mcpRuns.map((r) => r.upper)) }),
        ...(ratio === undefined ? {} : { ratio: round(ratio, 2) }),
        ...(mcpRatio === undefined ? {} : { mcpRatio: round(mcpRatio, 2) }),
        rssAtAnswer: { ...(bareRss === undefined ? {} : { bare: bareRss }), ...(seamRss === undefined ? {} : { codeseam: seamRss }) },
      },
    })
  }

  try {
    Object.assign(row, await warmSeries(testCase, command, root, rule, options.rounds, log))
    notes.push('diagnostics are left out of the warm mix (the other operations of the wider mix are asked)')
  } catch (error) {
    const why = (error as Error).message.split('\n')[0]!.slice(0, 300)
    options.missing.push({ what: `${testCase.language} (${profile.id} on ${testCase.corpus}): warm series and RSS`, why })
    notes.push(`no warm series: ${why}`)
    log(`not measured: ${testCase.corpus} warm series: ${why}`)
  }
  return row
}

/** Every Go and Rust row; the corpora are unpacked into a temp folder once and removed at the end. */
export async function runLanguages(options: LanguagesOptions): Promise<LanguageResult[]> {
  const folder = corporaFolder()
  const workspaces = folder === undefined ? [] : unpackCorpora()
  const rows: LanguageResult[] = []
  try {
    for (const testCase of options.cases ?? languageCases) {
      const workspace = workspaces.find((w) => w.name === testCase.corpus)
      const started = performance.now()
      try {
        const row = await runLanguage(testCase, workspace, folder, options)
        rows.push({ ...row, durationMs: Math.round(performance.now() - started) })
      } catch (error) {
        const why = (error as Error).message.split('\n')[0]!.slice(0, 300)
        options.missing.push({ what: `${testCase.language} (${testCase.languageId} on ${testCase.corpus})`, why })
        options.log(`not measured: ${testCase.language}: ${why}`)
      }
      options.log(`${testCase.language} (${testCase.corpus}) took ${((performance.now() - started) / 1000).toFixed(0)} s`)
    }
  } finally {
    for (const workspace of workspaces) workspace.remove()
  }
  return rows
}
