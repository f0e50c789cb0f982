// Which processes this test process has started and not reaped: the leak check every suite ends with.
import { readdirSync, readFileSync } from 'node:fs'

interface ProcessInfo {
  readonly pid: number
  readonly parent: number
  readonly zombie: boolean
  readonly command: string
}

function processes(): ProcessInfo[] {
  const out: ProcessInfo[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      const fields = stat.slice(close + 2).split(' ')
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()
      out.push({ pid: Number(entry), parent: Number(fields[1]), zombie: fields[0] === 'Z', command })
    } catch {
      // ended while we looked
    }
  }
  return out
}

/** Live (non-zombie) descendants of this process, with their command lines. */
export function liveDescendants(): Array<{ pid: number; command: string }> {
  const all = processes()
  const found: ProcessInfo[] = []
  const frontier = [process.pid]
  while (frontier.length > 0) {
    const parent = frontier.pop()!
    for (const info of all) {
      if (info.parent === parent) {
        found.push(info)
        frontier.push(info.pid)
      }
    }
  }
  return found.filter((p) => !p.zombie).map((p) => ({ pid: p.pid, command: p.command.slice(0, 160) }))
}

/** Whether a pid is alive and not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}
