// Keeping up with the disk (issue 43): what codeseam's catch-up at the question costs. Before every question
// lsp-local takes in each change on disk since the last one (pending watch events read after one event-loop
// turn, open documents re-checked by stat and updated or closed, the rest announced with
// workspace/didChangeWatchedFiles; pyright left alone ~1 s after files were created or deleted, so it re-plans).
//
// On a fresh copy of the generated 50-file TypeScript workspace (the native TS 7 server) and of the small
// Python one (pyright), each side with a copy of its own, references of the hot symbol are asked in turns, the
// side going first alternating:
//
// - nothing changed: warm calls, ctx.lsp against the bare server (median, p95, ratio, paired codeseam − bare);
// - a file changed by a plain write right before the call, a use of the hot symbol appended on one turn and
//   removed on the next: the file the question is asked from (open on the bare side: told with didChange) and
//   another module (not open: told with didChangeWatchedFiles, Changed);
// - a file using the hot symbol created on one turn and deleted on the next (didChangeWatchedFiles, Created /
//   Deleted).
//
// codeseam (createLocalHost + createLsp, as layers/ctx-lsp-layer.ts) is asked right after the write, told
// nothing; the bare client (floor-client.ts, advertising watched files as an editor does) is timed from the
// write's end through its notification to the answer. Every answer is compared with the set the bench knows to
// be true (the warm answer's locations, plus the appended or created uses), exactly; a different one counts as
// wrong, and that side is asked again at once, back to back, until its answer is right (bounded): "to the first
// correct answer" is timed from the same start. No sleeps: each side waits only for its own answers.
import { rm, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { performance } from 'node:perf_hooks'

import type { LspQueryResult } from '@codeseam/lsp'
import { FileChangeType, type Location } from 'vscode-languageserver-protocol/node'

import { FloorClient } from '../floor-client.js'
import { startHostedLsp, type HostedLsp } from '../layers/ctx-lsp-layer.js'
import { relativeTo } from '../layers/read-layer.js'
import { withDeadline } from '../measure.js'
import { positionOf } from '../read-mix.js'
import type { DiskChange, DiskChangeSeriesResult, DiskChangesResult, MissingMeasurement } from '../report.js'
import { defaultProfile, serverCommandOf } from '../server-commands.js'
import { pairedDifferences, round, roundSummary, summarize, type TimingSummary } from '../statistics.js'
import { modulePath, writePythonWorkspace, writeWorkspace, type GeneratedWorkspace } from '../workspace-generator.js'

/** One server's case: its workspace, where the hot symbol is declared, and the changes made to it. */
interface DiskCase {
  readonly language: DiskChangeSeriesResult['language']
  /** The LSP language id; the record serving it by default is the server measured. */
  readonly languageId: 'typescript' | 'python'
  /** Writes a fresh copy of the bench's workspace under `parent/name`. */
  readonly write: (parent: string, name: string) => Promise<GeneratedWorkspace>
  /** The text declaring the hot symbol, and how far into it its name starts. */
  readonly declaration: string
  readonly into: number
  /** Appended to an existing file: one use of the hot symbol. */
  readonly appended: (path: string) => string
  /** The module changed while not open on the bare side. */
  readonly otherFile: (workspace: GeneratedWorkspace) => string
  /** The file created and deleted: an import and a use of the hot symbol. */
  readonly created: { readonly path: string; readonly text: string }
}

const cases: ReadonlyArray<DiskCase> = [
  {
    language: 'TypeScript',
    languageId: 'typescript',
    write: (parent, name) => writeWorkspace(parent, name, 50),
    declaration: 'function hotMeasure',
    into: 'function '.length,
    appended: () => '\nexport const diskChangeProbe = hotMeasure(7)\n',
    otherFile: () => modulePath(10),
    created: {
      path: 'src/core/diskProbe.ts',
      text: "import { hotMeasure } from './hot.js'\n\nexport const diskProbe = hotMeasure(7)\n",
    },
  },
  {
    language: 'Python',
    languageId: 'python',
    write: (parent, name) => writePythonWorkspace(parent, name, 20),
    declaration: 'def hotMeasure',
    into: 'def '.length,
    appended: () => '\n\nDISK_CHANGE_PROBE = hotMeasure(7)\n',
    otherFile: () => 'pkg/mod10.py',
    created: { path: 'pkg/disk_probe.py', text: 'from pkg.hot import hotMeasure\n\nDISK_PROBE = hotMeasure(7)\n' },
  },
]

/** How long one side may take to give the right answer after a change before the series fails. */
const correctWithinMs = 20_000

/** `path:line:character` of each reference's start, sorted: the key set answers are compared by. */
type Keys = ReadonlyArray<string>

const sorted = (keys: Iterable<string>): string[] => [...keys].sort()
const sameKeys = (a: Keys, b: Keys) => a.length === b.length && a.every((key, i) => key === b[i])

function floorKeys(root: string, answer: Location[] | null): string[] {
  return sorted((answer ?? []).map((l) => `${relativeTo(root, l.uri)}:${l.range.start.line}:${l.range.start.character}`))
}

function seamKeys(root: string, result: LspQueryResult): string[] {
  if (result.kind !== 'locations') return []
  return sorted(result.locations.map((l) => `${relativeTo(root, l.path)}:${l.range.start.line}:${l.range.start.character}`))
}

/** The keys of every use of `symbol` in `text` from `from` on, in `path` (found by text). */
function usesIn(path: string, text: string, symbol: string, from = 0): string[] {
  const keys: string[] = []
  for (let index = text.indexOf(symbol, from); index >= 0; index = text.indexOf(symbol, index + 1)) {
    const before = text.slice(0, index)
    keys.push(`${path}:${before.split('\n').length - 1}:${index - (before.lastIndexOf('\n') + 1)}`)
  }
  return keys
}

/** One side of the comparison: its own copy of the workspace, asked the same question. */
interface Side {
  readonly root: string
  /** Asks the hot references question; resolves to the answer's keys (and whether codeseam said it took changes in). */
  ask(): Promise<{ keys: string[]; sawChanges: boolean }>
}

/** One timed call: from the write's end to the answer, and to the first right answer. */
interface Call {
  readonly ms: number
  readonly firstCorrectMs: number
  readonly correct: boolean
  readonly sawChanges: boolean
}

/** Times `tell` (the bare client's notification, nothing for codeseam) + the question; asks again until right. */
async function timedCall(side: Side, expected: Keys, tell: () => Promise<void>): Promise<Call> {
  const started = performance.now()
  await tell()
  let { keys, sawChanges } = await side.ask()
  const ms = performance.now() - started
  const correct = sameKeys(keys, expected)
  while (!sameKeys(keys, expected)) {
    if (performance.now() - started > correctWithinMs)
      throw new Error(
        `${side.root}: no right answer within ${correctWithinMs} ms of the change (${keys.length} locations, ${expected.length} expected; missing ${expected.filter((k) => !keys.includes(k)).join(', ')}; extra ${keys.filter((k) => !expected.includes(k)).join(', ')})`,
      )
    ;({ keys, sawChanges } = await side.ask())
  }
  return { ms, firstCorrectMs: performance.now() - started, correct, sawChanges }
}

/** One change made to both copies: what it does to the disk, what the bare side is told, the keys then true. */
interface ChangeStep {
  /** Applies the change to one copy (a plain write or removal). */
  apply(root: string): Promise<void>
  /** What the bare client sends for it. */
  tellBare(client: FloorClient): Promise<void>
  readonly expected: Keys
}

function summaryOf(values: ReadonlyArray<number>): TimingSummary {
  return roundSummary(summarize(values))
}

/** Runs `turns` turns of one series: each turn one step on both copies, both sides asked, the order alternating. */
async function runSeries(
  testCase: DiskCase & { readonly server: string },
  workspace: string,
  change: DiskChange,
  bareTold: string,
  path: string | undefined,
  steps: ReadonlyArray<ChangeStep>,
  turns: number,
  seam: Side,
  bare: Side & { readonly client: FloorClient },
): Promise<DiskChangeSeriesResult> {
  const calls = { bare: [] as Call[], codeseam: [] as Call[] }
  // Wrong first answers per step (the change made, then undone), per side.
  const wrongByStep = { bare: steps.map(() => 0), codeseam: steps.map(() => 0) }
  for (let turn = 0; turn < turns; turn++) {
    const step = steps[turn % steps.length]!
    // Who goes first alternates every two turns, so each goes first on both kinds of step (apply and revert).
    const seamFirst = Math.floor(turn / 2) % 2 === 0
    const seamTurn = async () => {
      await step.apply(seam.root)
      const call = await timedCall(seam, step.expected, async () => undefined)
      calls.codeseam.push(call)
      if (!call.correct) wrongByStep.codeseam[turn % steps.length]!++
    }
    const bareTurn = async () => {
      await step.apply(bare.root)
      const call = await timedCall(bare, step.expected, () => step.tellBare(bare.client))
      calls.bare.push(call)
      if (!call.correct) wrongByStep.bare[turn % steps.length]!++
    }
    if (seamFirst) {
      await seamTurn()
      await bareTurn()
    } else {
      await bareTurn()
      await seamTurn()
    }
  }
  const bareSummary = summarize(calls.bare.map((c) => c.ms))
  const seamSummary = summarize(calls.codeseam.map((c) => c.ms))
  const bareFirst = summarize(calls.bare.map((c) => c.firstCorrectMs))
  const seamFirst = summarize(calls.codeseam.map((c) => c.firstCorrectMs))
  return {
    language: testCase.language,
    server: testCase.server,
    workspace,
    change,
    ...(path === undefined ? {} : { path }),
    bareTold,
    turns,
    bare: roundSummary(bareSummary),
    codeseam: roundSummary(seamSummary),
    ratio: { median: round(seamSummary.median / bareSummary.median, 2), p95: round(seamSummary.p95 / bareSummary.p95, 2) },
    paired: summaryOf(
      pairedDifferences(
        calls.codeseam.map((c) => c.ms),
        calls.bare.map((c) => c.ms),
      ),
    ),
    firstCorrect: {
      bare: roundSummary(bareFirst),
      codeseam: roundSummary(seamFirst),
      ratio: round(seamFirst.median / bareFirst.median, 2),
    },
    wrong: {
      bare: calls.bare.filter((c) => !c.correct).length,
      codeseam: calls.codeseam.filter((c) => !c.correct).length,
      byStep: wrongByStep,
    },
    codeseamSawChanges: calls.codeseam.filter((c) => c.sawChanges).length,
  }
}

export interface DiskChangesOptions {
  /** Where the workspace copies go (removed by the caller). */
  readonly scratch: string
  /** Turns per series (made even: every change is reverted by the next turn). */
  readonly turns: number
  readonly missing: MissingMeasurement[]
  readonly log: (message: string) => void
}

/** One server's series on its own two workspace copies; stops everything it started. */
async function runCase(testCase: DiskCase, options: DiskChangesOptions): Promise<DiskChangeSeriesResult[] | undefined> {
  const profile = await defaultProfile(testCase.languageId)
  if (profile.unavailable !== undefined) {
    options.missing.push({ what: `keeping up with the disk (${profile.id})`, why: profile.unavailable })
    options.log(`not measured: keeping up with the disk on ${profile.id}: ${profile.unavailable}`)
    return undefined
  }
  const seamCopy = await testCase.write(options.scratch, `disk-${profile.id}-codeseam`)
  const bareCopy = await testCase.write(options.scratch, `disk-${profile.id}-bare`)
  const workspace = `${testCase.language === 'TypeScript' ? 'ts' : 'py'}-${seamCopy.fileCount}`
  const hotFile = seamCopy.hotFile
  const hotText = seamCopy.files.get(hotFile)!
  const position = positionOf(hotText, testCase.declaration, 0, testCase.into)
  const client = await FloorClient.start(serverCommandOf(profile), bareCopy.root, { watchedFiles: true })
  let hosted: HostedLsp | undefined
  try {
    hosted = await startHostedLsp(seamCopy.root, { otherPids: () => (client.process.pid === undefined ? [] : [client.process.pid]) })
    const { lsp } = hosted
    const seam: Side = {
      root: seamCopy.root,
      async ask() {
        const result = await lsp.query({ operation: 'references', root: seamCopy.root, path: hotFile, position })
        return { keys: seamKeys(seamCopy.root, result), sawChanges: (result.meta.disk?.filesChanged ?? 0) > 0 }
      },
    }
    const bare: Side & { client: FloorClient } = {
      root: bareCopy.root,
      client,
      async ask() {
        return { keys: floorKeys(bareCopy.root, await client.references(hotFile, position)), sawChanges: false }
      },
    }
    // The truth before any change: the bare server's settled answer, which must hold every generated use.
    let base: string[] = []
    const warmStart = performance.now()
    for (;;) {
      base = (await bare.ask()).keys
      if (base.length >= seamCopy.hotReferenceCount) break
      if (performance.now() - warmStart > 120_000)
        throw new Error(`the bare ${profile.id} server found ${base.length} of ${seamCopy.hotReferenceCount} references`)
    }
    if (base.length !== seamCopy.hotReferenceCount)
      throw new Error(`the bare ${profile.id} server found ${base.length} references, ${seamCopy.hotReferenceCount} generated`)
    await withDeadline(
      timedCall(seam, base, async () => undefined),
      120_000,
      `codeseam's first right answer on ${workspace}`,
    )
    options.log(`${profile.id} on ${workspace}: ${base.length} references; ${options.turns} turns per series`)

    const write = (relative: string, text: string) => (root: string) => writeFile(nodePath.join(root, relative), text)
    const appendSteps = (relative: string, tellBare: (text: string) => (client: FloorClient) => Promise<void>): ChangeStep[] => {
      const original = seamCopy.files.get(relative)!
      const changed = original + testCase.appended(relative)
      const added = usesIn(relative, changed, seamCopy.hotSymbol, original.length)
      return [
        { apply: write(relative, changed), tellBare: tellBare(changed), expected: sorted([...base, ...added]) },
        { apply: write(relative, original), tellBare: tellBare(original), expected: base },
      ]
    }
    const results: DiskChangeSeriesResult[] = []
    const series = async (change: DiskChange, bareTold: string, path: string | undefined, steps: ReadonlyArray<ChangeStep>) => {
      const started = performance.now()
      const result = await runSeries(
        { ...testCase, server: profile.id },
        workspace,
        change,
        bareTold,
        path,
        steps,
        options.turns,
        seam,
        bare,
      )
      options.log(
        `  ${change}: bare ${result.bare.median.toFixed(1)} ms, codeseam ${result.codeseam.median.toFixed(1)} ms (${result.ratio.median}×), wrong ${result.wrong.bare}/${result.wrong.codeseam}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
      )
      results.push(result)
    }

    await series('nothing changed', 'nothing', undefined, [
      { apply: async () => undefined, tellBare: async () => undefined, expected: base },
    ])
    if (!client.isOpen(hotFile)) throw new Error(`${hotFile} should be open on the bare side`)
    await series(
      'open file changed',
      'didChange',
      hotFile,
      appendSteps(hotFile, (text) => (c) => c.changeDocument(hotFile, text)),
    )
    const other = testCase.otherFile(seamCopy)
    if (client.isOpen(other)) throw new Error(`${other} should not be open on the bare side`)
    await series(
      'closed file changed',
      'didChangeWatchedFiles (Changed)',
      other,
      appendSteps(other, () => (c) => c.notifyWatchedFiles([{ path: other, type: FileChangeType.Changed }])),
    )
    const { created } = testCase
    await series('file created / deleted', 'didChangeWatchedFiles (Created / Deleted)', created.path, [
      {
        apply: write(created.path, created.text),
        tellBare: (c) => c.notifyWatchedFiles([{ path: created.path, type: FileChangeType.Created }]),
        expected: sorted([...base, ...usesIn(created.path, created.text, seamCopy.hotSymbol)]),
      },
      {
        apply: (root) => rm(nodePath.join(root, created.path), { force: true }),
        tellBare: (c) => c.notifyWatchedFiles([{ path: created.path, type: FileChangeType.Deleted }]),
        expected: base,
      },
    ])
    return results
  } finally {
    await hosted?.dispose()
    await client.stop()
  }
}

/** Both servers' series (a server that cannot run here is listed as missing). */
export async function runDiskChanges(options: DiskChangesOptions): Promise<DiskChangesResult> {
  const turns = Math.max(2, options.turns + (options.turns % 2))
  const started = performance.now()
  const series: DiskChangeSeriesResult[] = []
  for (const testCase of cases) series.push(...((await runCase(testCase, { ...options, turns })) ?? []))
  return {
    question: 'References of the hot symbol (hotMeasure), declaration included',
    turns,
    series,
    durationMs: Math.round(performance.now() - started),
  }
}
