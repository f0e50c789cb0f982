import { readdirSync, readFileSync } from 'node:fs'

/**
 * Process-tree facts from /proc (Linux): which processes descend from a pid, and whether a pid still runs.
 * Used to prove that the MCP server leaves no language server behind.
 */

interface ProcessEntry {
  readonly pid: number
  readonly ppid: number
  readonly state: string
}

function readEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name is in parentheses and may contain spaces: parse after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { pid, state: fields[0] ?? '?', ppid: Number(fields[1]) }
  } catch {
    return undefined
  }
}

function allProcesses(): ProcessEntry[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      const entry = readEntry(Number(name))
      return entry === undefined ? [] : [entry]
    })
}

/** Every process below `pid` (children, grandchildren, …). */
export function descendantsOf(pid: number): number[] {
  const entries = allProcesses()
  const found: number[] = []
  let frontier = [pid]
  while (frontier.length > 0) {
    const children = entries.filter((e) => frontier.includes(e.ppid)).map((e) => e.pid)
    found.push(...children)
    frontier = children
  }
  return found
}

/** Whether a process is running (a zombie awaiting its parent's reaping counts as gone). */
export function isRunning(pid: number): boolean {
  const entry = readEntry(pid)
  return entry !== undefined && entry.state !== 'Z' && entry.state !== 'X'
}

/** The command line of a process, for failure messages. */
export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
  } catch {
    return '(gone)'
  }
}
