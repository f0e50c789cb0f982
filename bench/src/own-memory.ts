import { readFileSync } from 'node:fs'

import { processTree, rssOf } from './process-memory.js'
import type { OwnMemoryResult } from './report.js'
import { quantile } from './statistics.js'

/** A process's command line, arguments joined by spaces ('' when it is gone). */
export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ')
  } catch {
    return ''
  }
}

/** Parent pid of a process (undefined when it is gone). */
export function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

const shells = new Set(['sh', 'dash', 'bash', 'ash', 'busybox'])

/**
 * Whether a direct child of the host is its watchdog rather than a language server, by its command line:
 * today `node -e <source>` holding the socket on fd 3 and killing process groups; a shell process (`/bin/sh
 * …`) after the watchdog becomes one. Language servers run as their own executable or `node <script>`.
 */
export function isWatchdogCommand(command: string): boolean {
  const [program = '', second = ''] = command.split(' ')
  const name = program.slice(program.lastIndexOf('/') + 1)
  if (shells.has(name)) return true
  return second === '-e' && /kill/.test(command)
}

/** The host's descendants split into its watchdog(s) and everything else (the servers' trees). */
export function classifyHostTree(hostPid: number): { watchdogs: number[]; servers: number[] } {
  const tree = processTree(hostPid).filter((pid) => pid !== hostPid)
  const watchdogs = tree.filter((pid) => parentOf(pid) === hostPid && isWatchdogCommand(commandLineOf(pid)))
  const watched = new Set(watchdogs.flatMap((pid) => processTree(pid)))
  return { watchdogs: [...watched], servers: tree.filter((pid) => !watched.has(pid)) }
}

const summary = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return { median: Math.round(quantile(sorted, 0.5)), max: sorted[sorted.length - 1] ?? 0 }
}

/**
 * Samples the MCP host's RSS, its watchdog's and its servers' trees every `everyMs` while it serves; the
 * process tree is re-read every sample (servers start and stop), which costs a /proc walk in this process.
 */
export function sampleOwnMemory(workspace: string, hostPid: number, everyMs = 250): { stop(): OwnMemoryResult } {
  const host: number[] = []
  const watchdog: number[] = []
  const own: number[] = []
  const servers: number[] = []
  let watchdogs = 0
  let serverProcesses = 0
  let watchdogCommand: string | undefined
  const sample = () => {
    const tree = classifyHostTree(hostPid)
    const hostRss = rssOf(hostPid)
    if (hostRss === 0) return
    const watchdogRss = tree.watchdogs.reduce((total, pid) => total + rssOf(pid), 0)
    host.push(hostRss)
    watchdog.push(watchdogRss)
    own.push(hostRss + watchdogRss)
    servers.push(tree.servers.reduce((total, pid) => total + rssOf(pid), 0))
    watchdogs = Math.max(watchdogs, tree.watchdogs.length)
    serverProcesses = Math.max(serverProcesses, tree.servers.length)
    if (watchdogCommand === undefined && tree.watchdogs.length > 0) watchdogCommand = commandLineOf(tree.watchdogs[0]!).slice(0, 60)
  }
  sample()
  const timer = setInterval(sample, everyMs)
  return {
    stop() {
      clearInterval(timer)
      sample()
      return {
        workspace,
        samples: host.length,
        host: summary(host),
        watchdog: summary(watchdog),
        watchdogs,
        ...(watchdogCommand === undefined ? {} : { watchdogCommand }),
        own: summary(own),
        servers: summary(servers),
        serverProcesses,
      }
    },
  }
}
