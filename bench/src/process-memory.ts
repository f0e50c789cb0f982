import { readdirSync, readFileSync } from 'node:fs'

/** Parent pid of every live process (Linux /proc); empty where /proc is missing. */
function parentMap(): Map<number, number> {
  const parents = new Map<number, number>()
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return parents
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The command name may contain spaces and parentheses: fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parents.set(Number(entry), Number(fields[1]))
    } catch {
      // The process ended while we looked.
    }
  }
  return parents
}

/** Resident set size of one process, bytes (0 if it is gone). */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/**
 * Private memory of one process, bytes (Private_Clean + Private_Dirty of /proc/PID/smaps_rollup; 0 if it is
 * gone): what the process adds to the machine. Its RSS also counts pages it shares with every other process
 * of the same executable (node's own code), which one more process does not add.
 */
export function privateOf(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(rollup)?.[1] ?? 0)
    return (kb('Private_Clean') + kb('Private_Dirty')) * 1024
  } catch {
    return 0
  }
}

/** A process and all its descendants. */
export function processTree(pid: number): number[] {
  const parents = parentMap()
  const tree = [pid]
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child)
  }
  return tree.filter((p) => p === pid || parents.has(p))
}

/** RSS of the trees rooted at `pids`, bytes. */
export function treeRss(pids: ReadonlyArray<number>): number {
  const all = new Set(pids.flatMap(processTree))
  let total = 0
  for (const pid of all) total += rssOf(pid)
  return total
}

/** Descendants of this process (language servers, MCP servers…), for the leak check at the end. */
export function childProcesses(): number[] {
  return processTree(process.pid).filter((pid) => pid !== process.pid)
}
