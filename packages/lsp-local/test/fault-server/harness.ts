// Test-side helpers for the fault server: where it is, how to start it, how to read its log, and how to
// know — from events, never from sleeps — when its processes start and die.
import { existsSync, readFileSync, watch } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

/** Absolute path of the fault server program (`node <path> --scenario …`). */
export const faultServerPath = fileURLToPath(new URL('./server.mjs', import.meta.url))

/** One line of the fault server's JSON Lines log. */
export interface FaultLogEntry {
  readonly t: number
  readonly pid: number
  readonly event: string
  readonly [field: string]: unknown
}

/** A received message as the log shows it. */
export interface ReceivedEntry extends FaultLogEntry {
  readonly event: 'received'
  readonly kind: 'request' | 'notification' | 'response'
  readonly method?: string
  readonly id?: number | string
  readonly params?: any
}

/** Rejects with a message saying what was awaited when `deadlineMs` passes first. */
export function withDeadline<T>(promise: Promise<T>, deadlineMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`deadline of ${deadlineMs} ms passed waiting for ${what}`)), deadlineMs)
  })
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer))
}

/** The log every process of one scenario appends to (restarts included). */
export class FaultLog {
  constructor(readonly path: string) {}

  entries(): FaultLogEntry[] {
    if (!existsSync(this.path)) return []
    return readFileSync(this.path, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as FaultLogEntry)
  }

  received(method?: string): ReceivedEntry[] {
    return this.entries().filter((e): e is ReceivedEntry => e.event === 'received' && (method === undefined || e.method === method))
  }

  /** Pids of every fault-server process that started with this log. */
  pids(): number[] {
    return [
      ...new Set(
        this.entries()
          .filter((e) => e.event === 'start')
          .map((e) => e.pid),
      ),
    ]
  }

  /**
   * Resolves with `find`'s first defined answer, re-checking whenever the log's folder changes
   * (fs.watch), until `deadlineMs`.
   */
  waitFor<T>(find: (entries: FaultLogEntry[]) => T | undefined, what: string, deadlineMs = 30_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false
      const check = () => {
        if (settled) return
        let found: T | undefined
        try {
          found = find(this.entries())
        } catch {
          return // a line half-written while we read: the next change event re-checks
        }
        if (found === undefined) return
        settled = true
        cleanup()
        resolve(found)
      }
      const watcher = watch(nodePath.dirname(this.path), check)
      const timer = setTimeout(() => {
        if (settled) return
        settled = true
        cleanup()
        const tail = this.entries()
          .slice(-12)
          .map((e) => JSON.stringify(e))
          .join('\n')
        reject(new Error(`deadline of ${deadlineMs} ms passed waiting for ${what}; last log entries:\n${tail}`))
      }, deadlineMs)
      const cleanup = () => {
        watcher.close()
        clearTimeout(timer)
      }
      check()
    })
  }
}

/**
 * A unix socket every fault server of a suite connects to before it speaks LSP and that the kernel
 * closes when the process ends however it ends: the event source for "started" and "died".
 */
export class Lifelines {
  private readonly live = new Map<number, Socket>()
  private readonly ended = new Set<number>()
  private readonly listeners = new Set<() => void>()

  private constructor(
    readonly path: string,
    private readonly server: Server,
  ) {}

  static async open(dir: string): Promise<Lifelines> {
    const path = nodePath.join(dir, 'lifelines.sock')
    const server = createServer()
    const lifelines = new Lifelines(path, server)
    server.on('connection', (socket) => lifelines.accept(socket))
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(path, () => resolve())
    })
    return lifelines
  }

  private accept(socket: Socket): void {
    let buffer = ''
    let pid: number | undefined
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      buffer += chunk
      if (pid !== undefined || !buffer.includes('\n')) return
      pid = Number(buffer.slice(0, buffer.indexOf('\n')))
      this.live.set(pid, socket)
      this.notify()
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      if (pid === undefined) return
      this.live.delete(pid)
      this.ended.add(pid)
      this.notify()
    })
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener()
  }

  /** Pids of fault servers whose lifeline is open. */
  alive(): number[] {
    return [...this.live.keys()]
  }

  /** Pids of fault servers that connected and have ended since. */
  dead(): number[] {
    return [...this.ended]
  }

  /** Resolves when `predicate` holds, re-checked on every start and death. */
  until(predicate: () => boolean, what: string, deadlineMs = 30_000): Promise<void> {
    if (predicate()) return Promise.resolve()
    let listener: (() => void) | undefined
    const reached = new Promise<void>((resolve) => {
      listener = () => {
        if (predicate()) resolve()
      }
      this.listeners.add(listener)
    })
    return withDeadline(reached, deadlineMs, what).finally(() => {
      if (listener) this.listeners.delete(listener)
    })
  }

  /** Resolves when the process `pid` has ended. */
  exited(pid: number, deadlineMs = 30_000): Promise<void> {
    return this.until(() => this.ended.has(pid) || (!this.live.has(pid) && !isProcessAlive(pid)), `fault server ${pid} to exit`, deadlineMs)
  }

  async close(): Promise<void> {
    for (const socket of this.live.values()) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

/** Whether a process exists and is not a zombie (a zombie has ended; only its parent has not reaped it). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

/** Kills whatever fault servers are still alive (a test that leaked one still fails on its own check). */
export function killLeftovers(pids: Iterable<number>): number[] {
  const killed: number[] = []
  for (const pid of pids) {
    if (!isProcessAlive(pid)) continue
    try {
      process.kill(pid, 'SIGKILL')
      killed.push(pid)
    } catch {
      // already gone
    }
  }
  return killed
}

/** A scratch folder for one suite, removed by `dispose`. */
export async function scratchDir(prefix: string): Promise<{ path: string; dispose: () => Promise<void> }> {
  const path = await mkdtemp(nodePath.join(tmpdir(), prefix))
  return { path, dispose: () => rm(path, { recursive: true, force: true }) }
}

/** The zero-based position of the `occurrence`-th (1-based) match of `needle` in `text`, plus `offset` characters. */
export function positionOf(text: string, needle: string, occurrence = 1, offset = 0): { line: number; character: number } {
  let index = -1
  for (let i = 0; i < occurrence; i++) {
    index = text.indexOf(needle, index + 1)
    if (index < 0) throw new Error(`"${needle}" occurs fewer than ${occurrence} times in the fixture`)
  }
  const before = text.slice(0, index + offset)
  const line = before.split('\n').length - 1
  return { line, character: before.length - (before.lastIndexOf('\n') + 1) }
}

/** Every whole-word occurrence of `word` in `text`, as zero-based positions. */
export function wordPositions(text: string, word: string): { line: number; character: number }[] {
  const positions: { line: number; character: number }[] = []
  const pattern = new RegExp(`(?<![\\w$])${word.replace(/[$]/g, '\\$')}(?![\\w$])`, 'g')
  for (const match of text.matchAll(pattern)) {
    const before = text.slice(0, match.index)
    positions.push({ line: before.split('\n').length - 1, character: before.length - (before.lastIndexOf('\n') + 1) })
  }
  return positions
}
