import { readFile, readdir } from 'node:fs/promises'

// Process trees from Linux /proc: the resident memory of a server's tree, and whether its process group lives on.

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

/** One process as /proc/<pid>/stat shows it. */
export interface ProcessStat {
  readonly pid: number
  /** R, S, D, Z (zombie), X (dead), … */
  readonly state: string
  readonly ppid: number
  /** Process group id. */
  readonly pgrp: number
}

/**
 * Every process from /proc/<pid>/stat (the comm field may hold spaces and parentheses, so it is read after
 * the last ')'); undefined where /proc is absent.
 */
export async function readProcessStats(): Promise<ProcessStat[] | undefined> {
  let entries: string[]
  try {
    entries = await readdir('/proc')
  } catch {
    return undefined
  }
  const stats = await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (entry): Promise<ProcessStat | undefined> => {
        try {
          const stat = await readFile(`/proc/${entry}/stat`, 'utf8')
          const [state = '', ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
          return { pid: Number(entry), state, ppid: Number(ppid), pgrp: Number(pgrp) }
        } catch {
          return undefined // exited while we looked
        }
      }),
  )
  return stats.filter((s): s is ProcessStat => s !== undefined)
}

/** Whether a live process (zombies aside) is left in a process group; false where /proc is absent. */
export async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0) // no such group: nothing to scan /proc for
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
  }
  const stats = await readProcessStats()
  return stats?.some((s) => s.pgrp === pgid && s.state !== 'Z' && s.state !== 'X') ?? false
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
    const stats = (await readProcessStats()) ?? []
    for (let i = 0; i < pids.length; i++) {
      for (const { pid, ppid } of stats) if (ppid === pids[i] && !pids.includes(pid)) pids.push(pid)
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
