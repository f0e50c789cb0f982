import { readFile, readdir } from 'node:fs/promises'
import { availableParallelism, totalmem } from 'node:os'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'

import type { ServerProfile } from './profiles.js'
import { serverKind } from './trust.js'

/**
 * Resource limits: how many servers may run, how much memory one server's process tree may hold, the
 * heap cap Node-based servers start with, and how many documents a server keeps open. Pure pieces; the
 * host applies them (see docs/security.md).
 */

/** The user-facing config (all optional; `0` disables a limit where noted). */
export interface ResourceLimitsConfig {
  /** Concurrent server processes across every root; the least recently used idle one is stopped first. */
  readonly maxServers?: number
  /** Resident memory ceiling of one server's process tree, bytes (0: no ceiling). Exceeding it restarts the server. */
  readonly maxServerMemoryBytes?: number
  /** Heap cap for Node-based servers, MiB (`--max-old-space-size`; 0: none). Go servers get GOMEMLIMIT instead. */
  readonly nodeHeapMb?: number
  /** Open documents per server before the least recently used is closed. */
  readonly maxOpenDocuments?: number
  /** How often the memory of running servers is sampled, ms. */
  readonly memoryCheckIntervalMs?: number
  /** Consecutive samples over the ceiling before a breach is reported (a single spike is forgiven). */
  readonly memoryBreachSamples?: number
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
 * ceilings. Heap: three quarters of the ceiling, so V8 gives up before the tree breaches it. On 2 cores and
 * 24 GB: 4 servers, 4 GiB each, 3072 MiB heap, 200 open documents.
 */
export function defaultResourceLimits(machine: MachineShape = currentMachine()): ResourceLimits {
  const ceiling = Math.max(512 * MiB, Math.min(4 * GiB, Math.floor(machine.totalMemoryBytes / 4)))
  const byMemory = Math.floor((machine.totalMemoryBytes * 2) / 3 / ceiling)
  return {
    maxServers: Math.max(2, Math.min(machine.cpus * 2, byMemory)),
    maxServerMemoryBytes: ceiling,
    nodeHeapMb: Math.floor((ceiling * 0.75) / MiB),
    maxOpenDocuments: 200,
    memoryCheckIntervalMs: 5_000,
    memoryBreachSamples: 2,
  }
}

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
    nodeHeapMb: pick('nodeHeapMb', 0),
    maxOpenDocuments: pick('maxOpenDocuments', 1),
    memoryCheckIntervalMs: pick('memoryCheckIntervalMs', 100),
    memoryBreachSamples: pick('memoryBreachSamples', 1),
  }
  if (limits.maxServerMemoryBytes > 0 && limits.maxServerMemoryBytes < 64 * MiB) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `maxServerMemoryBytes is ${limits.maxServerMemoryBytes} bytes: no language server starts in under 64 MiB (0 disables the ceiling)`,
    )
  }
  return limits
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
 * script; typescript-language-server also passes it to the tsserver it forks (`maxTsServerMemory`); the Go
 * native TypeScript server gets GOMEMLIMIT (a soft limit its GC honours). A cap already present is kept.
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
  const kind = serverKind(profile)
  if (isNode(plan.command) && !args.some((a) => a.startsWith('--max-old-space-size'))) args = [`--max-old-space-size=${heapMb}`, ...args]
  if (kind === 'typescript-language-server') {
    const options =
      initializationOptions !== null && typeof initializationOptions === 'object' ? (initializationOptions as Record<string, unknown>) : {}
    if (options['maxTsServerMemory'] === undefined) initializationOptions = { ...options, maxTsServerMemory: heapMb }
  }
  if (kind === 'native-typescript' && env['GOMEMLIMIT'] === undefined) env['GOMEMLIMIT'] = `${heapMb}MiB`
  return { args, env, initializationOptions }
}

/** A running server as the reclaimer sees it. */
export interface ServerUse {
  readonly key: string
  /** Queries in flight or a start in progress: never reclaimed. */
  readonly busy: boolean
  /** When it last answered or was asked (any monotonic clock). */
  readonly lastUsed: number
}

/**
 * Which idle servers to stop so that `incoming` more fit under `maxServers`: least recently used first,
 * busy ones never. `short` > 0 means even stopping every idle server is not enough (the caller reports
 * UNAVAILABLE or waits for a busy one to finish).
 */
export function chooseReclaim(running: ReadonlyArray<ServerUse>, maxServers: number, incoming = 1): { stop: string[]; short: number } {
  const excess = running.length + incoming - maxServers
  if (excess <= 0) return { stop: [], short: 0 }
  const idle = running.filter((s) => !s.busy).sort((a, b) => a.lastUsed - b.lastUsed || a.key.localeCompare(b.key))
  const stop = idle.slice(0, excess).map((s) => s.key)
  return { stop, short: excess - stop.length }
}

/** Resident memory of a process tree. */
export interface TreeMemory {
  readonly rssBytes: number
  /** Every pid counted, the root first. */
  readonly pids: ReadonlyArray<number>
}

async function rssOf(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]
    return kb === undefined ? 0 : Number(kb) * 1024 // kernel threads and zombies have no VmRSS
  } catch {
    return undefined
  }
}

/** Children from /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN); undefined where the kernel lacks it. */
async function childrenFromTasks(pid: number): Promise<number[] | undefined> {
  let tasks: string[]
  try {
    tasks = await readdir(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const found: number[] = []
  for (const task of tasks) {
    try {
      const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8')
      for (const child of text.split(/\s+/)) if (child !== '') found.push(Number(child))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && task === String(pid)) return undefined
    }
  }
  return found
}

/** Parent of every process, from /proc/<pid>/stat (the comm field may hold spaces and parentheses). */
async function parentMap(): Promise<Map<number, number>> {
  const parents = new Map<number, number>()
  const entries = await readdir('/proc')
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (entry) => {
        try {
          const stat = await readFile(`/proc/${entry}/stat`, 'utf8')
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
          if (Number.isInteger(ppid)) parents.set(Number(entry), ppid)
        } catch {
          // exited while we looked
        }
      }),
  )
  return parents
}

/**
 * The resident memory of `rootPid` and all its descendants (Linux /proc): children through
 * /proc/<pid>/task/<tid>/children where the kernel offers it, else by scanning every /proc/<pid>/stat for
 * its parent. Undefined when the root is gone or /proc is absent.
 */
export async function readTreeMemory(rootPid: number): Promise<TreeMemory | undefined> {
  if ((await rssOf(rootPid)) === undefined) return undefined
  const pids: number[] = [rootPid]
  const viaTasks = await childrenFromTasks(rootPid)
  if (viaTasks !== undefined) {
    for (let i = 0; i < pids.length; i++) {
      const children = i === 0 ? viaTasks : ((await childrenFromTasks(pids[i] ?? 0)) ?? [])
      for (const child of children) if (!pids.includes(child)) pids.push(child)
    }
  } else {
    const parents = await parentMap()
    for (let i = 0; i < pids.length; i++) {
      for (const [pid, ppid] of parents) if (ppid === pids[i] && !pids.includes(pid)) pids.push(pid)
    }
  }
  let rssBytes = 0
  const alive: number[] = []
  for (const pid of pids) {
    const rss = await rssOf(pid)
    if (rss === undefined) continue
    rssBytes += rss
    alive.push(pid)
  }
  return { rssBytes, pids: alive }
}

/** A breach the host acts on: restart the server gracefully, then report it in status and the next result's meta. */
export interface MemoryBreach {
  readonly key: string
  readonly pid: number
  readonly rssBytes: number
  readonly ceilingBytes: number
  /** Ready-made reason for status and logs. */
  readonly reason: string
}

/**
 * Samples the process trees it watches and reports a tree that stays over its ceiling for
 * `breachSamples` consecutive samples. Reports once per watch (the host restarts the server and watches
 * the new process). `check()` samples now; `start()` samples every `intervalMs` without keeping the
 * process alive.
 */
export class MemoryWatcher {
  private readonly watched = new Map<string, { pid: number; ceilingBytes: number; over: number }>()
  private timer: NodeJS.Timeout | undefined
  private checking: Promise<MemoryBreach[]> | undefined

  constructor(
    private readonly onBreach: (breach: MemoryBreach) => void,
    private readonly options: { readonly intervalMs: number; readonly breachSamples: number },
  ) {}

  watch(key: string, pid: number, ceilingBytes: number): void {
    if (ceilingBytes <= 0) return
    this.watched.set(key, { pid, ceilingBytes, over: 0 })
  }

  unwatch(key: string): void {
    this.watched.delete(key)
  }

  get size(): number {
    return this.watched.size
  }

  /** Samples every watched tree once (single-flight); returns the breaches it reported. */
  check(): Promise<MemoryBreach[]> {
    this.checking ??= this.sample().finally(() => {
      this.checking = undefined
    })
    return this.checking
  }

  private async sample(): Promise<MemoryBreach[]> {
    const breaches: MemoryBreach[] = []
    for (const [key, entry] of [...this.watched]) {
      const memory = await readTreeMemory(entry.pid)
      if (memory === undefined) {
        this.watched.delete(key) // exited: the crash path reports it
        continue
      }
      entry.over = memory.rssBytes > entry.ceilingBytes ? entry.over + 1 : 0
      if (entry.over >= this.options.breachSamples && this.watched.get(key) === entry) {
        this.watched.delete(key)
        const mb = (n: number) => `${Math.round(n / MiB)} MiB`
        const breach: MemoryBreach = {
          key,
          pid: entry.pid,
          rssBytes: memory.rssBytes,
          ceilingBytes: entry.ceilingBytes,
          reason: `its process tree used ${mb(memory.rssBytes)}, over the ${mb(entry.ceilingBytes)} ceiling (maxServerMemoryBytes), so it was restarted`,
        }
        breaches.push(breach)
        this.onBreach(breach)
      }
    }
    return breaches
  }

  start(): void {
    if (this.timer !== undefined) return
    this.timer = setInterval(() => void this.check(), this.options.intervalMs)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
    this.watched.clear()
  }
}
