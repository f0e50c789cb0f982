// A large monorepo, installed (issue 50, RFC 0035): ../shared/corpora/tanstack-query with its workspace packages
// linked into node_modules by package.json name (the corpora README: what `pnpm install` does for them). Spawn → the
// first complete workspace-wide answer (references on a fixed symbol), codeseam against the bare native TypeScript
// server primed with one file per project, in alternating cold starts of the same run; each answer is judged by
// the oracle's (the bare server with every source file open). codeseam loads first the projects that can reach
// the symbol's file; the bare server has every project loaded before it is asked.
import * as nodePath from 'node:path'
import { performance } from 'node:perf_hooks'

import { createLsp, type LspSearchCoverage } from '@codeseam/lsp'
import { createLocalHost } from '@codeseam/lsp-local'

import { difference, OracleServer, sourceFilesOf, workspaceLayoutOf } from '../../../packages/lsp-local/test/oracle/index.js'
import { corporaFolder, linkWorkspacePackages, unpackCorpus } from '../../../packages/lsp-local/test/oracle/workspaces.js'
import { seamAnswer } from '../../../packages/lsp-local/test/oracle/seam.js'
import { coldSideSummary, pairedColdRatio } from '../first-complete.js'
import { FloorClient } from '../floor-client.js'
import { IndexDifferences, type ListedDifference } from '../index-differences.js'
import { withDeadline } from '../measure.js'
import type { MissingMeasurement, MonorepoFirstAnswerResult, MonorepoSymbolResult } from '../report.js'
import { defaultProfile, serverCommandOf } from '../server-commands.js'
import { round } from '../statistics.js'
import { onePerProject } from '../one-per-project.js'
import { mcpFirstAnswer } from './mcp-first-answer.js'
import { buildMonorepoIndex, removeMonorepoIndex, type MonorepoIndexBuild } from './monorepo-index.js'
import { attempt, judged, locate, referenceKeys, type FixedSymbol } from './real-repositories.js'

/** codeseam ÷ bare primed, spawn → first complete answer: the goal (aim ≤ 1.0×). */
export const monorepoTarget = 1.3
/** `codeseam mcp` with a matching index ÷ bare primed (issue 52). */
export const monorepoIndexTarget = 0.3

/**
 * The symbols asked about: one few projects can reach (a persister: RFC 0035's case) and one nearly every project
 * reaches (query-core's QueryClient: need-first loads nearly everything, today's figure).
 */
export const monorepoSymbols: ReadonlyArray<FixedSymbol> = [
  {
    path: 'packages/query-sync-storage-persister/src/index.ts',
    name: 'createSyncStoragePersister',
    kind: 'function',
    declaration: 'export function createSyncStoragePersister(',
  },
  { path: 'packages/query-core/src/queryClient.ts', name: 'QueryClient', kind: 'class', declaration: 'export class QueryClient ' },
]

export interface MonorepoOptions {
  readonly rounds: number
  readonly missing: MissingMeasurement[]
  readonly log: (message: string) => void
}

/** Bare, primed with one file per project: spawn, open them, ask once. Spawn → answer. */
async function barePrimed(root: string, files: ReadonlyArray<string>, symbol: FixedSymbol): Promise<{ ms: number; keys: string[] }> {
  const profile = await defaultProfile('typescript')
  if (profile.unavailable !== undefined) throw new Error(profile.unavailable)
  const layout = await workspaceLayoutOf(root, 'typescript')
  const target = locate(root, symbol)
  const started = performance.now()
  const client = await FloorClient.start({ ...serverCommandOf(profile), settings: layout.settings }, root, {
    folders: layout.folders,
    unscopedSettings: layout.unscoped,
  })
  try {
    for (const file of files) await client.ensureOpen(file)
    const keys = referenceKeys(root, await client.references(target.path, { line: target.line, character: target.character }))
    return { ms: performance.now() - started, keys }
  } finally {
    await withDeadline(client.stop(), 30_000, 'the bare server to stop')
  }
}

/** codeseam, cold (default settings, untrusted root, as `codeseam mcp` starts): host creation → answer, and what it searched. */
async function seamFirst(root: string, symbol: FixedSymbol): Promise<{ ms: number; keys: string[]; coverage?: LspSearchCoverage }> {
  const started = performance.now()
  const host = await createLocalHost()
  const lsp = createLsp()
  const release = await host.attach(lsp, [{ root }])
  // The answer's coverage, kept as the oracle's helper asks.
  let coverage: LspSearchCoverage | undefined
  const recording = new Proxy(lsp, {
    get(target, key) {
      if (key === 'query')
        return async (request: Parameters<typeof lsp.query>[0]) => {
          const result = await target.query(request)
          coverage = result.meta.coverage ?? coverage
          return result
        }
      const value: unknown = Reflect.get(target, key)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
  try {
    const { keys } = await seamAnswer(recording, root, 'typescript', 'references', locate(root, symbol))
    return { ms: performance.now() - started, keys, ...(coverage === undefined ? {} : { coverage }) }
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

/** The scenario: undefined (and a missing line) when the corpora are not there. */
export async function runMonorepoFirstAnswer(options: MonorepoOptions): Promise<MonorepoFirstAnswerResult | undefined> {
  if (corporaFolder() === undefined) {
    options.missing.push({
      what: 'a large monorepo (tanstack-query, linked)',
      why: '../shared/corpora (or CODESEAM_CORPORA_DIR) is missing: the corpora were not unpacked',
    })
    return undefined
  }
  const corpus = unpackCorpus('tanstack-query')
  try {
    const { root } = corpus
    const linkedPackages = linkWorkspacePackages(root)
    const files = sourceFilesOf(root, 'typescript')
    const primed = onePerProject(root)
    options.log(`monorepo: tanstack-query, ${linkedPackages} packages linked, ${files.length} source files, ${primed.length} projects`)
    // Every source file open: minutes on a busy machine (not timed), so the oracle's requests may take up to 10.
    const oracle = await OracleServer.start(root, 'typescript', { requestTimeoutMs: 600_000 })
    const expected = new Map<string, ReadonlyArray<string>>()
    try {
      for (const symbol of monorepoSymbols) expected.set(symbol.name, await oracle.references(locate(root, symbol)))
    } finally {
      await oracle.dispose()
    }
    // CODESEAM_BENCH_MONOREPO_INDEX=0 leaves the index side out (a local run measuring only the live side).
    const skipIndex = process.env['CODESEAM_BENCH_MONOREPO_INDEX'] === '0'
    if (!skipIndex) options.log('monorepo: codeseam index (default settings: every tsconfig.json under the root)')
    const built = skipIndex ? new Error('left out: CODESEAM_BENCH_MONOREPO_INDEX=0') : await attempt(() => buildMonorepoIndex(root))
    const index: MonorepoIndexBuild | undefined = built instanceof Error ? undefined : built
    if (built instanceof Error) {
      const why = built.message.split('\n')[0]!.slice(0, 300)
      options.missing.push({ what: 'a large monorepo answered from a precomputed index', why })
      options.log(`not measured: the monorepo's index: ${why}`)
    }
    const symbols: MonorepoSymbolResult[] = []
    try {
      // What the index holds where its answer differs from the oracle's: the differences docs/index.md lists.
      const listed = index === undefined ? undefined : await IndexDifferences.read(nodePath.join(index.directory, 'index.scip'), root)
      for (const symbol of monorepoSymbols)
        symbols.push(await measureSymbol(root, primed, symbol, expected.get(symbol.name) ?? [], index, listed, options))
    } finally {
      if (index !== undefined) await removeMonorepoIndex(index)
    }
    return {
      corpus: 'tanstack-query',
      linkedPackages,
      sourceFiles: files.length,
      projects: primed.length,
      target: monorepoTarget,
      symbols,
      ...(index === undefined
        ? {}
        : {
            index: {
              target: monorepoIndexTarget,
              ms: round(index.ms, 0),
              indexMs: index.indexMs,
              bytes: index.bytes,
              documents: index.documents,
              peakRssBytes: index.peakRssBytes,
            },
          }),
    }
  } finally {
    corpus.remove()
  }
}

type Side = { ms?: number; complete: boolean }

/** One symbol's alternating cold starts: bare primed, codeseam in process, and `codeseam mcp` with the index. */
async function measureSymbol(
  root: string,
  primed: ReadonlyArray<string>,
  symbol: FixedSymbol,
  want: ReadonlyArray<string>,
  index: MonorepoIndexBuild | undefined,
  listed: IndexDifferences | undefined,
  options: MonorepoOptions,
): Promise<MonorepoSymbolResult> {
  const pairs: Array<{ upper: Side; lower: Side }> = []
  const indexPairs: Array<{ upper: Side; lower: Side }> = []
  // The same answers, complete when every location they lack against the oracle is a listed difference.
  const apartPairs: Array<{ upper: Side; lower: Side }> = []
  const listedCounts: Partial<Record<ListedDifference, number>> = {}
  const indexRss: number[] = []
  let fromIndex = 0
  let searched: number | undefined
  for (let run = 0; run < options.rounds; run++) {
    options.log(`monorepo: ${symbol.name}, cold start ${run + 1}/${options.rounds}`)
    const bare = judged(want, await attempt(() => barePrimed(root, primed, symbol)))
    const answer = await attempt(() => seamFirst(root, symbol))
    const seam = judged(want, answer)
    if (!(answer instanceof Error)) searched = answer.coverage?.searched?.projects ?? answer.coverage?.projectsSearched
    pairs.push({ upper: seam, lower: bare })
    if (index !== undefined) {
      const indexed = await attempt(() => mcpFirstAnswer(root, locate(root, symbol)))
      if (!(indexed instanceof Error)) {
        if (indexed.fromIndex) fromIndex++
        if (indexed.rssBytes !== undefined) indexRss.push(indexed.rssBytes)
      }
      const side = judged(want, indexed)
      indexPairs.push({ upper: side, lower: bare })
      if (!side.complete) options.log(`monorepo: ${symbol.name}: the index's first answer was not complete: ${JSON.stringify(side)}`)
      const apart =
        side.complete || indexed instanceof Error || listed === undefined
          ? undefined
          : apartFromListed(want, indexed.keys, listed, locate(root, symbol))
      if (apart !== undefined) {
        for (const [name, count] of Object.entries(apart))
          listedCounts[name as ListedDifference] = Math.max(listedCounts[name as ListedDifference] ?? 0, count)
        options.log(`monorepo: ${symbol.name}: every location the index's answer lacks is a listed difference: ${JSON.stringify(apart)}`)
      }
      apartPairs.push({ upper: { ...side, complete: side.complete || apart !== undefined }, lower: bare })
    }
  }
  const ratio = pairedColdRatio(pairs)
  const indexRatio = pairedColdRatio(indexPairs)
  const apartRatio = Object.keys(listedCounts).length === 0 ? undefined : pairedColdRatio(apartPairs)
  const sortedRss = [...indexRss].sort((a, b) => a - b)
  return {
    symbol: symbol.name,
    path: symbol.path,
    expected: want.length,
    bare: coldSideSummary(pairs.map((pair) => pair.lower)),
    codeseam: coldSideSummary(pairs.map((pair) => pair.upper)),
    ...(ratio === undefined ? {} : { ratio: round(ratio, 2) }),
    ...(searched === undefined ? {} : { projectsSearched: searched }),
    ...(index === undefined
      ? {}
      : {
          fromIndex: {
            side: coldSideSummary(indexPairs.map((pair) => pair.upper)),
            answeredFromIndex: fromIndex,
            ...(indexRatio === undefined ? {} : { ratio: round(indexRatio, 2) }),
            ...(Object.keys(listedCounts).length === 0 ? {} : { listedDifferences: listedCounts }),
            ...(apartRatio === undefined ? {} : { ratioApartFromListed: round(apartRatio, 2) }),
            ...(sortedRss.length === 0 ? {} : { rssBytes: sortedRss[sortedRss.length >> 1]! }),
          },
        }),
  }
}

/**
 * The listed differences an answer's missing locations fall in, by category, when all of them do and it has no
 * extra location; undefined otherwise (the answer stays incomplete).
 */
function apartFromListed(
  want: ReadonlyArray<string>,
  keys: ReadonlyArray<string>,
  listed: IndexDifferences,
  target: { readonly path: string; readonly line: number; readonly character: number },
): Partial<Record<ListedDifference, number>> | undefined {
  if (keys.some((key) => key.startsWith('!error'))) return undefined
  const { missing, extra } = difference(
    want,
    keys.filter((key) => !key.startsWith('!')),
  )
  if (extra.length > 0 || missing.length === 0) return undefined
  const counts: Partial<Record<ListedDifference, number>> = {}
  for (const key of missing) {
    const category = listed.classify(target, key)
    if (category === undefined) return undefined
    counts[category] = (counts[category] ?? 0) + 1
  }
  return counts
}
