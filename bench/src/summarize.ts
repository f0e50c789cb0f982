// `node --import ./register.mjs src/summarize.ts RUN1.json RUN2.json RUN3.json [--out FILE] [--no-docs]`:
// several bench runs summarised as docs/lsp-local.md reports three consecutive runs — each target's figure per
// run, the median of the runs and its verdict. The summary is added to the last run's report (its other
// figures stay the last run's), written to --out (default docs/performance.json) and to the docs.
import { readFile, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

import { writeDocs } from './docs-writer.js'
import type { BenchReport, RunsSummary } from './report.js'
import { medianOfRuns } from './statistics.js'
import { printReport } from './table.js'
import { targetFigures, verdictOf } from './targets.js'

/** The runs' target figures side by side, with the median and the median's verdict. */
export function summarizeRuns(reports: ReadonlyArray<BenchReport>): RunsSummary {
  const figures = reports.map(targetFigures)
  const first = figures[0] ?? []
  const unitText = (value: number, unit: string) => (unit === '×' ? `${value}×` : unit === '' ? String(value) : `${value} ${unit}`)
  return {
    runs: reports.map((report) => ({ generatedAt: report.generatedAt, durationMs: report.durationMs })),
    rows: first.map((figure, index) => {
      const values = figures.map((run) => run[index]?.value ?? null)
      const median = medianOfRuns(values.map((value) => value ?? undefined))
      return {
        target: figure.target,
        values,
        ...(median === undefined ? {} : { median }),
        unit: figure.unit,
        goal: `≤ ${unitText(figure.goal, figure.unit)}`,
        must: figure.must === undefined ? '—' : `≤ ${unitText(figure.must, figure.unit)}`,
        verdict: verdictOf(median, figure.goal, figure.must),
      }
    }),
  }
}

async function main(): Promise<void> {
  const { values: options, positionals } = parseArgs({
    allowPositionals: true,
    options: { out: { type: 'string' }, 'no-docs': { type: 'boolean', default: false } },
  })
  if (positionals.length === 0) throw new Error("give the runs' JSON reports (e.g. three --out files)")
  const reports = await Promise.all(positionals.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as BenchReport))
  const last = reports[reports.length - 1]!
  const report: BenchReport = { ...last, runsSummary: summarizeRuns(reports) }
  process.stdout.write(`${printReport(report)}\n`)
  const docs = nodePath.join(fileURLToPath(new URL('../../', import.meta.url)), 'docs')
  const out = options.out ?? nodePath.join(docs, 'performance.json')
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`)
  process.stderr.write(`[bench] wrote ${out}\n`)
  if (!options['no-docs']) process.stderr.write(`[bench] wrote ${(await writeDocs(report, docs)).join(', ')}\n`)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === nodePath.resolve(process.argv[1])) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`[bench] summarize failed: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exit(1)
    },
  )
}
