import { existsSync, readdirSync, readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import type { DaemonMemory } from '../daemon/daemon-health.js'
import { health, type Health } from '../daemon/proxy.js'
import { runtimeDir } from '../daemon/runtime-dir.js'
import { parseError, UsageError } from './arguments.js'
import { exitCodes } from './help.js'
import type { CliIo } from './io.js'

/*
 * `codeseam daemon status|stop|logs`: the shared daemons of this user (those `codeseam mcp` starts, and `codeseam
 * serve`), found by their sockets in the runtime folder and asked over them; nothing here starts one.
 */

export function daemonHelp(): string {
  return [
    'Usage: codeseam daemon status [--json] | stop [KEY | --all] | logs [KEY] [--lines N]',
    '',
    "The shared daemons of this user (the runtime folder's sockets, each named by the daemon's key):",
    '  status         each daemon: key, pid, version, open sessions, socket and log file; a socket nothing answers is listed stale',
    '  stop [KEY]     asks a daemon to stop (SIGTERM; it closes its sessions and language servers) and waits until it has;',
    '                 without KEY: the only one running, or every one with --all',
    "  logs [KEY]     the end of a daemon's log (a daemon `codeseam mcp` started; `codeseam serve` logs to its own stderr)",
    '',
    'A KEY may be shortened to any unique prefix.',
  ].join('\n')
}

export interface Listed {
  readonly key: string
  readonly socket: string
  readonly log?: string
  readonly health?: Health
}

export async function listDaemons(dir: string): Promise<Listed[]> {
  if (!existsSync(dir)) return []
  const sockets = readdirSync(dir).filter((name) => /^daemon-[0-9a-f]+\.sock$/.test(name))
  return Promise.all(
    sockets.map(async (name) => {
      const key = name.slice('daemon-'.length, -'.sock'.length)
      const socket = nodePath.join(dir, name)
      const log = nodePath.join(dir, `daemon-${key}.log`)
      const found = await health(socket)
      return { key, socket, ...(existsSync(log) ? { log } : {}), ...(found === undefined ? {} : { health: found }) }
    }),
  )
}

function pick(daemons: ReadonlyArray<Listed>, key: string | undefined, command: string): Listed {
  const running = daemons.filter((d) => d.health !== undefined)
  if (key !== undefined) {
    const matching = daemons.filter((d) => d.key.startsWith(key))
    if (matching.length === 1 && matching[0] !== undefined) return matching[0]
    throw new UsageError(
      matching.length === 0
        ? `no daemon has a key starting with ${key} (daemons: ${daemons.map((d) => d.key).join(', ') || 'none'})`
        : `${matching.length} daemons have a key starting with ${key}: ${matching.map((d) => d.key).join(', ')}`,
      'daemon',
    )
  }
  if (running.length === 1 && running[0] !== undefined) return running[0]
  throw new UsageError(
    running.length === 0
      ? 'no codeseam daemon is running'
      : `${running.length} daemons are running (${running.map((d) => d.key).join(', ')}): name one by KEY${command === 'stop' ? ', or pass --all' : ''}`,
    'daemon',
  )
}

/** Whether a process still runs (a zombie, exited and not yet reaped, does not). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\S+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

/**
 * Waits until the daemon's socket no longer answers and its process is gone (it stops within its own bounded
 * shutdown: the socket goes first, the language servers after), so "stopped" is said only once it is.
 */
async function stopped(daemon: Listed, deadlineMs: number): Promise<boolean> {
  const deadline = Date.now() + deadlineMs
  while (Date.now() < deadline) {
    if ((await health(daemon.socket, 500)) === undefined && (daemon.health === undefined || !running(daemon.health.pid))) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

export async function runDaemon(args: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const { parseArgs } = await import('node:util')
  const options = {
    json: { type: 'boolean' },
    all: { type: 'boolean' },
    lines: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  } as const
  let parsed
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true })
  } catch (error) {
    throw parseError(error, 'daemon', Object.keys(options))
  }
  const [subcommand, key, extra] = parsed.positionals
  if (parsed.values.help === true || subcommand === undefined) {
    io.stdout.write(`${daemonHelp()}\n`)
    return parsed.values.help === true ? exitCodes.ok : exitCodes.usage
  }
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`, 'daemon')
  const dir = runtimeDir(io.env)
  const daemons = await listDaemons(dir)
  if (subcommand === 'status') {
    if (key !== undefined) throw new UsageError('status takes no KEY', 'daemon')
    if (parsed.values.json === true) {
      io.stdout.write(`${JSON.stringify({ runtimeDir: dir, daemons }, null, 2)}\n`)
      return exitCodes.ok
    }
    if (daemons.length === 0) {
      io.stdout.write(`no codeseam daemon is running (runtime folder ${dir})\n`)
      return exitCodes.ok
    }
    const lines = [`runtime folder ${dir}`]
    for (const d of daemons) {
      lines.push(
        d.health === undefined
          ? `stale    ${d.key}  nothing answers on its socket (a daemon that did not shut down cleanly; the next start replaces it)`
          : `running  ${d.key}  pid ${d.health.pid}, codeseam ${d.health.version}, ${d.health.sessions ?? 0} session${d.health.sessions === 1 ? '' : 's'}`,
        `         socket ${d.socket}${d.log === undefined ? '' : `\n         log ${d.log}`}`,
        ...(d.health?.memory === undefined ? [] : [`         memory: ${memoryWords(d.health.memory, Date.now(), true)}`]),
      )
    }
    io.stdout.write(`${lines.join('\n')}\n`)
    return exitCodes.ok
  }
  if (subcommand === 'stop') {
    const targets = parsed.values.all === true ? daemons.filter((d) => d.health !== undefined) : [pick(daemons, key, 'stop')]
    if (targets.length === 0) {
      io.stdout.write('no codeseam daemon is running\n')
      return exitCodes.ok
    }
    let failed = 0
    for (const target of targets) {
      if (target.health === undefined) {
        io.stdout.write(`${target.key}: not running (a stale socket)\n`)
        continue
      }
      process.kill(target.health.pid, 'SIGTERM')
      if (await stopped(target, 30_000)) io.stdout.write(`stopped ${target.key} (pid ${target.health.pid})\n`)
      else {
        failed++
        io.stderr.write(`codeseam: ${target.key} (pid ${target.health.pid}) still answers or runs 30 s after SIGTERM\n`)
      }
    }
    return failed === 0 ? exitCodes.ok : exitCodes.failed
  }
  if (subcommand === 'logs') {
    const lines = parsed.values.lines === undefined ? 50 : Number(parsed.values.lines)
    if (!Number.isInteger(lines) || lines < 1)
      throw new UsageError(`--lines must be a positive whole number, got ${parsed.values.lines}`, 'daemon')
    const daemon = key === undefined && daemons.length === 1 && daemons[0] !== undefined ? daemons[0] : pick(daemons, key, 'logs')
    if (daemon.log === undefined) {
      io.stdout.write(`${daemon.key} has no log file: a daemon started by \`codeseam serve\` logs to its own stderr\n`)
      return exitCodes.ok
    }
    const text = readFileSync(daemon.log, 'utf8').split('\n')
    if (text.at(-1) === '') text.pop()
    io.stdout.write(`${text.slice(-lines).join('\n')}\n`)
    return exitCodes.ok
  }
  throw new UsageError(`unknown daemon command "${subcommand}" (status, stop, logs)`, 'daemon')
}

/** One line for `codeseam status`: the shared daemons, which this command (a process of its own) does not use. */
export async function daemonLine(io: CliIo): Promise<string> {
  const running = (await listDaemons(runtimeDir(io.env))).filter((d) => d.health !== undefined)
  const own = 'this command ran its own language servers'
  if (running.length === 0) return `daemon: none running (${own}; \`codeseam mcp\` starts one its clients share)`
  const sessions = running.reduce((sum, d) => sum + (d.health?.sessions ?? 0), 0)
  const memory = running.flatMap((d) => (d.health?.memory === undefined ? [] : [d.health.memory]))
  return [
    `daemon: ${running.length} running, ${sessions} session${sessions === 1 ? '' : 's'} (${own}; see \`codeseam daemon status\`)`,
    ...memory.map((m) => `daemon memory: ${memoryWords(m, Date.now(), false)}`),
  ].join('\n')
}

const MB = 1024 * 1024

/**
 * A daemon's memory in words (RFC 0030): its language servers' last samples summed, how old they are, the per-server
 * ceiling, the one budget they count against (RFC 0033), and the daemon process itself. `each`: every server too.
 */
export function memoryWords(memory: DaemonMemory, now: number, each: boolean): string {
  const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`
  const own = `the daemon itself ${mb(memory.ownRssBytes)}`
  if (memory.servers.length === 0) return `no language server running, ${own}`
  const age = (at: number) => `${Math.max(0, Math.floor((now - at) / 1000))}s ago`
  const ceiling =
    memory.perServerCeilingBytes === undefined
      ? 'no memory ceiling is set'
      : `each restarted above its ${mb(memory.perServerCeilingBytes)} per-server ceiling`
  const servers = memory.servers.length === 1 ? '1 running server' : `${memory.servers.length} running servers`
  const list = each
    ? `: ${memory.servers.map((s) => `${s.server} (${s.trust}) ${mb(s.rssBytes)} sampled ${age(s.sampledAt)}`).join(', ')}`
    : ''
  const sampled = each ? '' : `, sampled up to ${age(memory.oldestSampleAt ?? now)}`
  const budget =
    memory.budgetBytes === undefined
      ? 'no budget limits the total'
      : `${Math.round(memory.serversRssBytes / MB)} of ${mb(memory.budgetBytes)} budget (every server of both trust levels: above it, idle ones stop)`
  return `language servers ${mb(memory.serversRssBytes)} resident across ${servers}${list}${sampled}; ${ceiling}; ${budget}; ${own}`
}
