import { availableParallelism, totalmem } from 'node:os'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'

import type { ServerProfile } from '../profile/profiles.js'
import { recordFor } from '../languages/index.js'

/**
 * Resource limits: how many servers may run, how much memory one server's process tree may hold, the
 * heap cap Node-based servers start with, and how many documents a server keeps open. Pure pieces; the
 * pool applies them (pool/reclaim.ts, pool/memory.ts; see docs/security.md).
 */

/** The user-facing config (all optional; `0` disables a limit where noted). */
export interface ResourceLimitsConfig {
  /** Concurrent server processes across every root; the least recently used idle one is stopped first. */
  readonly maxServers?: number
  /** Resident memory ceiling of one server's process tree, bytes (0: no ceiling). Exceeding it restarts the server. */
  readonly maxServerMemoryBytes?: number
  /**
   * Resident memory every server of a host — in a daemon, of both trust levels' hosts — may hold together, bytes (0:
   * no budget). Over it, idle servers stop, least recently used first (RFC 0033). Caps the ceiling and the heap cap.
   */
  readonly memoryBudgetBytes?: number
  /** Heap cap for Node-based servers, MiB (`--max-old-space-size`; 0: none). Go servers get GOMEMLIMIT instead. */
  readonly nodeHeapMb?: number
  /** Open documents per server before the least recently used is closed. */
  readonly maxOpenDocuments?: number
  /** How often the memory of running servers is sampled, ms. */
  readonly memoryCheckIntervalMs?: number
  /** Consecutive samples over the ceiling before a breach is reported (a single spike is forgiven). */
  readonly memoryBreachSamples?: number
  /** A file larger than this many bytes is never sent to a server nor read for a tool (0: no ceiling; RFC 0013). */
  readonly maxFileBytes?: number
  /** A file with a line longer than this many characters (a minified bundle) is never sent nor read (0: no ceiling). */
  readonly maxLineLength?: number
}

export type ResourceLimits = Required<ResourceLimitsConfig>

/** The machine the defaults are sized for. */
export interface MachineShape {
  readonly cpus: number
  readonly totalMemoryBytes: number
}

const GiB = 1024 ** 3
const MiB = 1024 ** 2

export function currentMachine(): MachineShape {
  return { cpus: availableParallelism(), totalMemoryBytes: totalmem() }
}

/**
 * Defaults derived from the machine. Ceiling: a quarter of RAM, at most 4 GiB (typescript-language-server
 * needs ≈3 GB on a 360-file project). Servers: two per core, but never more than two thirds of RAM worth of
 * ceilings. Heap: three quarters of the ceiling, so V8 gives up before the tree breaches it. Budget for every
 * server together: half of RAM, at least 1 GiB — the other half is the agent's, the editor's and the builds'
 * (RFC 0033). On 2 cores and 24 GB: 4 servers, 4 GiB each, 12 GiB together, 3072 MiB heap, 200 open documents.
 */
export function defaultResourceLimits(machine: MachineShape = currentMachine()): ResourceLimits {
  const ceiling = Math.max(512 * MiB, Math.min(4 * GiB, Math.floor(machine.totalMemoryBytes / 4)))
  const byMemory = Math.floor((machine.totalMemoryBytes * 2) / 3 / ceiling)
  return {
    maxServers: Math.max(2, Math.min(machine.cpus * 2, byMemory)),
    maxServerMemoryBytes: ceiling,
    memoryBudgetBytes: Math.max(GiB, Math.floor(machine.totalMemoryBytes / 2)),
    nodeHeapMb: Math.floor((ceiling * 0.75) / MiB),
    maxOpenDocuments: 200,
    memoryCheckIntervalMs: 5_000,
    memoryBreachSamples: 2,
    // Measured on the bundled servers (RFC 0013): see defaultFileLimits.
    ...defaultFileLimits,
  }
}

/**
 * Per-file ceilings, the same on every machine: what a server is given depends on the file, not the RAM.
 * Chosen from measurements of the bundled servers (RFC 0013, "Measurements").
 */
export const defaultFileLimits = { maxFileBytes: 4 * MiB, maxLineLength: 10_000 } as const

/** Validates a config against the defaults; INVALID_ARGUMENT names the field and what it accepts. */
export function resolveResourceLimits(config: ResourceLimitsConfig = {}, machine: MachineShape = currentMachine()): ResourceLimits {
  const defaults = defaultResourceLimits(machine)
  const pick = (name: keyof ResourceLimitsConfig, min: number): number => {
    const value = config[name]
    if (value === undefined) return defaults[name]
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      throw new LspError('INVALID_ARGUMENT', `${name} must be an integer ≥ ${min}, got ${String(value)} (default ${defaults[name]})`)
    }
    return value
  }
  const limits: ResourceLimits = {
    maxServers: pick('maxServers', 1),
    maxServerMemoryBytes: pick('maxServerMemoryBytes', 0),
    memoryBudgetBytes: pick('memoryBudgetBytes', 0),
    nodeHeapMb: pick('nodeHeapMb', 0),
    maxOpenDocuments: pick('maxOpenDocuments', 1),
    memoryCheckIntervalMs: pick('memoryCheckIntervalMs', 100),
    memoryBreachSamples: pick('memoryBreachSamples', 1),
    maxFileBytes: pick('maxFileBytes', 0),
    maxLineLength: pick('maxLineLength', 0),
  }
  if (limits.maxServerMemoryBytes > 0 && limits.maxServerMemoryBytes < 64 * MiB) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `maxServerMemoryBytes is ${limits.maxServerMemoryBytes} bytes: no language server starts in under 64 MiB (0 disables the ceiling)`,
    )
  }
  if (limits.memoryBudgetBytes > 0 && limits.memoryBudgetBytes < 16 * MiB) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `memoryBudgetBytes is ${limits.memoryBudgetBytes} bytes: no language server runs in under 16 MiB (0 disables the budget)`,
    )
  }
  return withinBudget(limits)
}

/**
 * The limits the budget implies (RFC 0033): one server's ceiling is at most the budget (a server alone over it
 * would be stopped by the budget anyway), and the heap cap (Node's old space, a JVM's -Xmx, GOMEMLIMIT) at most
 * three quarters of the budget, as the default heap is of the default ceiling: a capped runtime gives up before its
 * tree alone fills the budget. A smaller heap cap, and 0 (none), are kept.
 */
function withinBudget(limits: ResourceLimits): ResourceLimits {
  const budget = limits.memoryBudgetBytes
  if (budget <= 0) return limits
  const ceiling = limits.maxServerMemoryBytes > 0 ? Math.min(limits.maxServerMemoryBytes, budget) : 0
  const heapRoom = Math.floor((budget * 0.75) / MiB)
  const nodeHeapMb = limits.nodeHeapMb > 0 ? Math.min(limits.nodeHeapMb, heapRoom) : 0
  return { ...limits, maxServerMemoryBytes: ceiling, nodeHeapMb }
}

/** What a heap cap changes in a spawn plan. */
export interface HeapCapped {
  readonly args: ReadonlyArray<string>
  readonly env: Readonly<Record<string, string>>
  readonly initializationOptions?: unknown
}

const isNode = (command: string) => /^node(js)?(\.exe)?$/.test(nodePath.basename(command)) || command === process.execPath

/**
 * Caps the heap of a server started from `plan`: Node servers get `--max-old-space-size` before their
 * script; typescript-language-server also passes it to the tsserver it forks (`maxTsServerMemory`); Go
 * servers (the native TypeScript server, gopls) get GOMEMLIMIT (a soft limit their GC honours), Java servers `-Xmx`. The knob is the
 * record's (languages/). A cap already present is kept.
 */
export function withHeapCap(
  profile: Pick<ServerProfile, 'id' | 'command' | 'args'>,
  plan: HeapCapped & { readonly command: string },
  heapMb: number,
): HeapCapped {
  if (heapMb <= 0) return { args: plan.args, env: plan.env, initializationOptions: plan.initializationOptions }
  let args = [...plan.args]
  const env = { ...plan.env }
  let initializationOptions = plan.initializationOptions
  const knob = recordFor(profile)?.memory.kind
  if (isNode(plan.command) && !args.some((a) => a.startsWith('--max-old-space-size'))) args = [`--max-old-space-size=${heapMb}`, ...args]
  if (knob === 'tsserver') {
    const options =
      initializationOptions !== null && typeof initializationOptions === 'object' ? (initializationOptions as Record<string, unknown>) : {}
    if (options['maxTsServerMemory'] === undefined) initializationOptions = { ...options, maxTsServerMemory: heapMb }
  }
  if (knob === 'go' && env['GOMEMLIMIT'] === undefined) env['GOMEMLIMIT'] = `${heapMb}MiB`
  // A Java server's JVM options come first on its command line (before `-jar`).
  if (knob === 'jvm' && !args.some((a) => a.startsWith('-Xmx'))) args = [`-Xmx${heapMb}m`, ...args]
  return { args, env, initializationOptions }
}
