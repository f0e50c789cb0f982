// Each suite records what it checked; `pnpm --filter @codeseam/reliability run docs` runs the suite with
// RELIABILITY_RECORD_DIR set and turns the records into docs/reliability.md. A plain test run writes nothing.
import { mkdirSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

/** One scenario: the guarantee it checks and how many cases held it. */
export interface ScenarioRecord {
  readonly suite: string
  readonly scenario: string
  readonly guarantee: string
  /** Named counts, e.g. { queries: 50, correct: 12, SERVER_CRASHED: 38 }. */
  readonly counts: Record<string, number>
}

/** Collects a suite's records and writes them when recording is on. */
export class ResultRecorder {
  private readonly records: ScenarioRecord[] = []

  constructor(readonly suite: string) {}

  record(scenario: string, guarantee: string, counts: Record<string, number>): void {
    this.records.push({ suite: this.suite, scenario, guarantee, counts })
  }

  /** Writes `<dir>/<suite>.json` when RELIABILITY_RECORD_DIR is set. */
  flush(): void {
    const dir = process.env['RELIABILITY_RECORD_DIR']
    if (dir === undefined || dir === '') return
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      nodePath.join(dir, `${this.suite}.json`),
      `${JSON.stringify({ suite: this.suite, finishedAt: new Date().toISOString(), records: this.records }, null, 2)}\n`,
    )
  }
}

/** Counts occurrences of each key. */
export function tally(keys: ReadonlyArray<string>): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1
  return counts
}

/**
 * Ends a suite: disposes what it started (in the order given), records the leak check (live processes this
 * test process started and did not reap), writes the records, then fails if anything is left running.
 */
export async function finishSuite(
  recorder: ResultRecorder,
  ...started: ReadonlyArray<{ dispose(): Promise<void> } | undefined>
): Promise<void> {
  // What the suite started, disposed in order (the stack before the fixture it runs on), then the leak check.
  for (const part of started) await part?.dispose()
  const { liveDescendants } = await import('./processes.js')
  const leaked = liveDescendants()
  recorder.record(
    'no leaked processes',
    'after the suite disposed everything it started, no process it spawned (servers, watchdogs) is still running',
    {
      'processes left running': leaked.length,
    },
  )
  recorder.flush()
  if (leaked.length > 0) throw new Error(`processes left running: ${leaked.map((p) => `${p.pid} ${p.command}`).join('; ')}`)
}
