import { describe, expect, it } from 'vitest'

import { performanceMarkdown } from '../src/docs-writer.js'
import type { DiskChangeSeriesResult, DiskChangesResult } from '../src/report.js'
import { summarize } from '../src/statistics.js'
import { diskChangeTables } from '../src/table.js'
import { report } from './report.js'

function series(
  change: DiskChangeSeriesResult['change'],
  bare: number,
  codeseam: number,
  wrongBare: [number, number],
): DiskChangeSeriesResult {
  const b = summarize([bare])
  const c = summarize([codeseam])
  return {
    language: 'Python',
    server: 'pyright',
    workspace: 'py-20',
    change,
    ...(change === 'nothing changed' ? {} : { path: 'pkg/disk_probe.py' }),
    bareTold: change === 'nothing changed' ? 'nothing' : 'didChangeWatchedFiles (Created / Deleted)',
    turns: 2,
    bare: b,
    codeseam: c,
    ratio: { median: codeseam / bare, p95: codeseam / bare },
    paired: summarize([codeseam - bare]),
    firstCorrect: { bare: b, codeseam: c, ratio: codeseam / bare },
    wrong: {
      bare: wrongBare[0] + wrongBare[1],
      codeseam: 0,
      byStep: { bare: change === 'nothing changed' ? [wrongBare[0]] : wrongBare, codeseam: change === 'nothing changed' ? [0] : [0, 0] },
    },
    codeseamSawChanges: change === 'nothing changed' ? 0 : 2,
  }
}

const result: DiskChangesResult = {
  question: 'References of the hot symbol (hotMeasure), declaration included',
  turns: 2,
  series: [series('nothing changed', 4, 6, [0, 0]), series('file created / deleted', 150, 1100, [1, 0])],
  durationMs: 1000,
}

describe('keeping up with the disk', () => {
  it('shows each series against the bare server, with the step a wrong first answer came on', () => {
    const [table] = diskChangeTables(report({ diskChanges: result }))
    expect(table!.section).toBe('Keeping up with the disk')
    expect(table!.rows[0]![0]).toBe('pyright (py-20) / nothing changed')
    expect(table!.rows[0]![6]).toBe('1.50×')
    expect(table!.rows[0]![table!.rows[0]!.length - 1]).toBe('0, 0')
    expect(table!.rows[1]![0]).toBe('pyright (py-20) / file created / deleted: pkg/disk_probe.py')
    expect(table!.rows[1]![table!.rows[1]!.length - 1]).toBe('1 (1 after the change, 0 after undoing it), 0')
  })

  it('renders its section in the docs only when the scenario ran', () => {
    expect(diskChangeTables(report())).toEqual([])
    expect(performanceMarkdown(report(), 'performance.json', 'performance.svg')).not.toContain('## Keeping up with the disk')
    const markdown = performanceMarkdown(report({ diskChanges: result }), 'performance.json', 'performance.svg')
    expect(markdown).toContain('## Keeping up with the disk')
    expect(markdown).toMatch(/\| pyright \(py-20\) \/ file created \/ deleted: pkg\/disk_probe\.py \| didChangeWatchedFiles/)
  })
})
