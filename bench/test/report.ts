import type { BenchReport } from '../src/report.js'

/** A report with nothing measured but what `overrides` gives (what the targets and tables read). */
export function report(overrides: Partial<BenchReport> = {}): BenchReport {
  return {
    schema: 1,
    generatedAt: '2026-12-01T00:00:00.000Z',
    command: 'pnpm bench',
    durationMs: 1000,
    machine: { cpuModel: 'x', cores: 2, memoryBytes: 1, freeMemoryBytesAtStart: 1, node: 'v20', platform: 'linux-x64', kernel: '6' },
    workspaces: [],
    readMix: [],
    coldStart: [],
    hotReferences: [],
    targetResolution: [],
    concurrency: [],
    memory: [],
    missing: [],
    notes: [],
    ...overrides,
  }
}
