import type { BenchReport } from './report.js'

export async function writeDocs(_report: BenchReport, _dir: string): Promise<string[]> {
  return []
}
