import { cpus, freemem, release, totalmem } from 'node:os'

import type { FloorRatio, TimingSummary } from './statistics.js'

/** The machine the figures came from. */
export interface MachineInfo {
  readonly cpuModel: string
  readonly cores: number
  readonly memoryBytes: number
  readonly freeMemoryBytesAtStart: number
  readonly node: string
  readonly platform: string
  readonly kernel: string
}

/** Reads the machine description. */
export function machineInfo(): MachineInfo {
  const cores = cpus()
  return {
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryBytes: totalmem(),
    freeMemoryBytesAtStart: freemem(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    kernel: release(),
  }
}

/** The layers measured, bottom to top. */
export const layers = ['floor', 'ctx.lsp', 'tools', 'mcp'] as const
export type Layer = (typeof layers)[number]

/** What each layer is, for tables and docs. */
export const layerDescriptions: Readonly<Record<Layer, string>> = {
  floor: 'bare vscode-jsonrpc client ↔ native TS 7 server (tsc --lsp --stdio)',
  'ctx.lsp': 'createLsp() + @codeseam/lsp-local host, in process',
  tools: '@codeseam/tool-lsp tools (target resolution, budgeting, rendering) over ctx.lsp',
  mcp: '`codeseam mcp` over stdio, called with the MCP SDK client',
}

export interface WorkspaceInfo {
  readonly name: string
  readonly files: number
  readonly hotReferences?: number
  readonly generated: boolean
}

/** Timings of one layer on one workspace: the whole mix and each operation. */
export interface ReadMixResult {
  readonly workspace: string
  readonly layer: Layer
  readonly all: TimingSummary
  readonly ratio?: FloorRatio
  readonly byOperation: Readonly<Record<string, { readonly summary: TimingSummary; readonly ratio?: FloorRatio; /** references: locations found. */ readonly locations?: number }>>
  /** Every answer was checked against the expectation of its query; failures are listed. */
  readonly incorrect: number
}

export interface ColdStartResult {
  readonly profile: string
  readonly via: 'floor' | 'host'
  readonly available: boolean
  readonly note?: string
  readonly initializedMs?: number
  /** Spawn → the first answer that is correct (queries repeat until then: an early wrong answer does not count). */
  readonly firstCorrectAnswerMs?: number
  readonly attempts?: number
  readonly serverRssBytes?: number
}

export interface HotReferencesResult {
  readonly workspace: string
  readonly layer: Layer
  readonly summary: TimingSummary
  readonly ratio?: FloorRatio
  /** Locations the layer saw (before budgeting). */
  readonly locations: number
  /** Bytes of what the layer hands its caller (raw JSON for floor/ctx.lsp, the tool output for tools/mcp). */
  readonly outputBytes: number
  readonly truncated: boolean
}

export interface TargetResolutionResult {
  readonly workspace: string
  readonly uncached: TimingSummary
  readonly cached: TimingSummary
}

export interface ConcurrencyResult {
  readonly workspace: string
  readonly layer: Layer
  readonly queries: number
  readonly wallMs: number
  readonly throughputPerSecond: number
  readonly latency: TimingSummary
  readonly errors: number
  readonly incorrect: number
}

export interface MemoryResult {
  readonly workspace: string
  /** floor busy: the bare server; busy: this process + the in-process host's servers; mcp busy: the MCP server process + its servers. */
  readonly phase: 'floor busy' | 'busy' | 'mcp busy' | 'after idle reclamation'
  readonly hostRssBytes?: number
  readonly serverRssBytes: number
  readonly servers: number
  readonly reclaimedMs?: number
}

/** A layer that could not be measured, and why. */
export interface MissingMeasurement {
  readonly what: string
  readonly why: string
}

/** Everything one `pnpm bench` run measured; the docs are generated from this alone. */
export interface BenchReport {
  readonly schema: 1
  readonly generatedAt: string
  readonly command: string
  readonly durationMs: number
  readonly machine: MachineInfo
  readonly workspaces: ReadonlyArray<WorkspaceInfo>
  readonly readMix: ReadonlyArray<ReadMixResult>
  readonly coldStart: ReadonlyArray<ColdStartResult>
  readonly hotReferences: ReadonlyArray<HotReferencesResult>
  readonly targetResolution: ReadonlyArray<TargetResolutionResult>
  readonly concurrency: ReadonlyArray<ConcurrencyResult>
  readonly memory: ReadonlyArray<MemoryResult>
  readonly missing: ReadonlyArray<MissingMeasurement>
  readonly notes: ReadonlyArray<string>
}
