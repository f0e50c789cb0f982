import { spawn, type ChildProcess } from 'node:child_process'
import { readFile, readdir } from 'node:fs/promises'
import type { Readable, Writable } from 'node:stream'

/**
 * The watchdog every server runs under. Node has no parent-death signal, so the host keeps a pipe (fd 3)
 * open to this tiny process; when the pipe closes — the host exited, even by SIGKILL — the watchdog kills
 * the server's whole process group. The server inherits the watchdog's stdin/stdout/stderr, so protocol
 * bytes never pass through it. It reports the server's pid on the pipe, and exits with the server.
 */
const watchdogSource = `
const { spawn } = require('node:child_process');
const net = require('node:net');
const [command, ...args] = process.argv.slice(1);
// fd 3 is a socket pair with the host: a net.Socket reads it without blocking a thread, so exit is prompt.
const control = new net.Socket({ fd: 3, readable: true, writable: true });
let child;
const exitWith = (code) => { control.destroy(); process.exit(code); };
try {
  child = spawn(command, args, { stdio: 'inherit', detached: true });
} catch (error) { process.stderr.write('watchdog: cannot start ' + command + ': ' + error.message + '\\n'); exitWith(127); }
const killGroup = (signal) => { try { process.kill(-child.pid, signal); } catch {} };
child.on('error', (error) => { process.stderr.write('watchdog: cannot start ' + command + ': ' + error.message + '\\n'); exitWith(127); });
child.on('spawn', () => control.write(String(child.pid) + '\\n'));
control.on('error', () => {});
control.on('data', (data) => { const s = String(data); if (s.includes('TERM')) killGroup('SIGTERM'); if (s.includes('KILL')) killGroup('SIGKILL'); });
// The host is gone (exited, crashed or SIGKILLed): take the server's whole process group down.
control.on('end', () => { killGroup('SIGKILL'); exitWith(0); });
control.on('close', () => { killGroup('SIGKILL'); exitWith(0); });
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => killGroup(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGKILL'));
child.on('exit', (code, signal) => { killGroup('SIGKILL'); exitWith(code ?? (signal ? 128 : 1)); });
`

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

/** A running server process (under its watchdog). */
export class ServerProcess {
  readonly stdin: Writable
  readonly stdout: Readable
  readonly stderr = new StderrRing(200)
  /** Resolves with the server's own pid (the watchdog reports it), or undefined if it never started. */
  readonly serverPid: Promise<number | undefined>
  /** Resolves when the watchdog (and therefore the server) has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  private readonly child: ChildProcess
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined

  constructor(spec: SpawnSpec) {
    this.stderr = new StderrRing(spec.stderrLines)
    // No shell: the command and every argument go to execve as they are.
    this.child = spawn(process.execPath, ['-e', watchdogSource, spec.command, ...spec.args], {
      cwd: spec.cwd,
      env: { ...spec.env },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    })
    const { stdin, stdout, stderr } = this.child
    if (stdin === null || stdout === null || stderr === null) throw new Error('spawn did not create stdio pipes')
    this.stdin = stdin
    this.stdout = stdout
    stdin.on('error', () => {}) // a dead server's stdin errors with EPIPE; the exit handler reports the crash
    stderr.setEncoding('utf8')
    stderr.on('data', (chunk: string) => this.stderr.push(chunk))
    const control = this.child.stdio[3] as Readable & Writable
    control.on('error', () => {})
    this.serverPid = new Promise((resolve) => {
      let text = ''
      control.on('data', (data: Buffer) => {
        text += data.toString('utf8')
        const line = text.split('\n')[0]
        if (text.includes('\n') && line !== undefined) resolve(Number(line) || undefined)
      })
      this.child.once('exit', () => resolve(undefined))
    })
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal }
        resolve(this.exitInfo)
      })
      this.child.once('error', (error) => {
        this.stderr.push(`cannot start ${spec.command}: ${error.message}\n`)
        this.exitInfo ??= { code: 127, signal: null }
        resolve(this.exitInfo)
      })
    })
  }

  /** The watchdog's pid. */
  get pid(): number | undefined {
    return this.child.pid
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined
  }

  /** Asks the watchdog to signal the server's process group. */
  signal(signal: 'TERM' | 'KILL'): void {
    if (this.hasExited) return
    const control = this.child.stdio[3] as Writable | null
    control?.write(`${signal}\n`)
    if (signal === 'KILL') this.child.kill('SIGKILL')
  }

  /** Resident memory of the watchdog, the server and all their descendants, in bytes (Linux /proc). */
  async rssBytes(): Promise<number | undefined> {
    const root = this.child.pid
    if (root === undefined || this.hasExited) return undefined
    return treeRss(root)
  }
}

/** Sum of VmRSS of a process and its descendants, from /proc; undefined where /proc is absent. */
export async function treeRss(rootPid: number): Promise<number | undefined> {
  let entries: string[]
  try {
    entries = await readdir('/proc')
  } catch {
    return undefined
  }
  const parents = new Map<number, number>()
  const rss = new Map<number, number>()
  await Promise.all(
    entries.filter((e) => /^\d+$/.test(e)).map(async (entry) => {
      try {
        const status = await readFile(`/proc/${entry}/status`, 'utf8')
        const ppid = /^PPid:\s+(\d+)/m.exec(status)?.[1]
        const vm = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]
        if (ppid !== undefined) parents.set(Number(entry), Number(ppid))
        if (vm !== undefined) rss.set(Number(entry), Number(vm) * 1024)
      } catch {
        // the process exited while we looked
      }
    }),
  )
  const inTree = new Set([rootPid])
  let grew = true
  while (grew) {
    grew = false
    for (const [pid, ppid] of parents) {
      if (!inTree.has(pid) && inTree.has(ppid)) {
        inTree.add(pid)
        grew = true
      }
    }
  }
  let total = 0
  for (const pid of inTree) total += rss.get(pid) ?? 0
  return total
}
