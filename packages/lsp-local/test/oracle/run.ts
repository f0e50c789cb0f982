// The oracle as one call, for the completeness test and for the benchmark: start the bare server with every
// file open, pick the symbols, compute every answer, stop the server.
import type { TrustLevel } from '../../src/policy/trust.js'
import { OracleServer, type OracleLanguage, type OracleOptions, type SymbolAnswers, type SymbolTarget } from './oracle.js'
import { projectModel, type ProjectModel } from './projects.js'
import { selectSymbols, symbolId, type Selection } from './select.js'

export interface WorkspaceSpec {
  readonly name?: string
  /** Canonical (realpath) root. */
  readonly root: string
  readonly language: OracleLanguage
  /** gopls and rust-analyzer: the trust level both sides run at (default untrusted, as `codeseam mcp` starts). */
  readonly trust?: TrustLevel
}

export interface OracleRun {
  readonly workspace: WorkspaceSpec
  readonly model: ProjectModel
  readonly selection: Selection
  /** Per selected symbol (by {@link symbolId}): the normalised answer of every operation. */
  readonly answers: ReadonlyMap<string, SymbolAnswers>
  readonly timings: { readonly startMs: number; readonly selectMs: number; readonly answersMs: number }
}

export interface RunOptions {
  readonly top?: number
  readonly seeded?: number
  readonly seed?: number
  /** At most this many reference queries while ranking the top symbols (see selectSymbols). */
  readonly maxRanked?: number
  /** Seeded picks make the selection up to this many symbols when there are too few top ones (see selectSymbols). */
  readonly fillTo?: number
  /** Symbols asked about besides the selection (probes the caller chose), appended as `fixed`. */
  readonly fixed?: ReadonlyArray<SymbolTarget>
  readonly oracle?: OracleOptions
  /** Called while the oracle's server runs (e.g. to record its process for a leak check). */
  readonly onRunning?: () => Promise<void>
}

/** Answers for `symbols` from a running oracle, keyed by {@link symbolId}. */
export async function answersFrom(oracle: OracleServer, symbols: ReadonlyArray<SymbolTarget>): Promise<Map<string, SymbolAnswers>> {
  const answers = new Map<string, SymbolAnswers>()
  for (const symbol of symbols) answers.set(symbolId(symbol), await oracle.answers(symbol))
  return answers
}

/** Starts an oracle on `workspace`, answers every operation for `symbols`, stops it. */
export async function oracleAnswers(
  workspace: WorkspaceSpec,
  symbols: ReadonlyArray<SymbolTarget>,
  options: OracleOptions = {},
): Promise<Map<string, SymbolAnswers>> {
  const oracle = await OracleServer.start(workspace.root, workspace.language, {
    ...options,
    ...(workspace.trust === undefined ? {} : { trust: workspace.trust }),
  })
  try {
    return await answersFrom(oracle, symbols)
  } finally {
    await oracle.dispose()
  }
}

/** Starts an oracle on `workspace`, selects the symbols (see select.ts), answers every operation for them, stops it. */
export async function runOracle(workspace: WorkspaceSpec, options: RunOptions = {}): Promise<OracleRun> {
  const started = performance.now()
  const model = projectModel(workspace.root, workspace.language)
  const oracle = await OracleServer.start(workspace.root, workspace.language, {
    ...options.oracle,
    ...(workspace.trust === undefined ? {} : { trust: workspace.trust }),
  })
  try {
    const loaded = performance.now()
    await options.onRunning?.()
    const picked = await selectSymbols(oracle, model, {
      ...(options.top === undefined ? {} : { top: options.top }),
      ...(options.seeded === undefined ? {} : { seeded: options.seeded }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.maxRanked === undefined ? {} : { maxRanked: options.maxRanked }),
      ...(options.fillTo === undefined ? {} : { fillTo: options.fillTo }),
    })
    const taken = new Set(picked.symbols.map((symbol) => symbolId(symbol)))
    const fixed = (options.fixed ?? []).filter((symbol) => !taken.has(symbolId(symbol)))
    const selection: Selection = {
      ...picked,
      symbols: [...picked.symbols, ...fixed.map((symbol) => ({ ...symbol, reason: 'fixed' as const }))],
    }
    const selected = performance.now()
    const answers = await answersFrom(oracle, selection.symbols)
    return {
      workspace,
      model,
      selection,
      answers,
      timings: { startMs: loaded - started, selectMs: selected - loaded, answersMs: performance.now() - selected },
    }
  } finally {
    await oracle.dispose()
  }
}
