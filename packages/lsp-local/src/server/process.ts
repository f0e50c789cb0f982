import { spawn, type ChildProcess } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'

import { LspError } from '@codeseam/lsp'

import { groupAlive, readTreeMemory } from './process-tree.js'
import { guardProcessGroup, releaseProcessGroup } from './watchdog.js'

/** A bounded buffer of the last lines a server wrote to stderr, quoted in errors. */
export class StderrRing {
  private readonly lines: string[] = []
  private partial = ''

  constructor(private readonly capacity: number) {}

  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/)
    this.partial = parts.pop() ?? ''
    if (this.partial.length > 4096) {
      parts.push(this.partial)
      this.partial = ''
    }
    for (const line of parts) {
      this.lines.push(line.length > 1000 ? `${line.slice(0, 1000)}…` : line)
      if (this.lines.length > this.capacity) this.lines.shift()
    }
  }

  /** The last `count` lines (and any unterminated line). */
  tail(count = 20): string {
    const all = this.partial === '' ? this.lines : [...this.lines, this.partial]
    return all.slice(-count).join('\n')
  }
}

/** How to start one server. */
export interface SpawnSpec {
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly cwd: string
  readonly env: Readonly<Record<string, string>>
  readonly stderrLines: number
}

/** A running server process: its own process group, guarded by the host's watchdog. */
export class ServerProcess {
  readonly stdin: Writable
  readonly stdout: Readable
  readonly stderr: StderrRing
  /** Resolves when the server has exited (its whole process group is then killed). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Resolves as soon as the server process itself has exited, before what it started is gone ({@link exited}). */
  readonly died: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  private diedInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined
  private readonly child: ChildProcess
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined

  constructor(spec: SpawnSpec) {
    this.stderr = new StderrRing(spec.stderrLines)
    // No shell: the command and every argument go to execve as they are. Detached: its own process group,
    // so the whole tree can be signalled — only ever together with the watchdog, which kills the group if
    // the host dies.
    this.child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { ...spec.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    })
    const pid = this.child.pid
    if (pid !== undefined) guardProcessGroup(pid)
    const { stdin, stdout, stderr } = this.child
    if (stdin === null || stdout === null || stderr === null) {
      this.child.kill('SIGKILL')
      if (pid !== undefined) releaseProcessGroup(pid)
      throw new LspError(
        'UNAVAILABLE',
        `${spec.command} was started without stdio pipes, so it cannot speak LSP; check that the command is a language server that can run here`,
        { data: { command: spec.command } },
      )
    }
    this.stdin = stdin
    this.stdout = stdout
    stdin.on('error', () => {}) // a dead server's stdin errors with EPIPE; the exit handler reports the crash
    stderr.setEncoding('utf8')
    stderr.on('data', (chunk: string) => this.stderr.push(chunk))
    this.died = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve((this.diedInfo = { code, signal })))
      this.child.once('error', () => {
        if (this.child.pid === undefined) resolve((this.diedInfo ??= { code: 127, signal: null }))
      })
    })
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        const info = { code, signal }
        if (pid === undefined) {
          this.exitInfo = info
          resolve(info)
          return
        }
        // Whatever the server started goes with it: the group is killed, and the server counts as exited
        // once nothing of it is left running (a SIGKILLed child dies a moment after the signal is sent).
        killGroup(pid, 'SIGKILL')
        void groupGone(pid, 5_000).then(() => {
          releaseProcessGroup(pid)
          this.exitInfo = info
          resolve(info)
        })
      })
      this.child.once('error', (error) => {
        this.stderr.push(`cannot start ${spec.command}: ${error.message}\n`)
        if (this.child.pid === undefined) {
          this.exitInfo ??= { code: 127, signal: null }
          resolve(this.exitInfo)
        }
      })
    })
  }

  /** The server's pid (also its process group id). */
  get pid(): number | undefined {
    return this.child.pid
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined
  }

  /** The server process itself has exited (see {@link died}). */
  get hasDied(): boolean {
    return this.diedInfo !== undefined
  }

  /** Signals the server's whole process group. */
  signal(signal: 'TERM' | 'KILL'): void {
    if (this.hasExited || this.child.pid === undefined) return
    killGroup(this.child.pid, signal === 'TERM' ? 'SIGTERM' : 'SIGKILL')
  }

  /** Resident memory of the server and all its descendants, in bytes (Linux /proc). */
  async rssBytes(): Promise<number | undefined> {
    const root = this.child.pid
    if (root === undefined || this.hasExited) return undefined
    return treeRss(root)
  }
}

/** Resolves once no live process (zombies aside) is left in a process group, checking every 10 ms for at most `timeoutMs`. */
async function groupGone(pgid: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until && (await groupAlive(pgid))) await new Promise((resolve) => setTimeout(resolve, 10))
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // already gone
  }
}

/** Resident memory of a process and its descendants, in bytes; undefined when it is gone or /proc is absent. */
export async function treeRss(rootPid: number): Promise<number | undefined> {
  return (await readTreeMemory(rootPid))?.rssBytes
}
