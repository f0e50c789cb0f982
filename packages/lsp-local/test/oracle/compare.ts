// codeseam against the oracle: cold hosts, first answers, the same question asked twice, and the table.
import { createLsp } from '@codeseam/lsp'

import { createLocalHost, type HostOptions } from '../../src/index.js'
import type { TrustLevel } from '../../src/policy/trust.js'
import { difference } from './keys.js'
import { operationsFor, type OracleOperation } from './oracle.js'
import type { OracleRun } from './run.js'
import { seamAnswer } from './seam.js'
import { symbolId, type SelectedSymbol } from './select.js'

export interface SeamComparison {
  readonly workspace: string
  readonly symbol: SelectedSymbol
  readonly operation: OracleOperation
  readonly expected: ReadonlyArray<string>
  /** codeseam's first answer. */
  readonly first: ReadonlyArray<string>
  /** The same query again on the same host. */
  readonly second: ReadonlyArray<string>
  /** Oracle keys the first answer lacks, and keys it has that the oracle has not. */
  readonly missing: ReadonlyArray<string>
  readonly extra: ReadonlyArray<string>
  /** Whether the second whole answer (every language, and the coverage a fan-out reports) equals the first. */
  readonly stable: boolean
  /** Whether this was the first query the host ever answered (strictly cold). */
  readonly strictlyCold: boolean
  /** Not asked: the phase's time budget had run out (counts as a difference). */
  readonly notAsked: boolean
}

export interface CompareOptions {
  readonly hostOptions?: HostOptions
  /** Symbols sharing one fresh host for the position operations (default 1: a fresh host per symbol). */
  readonly symbolsPerHost?: number
  /**
   * Wall-clock budget of each phase (workspace symbols; position operations), ms. Questions not yet asked
   * when it runs out are recorded as not asked — a failure — instead of running on past any test timeout.
   * Default: none.
   */
  readonly phaseBudgetMs?: number
  /** Progress lines (one per host). */
  readonly log?: (line: string) => void
  /** Called before each host is disposed, while its servers run (e.g. to record them for a leak check). */
  readonly beforeDispose?: () => Promise<void>
}

/**
 * Position operations (and the file-wide ones, asked for the symbol's file) in the order a host is asked them;
 * the order rotates from host to host.
 */
const positionOperations: ReadonlyArray<OracleOperation> = [
  'references',
  'rename',
  'implementation',
  'incomingCalls',
  'definition',
  'hover',
  'documentSymbols',
  'diagnostics',
  'format',
]

/**
 * A cold codeseam: a new host (default settings, untrusted root unless `trust` says otherwise, as `codeseam mcp`
 * starts) attached to a new seam.
 */
async function coldSeam(root: string, hostOptions: HostOptions = {}, trust: TrustLevel = 'untrusted') {
  const host = await createLocalHost(hostOptions)
  const lsp = createLsp()
  const release = await host.attach(lsp, [trust === 'trusted' ? { root, trust } : { root }])
  return {
    lsp,
    async dispose() {
      await release()
      await lsp.dispose()
      await host.dispose()
    },
  }
}

const sameKeys = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((key, index) => key === b[index])

/**
 * Asks codeseam every operation the oracle answered, for every selected symbol, from cold hosts.
 *
 * "First answer after a cold start", and what it costs. Every host is new; each answer taken is the first
 * codeseam gives to that question (no retries); every question is then asked a second time on the same host
 * (determinism). A host's state depends only on what it was asked before, hence two kinds of host:
 * - Workspace symbols: ONE fresh host per workspace. A workspace-symbol query loads the projects once and
 *   opens no file of its own choosing after the first, so every later workspace-symbol query meets the very
 *   state the first one left — the state a cold query meets. (A host per symbol would cost a cold start per
 *   symbol for nothing.) Each symbol's query is asked, then asked again.
 * - references, rename, implementation, incoming calls: a fresh host per symbol, or per small batch of
 *   symbols (`symbolsPerHost`) where a cold start costs seconds. Each of these operations loads the projects
 *   and opens the symbol's own file before it asks the server, so on a host that answered only this
 *   symbol's other questions the state is the one a cold query would make — unless the server loads more
 *   while answering. So that cannot hide anything, the order of the operations rotates from host to host:
 *   each operation is the very first query of a quarter of the hosts (`strictlyCold`; the table counts those
 *   separately). In a batch, later symbols meet a host that has also opened the batch's earlier symbols'
 *   files — more loaded than cold, never less — so batches are kept small and used only where a host per
 *   symbol does not fit the test's ~6-minute budget on a 2-core machine (cold starts measured there: the
 *   generated shapes ≈0.4 s, the TypeScript corpus ≈2.4 s, pyright on the Python corpus ≈2 s, this
 *   repository 5–8 s). A host per (symbol, operation) would take four times as long again.
 */
export async function compareWithSeam(run: OracleRun, options: CompareOptions = {}): Promise<SeamComparison[]> {
  const { root, language, trust } = run.workspace
  const name = run.workspace.name ?? root
  const operations = operationsFor(language)
  const symbols = run.selection.symbols
  const out: SeamComparison[] = []
  type Answer = { keys: ReadonlyArray<string>; all: ReadonlyArray<string> }
  const record = (
    symbol: SelectedSymbol,
    operation: OracleOperation,
    first: Answer,
    second: Answer,
    strictlyCold: boolean,
    notAsked = false,
  ) => {
    const expected = run.answers.get(symbolId(symbol))?.[operation] ?? []
    const { missing, extra } = difference(expected, first.keys)
    out.push({
      workspace: name,
      symbol,
      operation,
      expected,
      first: first.keys,
      second: second.keys,
      missing,
      extra,
      stable: sameKeys(first.all, second.all),
      strictlyCold,
      notAsked,
    })
  }
  const budget = options.phaseBudgetMs
  const skipped = [`!not asked: the ${budget === undefined ? '' : `${Math.round(budget / 1000)} s `}budget of this phase ran out`]
  const notAsked: Answer = { keys: skipped, all: skipped }
  const deadlineFrom = (start: number) => (budget === undefined ? Number.POSITIVE_INFINITY : start + budget)

  if (operations.includes('workspaceSymbols') && symbols.length > 0) {
    const deadline = deadlineFrom(Date.now())
    const seam = await coldSeam(root, options.hostOptions, trust)
    let answered = 0
    try {
      for (const [index, symbol] of symbols.entries()) {
        if (Date.now() > deadline) {
          record(symbol, 'workspaceSymbols', notAsked, notAsked, false, true)
          continue
        }
        const first = await seamAnswer(seam.lsp, root, language, 'workspaceSymbols', symbol)
        record(symbol, 'workspaceSymbols', first, await seamAnswer(seam.lsp, root, language, 'workspaceSymbols', symbol), index === 0)
        answered++
      }
      options.log?.(`${name}: workspace symbols for ${answered} of ${symbols.length} symbols on one cold host`)
    } finally {
      await options.beforeDispose?.()
      await seam.dispose()
    }
  }

  const perHost = Math.max(1, options.symbolsPerHost ?? 1)
  const asked = positionOperations.filter((operation) => operations.includes(operation))
  const deadline = deadlineFrom(Date.now())
  for (let start = 0, hostIndex = 0; start < symbols.length; start += perHost, hostIndex++) {
    const batch = symbols.slice(start, start + perHost)
    // Each host's first operation rotates; within a batch, each symbol starts one further on.
    const plan = batch.map((symbol, offset) => {
      const shift = (hostIndex + offset) % asked.length
      return { symbol, order: [...asked.slice(shift), ...asked.slice(0, shift)] }
    })
    if (Date.now() > deadline) {
      for (const { symbol, order } of plan) for (const operation of order) record(symbol, operation, notAsked, notAsked, false, true)
      continue
    }
    const seam = await coldSeam(root, options.hostOptions, trust)
    try {
      const firsts = new Map<string, Answer>()
      let cold: string | undefined
      for (const { symbol, order } of plan) {
        for (const operation of order) {
          const key = `${operation} ${symbolId(symbol)}`
          cold ??= key
          firsts.set(key, await seamAnswer(seam.lsp, root, language, operation, symbol))
        }
      }
      for (const { symbol, order } of plan) {
        for (const operation of order) {
          const key = `${operation} ${symbolId(symbol)}`
          record(
            symbol,
            operation,
            firsts.get(key) ?? notAsked,
            await seamAnswer(seam.lsp, root, language, operation, symbol),
            key === cold,
          )
        }
      }
      options.log?.(`${name}: ${batch.map((symbol) => symbol.name).join(', ')} on a cold host`)
    } finally {
      await options.beforeDispose?.()
      await seam.dispose()
    }
  }
  return out
}

export interface TableRow {
  readonly workspace: string
  readonly operation: OracleOperation
  readonly checked: number
  readonly equal: number
  /** Oracle locations codeseam's first answers missed, and locations they had that the oracle has not. */
  readonly missing: number
  readonly extra: number
  /** Symbols whose second answer differed from the first. */
  readonly unstable: number
  /** Symbols not asked because the phase's time budget ran out (they count as not equal). */
  readonly notAsked: number
  /** Of the checked symbols, those asked as the host's very first query, and how many of them were equal. */
  readonly cold: number
  readonly coldEqual: number
}

export function tableRows(comparisons: ReadonlyArray<SeamComparison>): TableRow[] {
  const rows = new Map<string, TableRow>()
  for (const c of comparisons) {
    const key = `${c.workspace}\0${c.operation}`
    const row = rows.get(key) ?? {
      workspace: c.workspace,
      operation: c.operation,
      checked: 0,
      equal: 0,
      missing: 0,
      extra: 0,
      unstable: 0,
      notAsked: 0,
      cold: 0,
      coldEqual: 0,
    }
    const equal = !c.notAsked && c.missing.length === 0 && c.extra.length === 0
    const stable = c.stable
    rows.set(key, {
      ...row,
      checked: row.checked + 1,
      equal: row.equal + (equal ? 1 : 0),
      missing: row.missing + (c.notAsked ? 0 : c.missing.length),
      extra: row.extra + (c.notAsked ? 0 : c.extra.length),
      notAsked: row.notAsked + (c.notAsked ? 1 : 0),
      unstable: row.unstable + (stable ? 0 : 1),
      cold: row.cold + (c.strictlyCold ? 1 : 0),
      coldEqual: row.coldEqual + (c.strictlyCold && equal ? 1 : 0),
    })
  }
  return [...rows.values()]
}

export function rowPasses(row: TableRow): boolean {
  return row.equal === row.checked && row.unstable === 0 && row.notAsked === 0
}

/** The table as fixed-width text. */
export function formatTable(rows: ReadonlyArray<TableRow>): string {
  const header = ['workspace', 'operation', 'symbols', 'equal', 'missing', 'extra', 'unstable', 'not asked', 'cold =', 'verdict']
  const lines = rows.map((row) => [
    row.workspace,
    row.operation,
    String(row.checked),
    String(row.equal),
    String(row.missing),
    String(row.extra),
    String(row.unstable),
    String(row.notAsked),
    `${row.coldEqual}/${row.cold}`,
    rowPasses(row) ? 'ok' : 'FAIL',
  ])
  return formatColumns(header, lines)
}

/** A plain-text table: the header, a rule, and the lines, each column padded to its widest cell. */
export function formatColumns(header: ReadonlyArray<string>, lines: ReadonlyArray<ReadonlyArray<string>>): string {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => (line[column] ?? '').length)))
  const format = (cells: ReadonlyArray<string>) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd()
  return [format(header), format(widths.map((width) => '-'.repeat(width))), ...lines.map(format)].join('\n')
}

/** The differences behind failing rows: per symbol, a few missing / extra keys and whether the repeat differed. */
export function formatDifferences(comparisons: ReadonlyArray<SeamComparison>, perSymbol = 3, total = 60): string {
  const lines: string[] = []
  const notAsked = comparisons.filter((c) => c.notAsked)
  if (notAsked.length > 0) {
    const counts = new Map<string, number>()
    for (const c of notAsked) counts.set(`${c.workspace} ${c.operation}`, (counts.get(`${c.workspace} ${c.operation}`) ?? 0) + 1)
    lines.push(`not asked (the phase's time budget ran out): ${[...counts].map(([row, count]) => `${row} ×${count}`).join(', ')}`)
  }
  for (const c of comparisons) {
    if (c.notAsked) continue
    const stable = c.stable
    if (c.missing.length === 0 && c.extra.length === 0 && stable) continue
    if (lines.length >= total) {
      lines.push('…')
      break
    }
    const where = `${c.workspace} ${c.operation} ${c.symbol.name} (${c.symbol.path}:${c.symbol.line + 1}:${c.symbol.character + 1}, ${c.symbol.reason}${c.strictlyCold ? ', cold' : ''})`
    const parts = [`oracle ${c.expected.length}, codeseam ${c.first.length}`]
    if (c.missing.length > 0)
      parts.push(`missing ${c.missing.length}: ${c.missing.slice(0, perSymbol).join('; ')}${c.missing.length > perSymbol ? '; …' : ''}`)
    if (c.extra.length > 0)
      parts.push(`extra ${c.extra.length}: ${c.extra.slice(0, perSymbol).join('; ')}${c.extra.length > perSymbol ? '; …' : ''}`)
    if (!stable)
      parts.push(
        `second answer differs (compared keys: ${c.first.length} → ${c.second.length}${sameKeys(c.first, c.second) ? "; the difference is in other languages' results or the reported coverage" : ''})`,
      )
    lines.push(`${where}: ${parts.join(' | ')}`)
  }
  return lines.join('\n')
}
