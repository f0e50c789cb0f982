import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createInterface } from 'node:readline'

import { afterEach, expect, test } from 'vitest'

import { isAlive, supportScriptArgs } from './helpers.js'

// The watchdog's list of process groups, driven through the real guardProcessGroup / releaseProcessGroup in
// a separate host process (test/support/watchdog-guard-host.ts) that the test SIGKILLs. The groups are
// stubborn processes this test starts (so it gets their exit events), each with a grandchild in its group.

const started: ChildProcess[] = []

afterEach(() => {
  for (const child of started.splice(0)) if (child.pid !== undefined) killGroup(child.pid)
})

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // gone
  }
}

/** Rejects after `ms` unless `promise` settles first (a bounded wait on an event, not a sleep). */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Polls `condition` every 20 ms until it holds, for at most `ms` (for what has no event, like a pid gone). */
async function until(ms: number, what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

interface Group {
  readonly pid: number
  readonly grandchild: number
  /** Resolves once the process and its grandchild are both gone (they share its stdout pipe). */
  readonly gone: Promise<void>
}

const stubborn = `
const { spawn } = require('node:child_process');
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => {});
const grandchild = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1 << 30)"], {
  stdio: ['ignore', 'inherit', 'ignore'],
});
process.stdout.write(grandchild.pid + '\\n');
setInterval(() => {}, 1 << 30);
`

/** A process in its own process group (like a server), with a grandchild, that only SIGKILL ends. */
async function startGroup(): Promise<Group> {
  const child = spawn(process.execPath, ['-e', stubborn], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] })
  started.push(child)
  const stdout = child.stdout
  if (child.pid === undefined || stdout === null) throw new Error('the group did not start')
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const closed = new Promise<void>((resolve) => stdout.once('end', () => resolve()))
  const lines = createInterface({ input: stdout })
  const [first] = await within(
    30_000,
    'a group to start',
    lines[Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value]),
  )
  return { pid: child.pid, grandchild: Number(first), gone: Promise.all([exited, closed]).then(() => undefined) }
}

interface Host {
  readonly child: ChildProcess
  /** Sends command lines in one write; resolves with the answer to the last: the watchdog's pid and program. */
  send(lines: string[]): Promise<{ watchdog: number; program: string }>
  kill(): Promise<void>
}

async function startHost(program: 'sh' | 'node'): Promise<Host> {
  const child = spawn(process.execPath, supportScriptArgs('watchdog-guard-host.ts', ...(program === 'node' ? ['node'] : [])), {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const answers = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  return {
    child,
    async send(lines) {
      child.stdin!.write(lines.map((line) => `${line}\n`).join(''))
      let last = ''
      for (let i = 0; i < lines.length; i++) last = (await within(60_000, 'the host to answer', answers.next())).value
      const [, watchdog, name] = /^ok (\d+) (\S+)$/.exec(last) ?? []
      return { watchdog: Number(watchdog), program: name ?? '' }
    },
    async kill() {
      child.kill('SIGKILL')
      await within(30_000, 'the host to exit', exited)
    },
  }
}

const processState = async (pid: number) => /^State:\s+(\S)/m.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''))?.[1]

for (const program of ['sh', 'node'] as const) {
  test(`${program} watchdog: groups added and released, then the host SIGKILLed — only the listed groups die`, async () => {
    const groups = await Promise.all(Array.from({ length: 10 }, () => startGroup()))
    const host = await startHost(program)
    // All added in one chunk, then some released (first, middle, last) and one released and added again.
    const added = await host.send(groups.map((g) => `+${g.pid}`))
    expect(added.program).toBe(program)
    const released = [groups[0], groups[4], groups[9]].map((g) => g!)
    const readded = groups[6]!
    await host.send([...released.map((g) => `-${g.pid}`), `-${readded.pid}`, `+${readded.pid}`])
    const listed = groups.filter((g) => !released.includes(g))
    for (const g of groups) expect(await isAlive(g.grandchild)).toBe(true)

    await host.kill()
    await within(30_000, 'the listed groups to die', Promise.all(listed.map((g) => g.gone)))
    // The watchdog exits once it has killed the list: after that, nothing more can be killed.
    await until(30_000, 'the watchdog to exit', async () => !['S', 'R', 'D'].includes((await processState(added.watchdog)) ?? 'gone'))
    // Its pipe closes as a process exits, a moment before /proc shows it gone.
    for (const g of listed) await until(30_000, 'a listed grandchild to be gone', async () => !(await isAlive(g.grandchild)))
    for (const g of released) {
      expect(await isAlive(g.pid)).toBe(true)
      expect(await isAlive(g.grandchild)).toBe(true)
    }
  })
}

test('a killed watchdog is replaced by a new one that takes over the listed groups', async () => {
  const groups = await Promise.all([startGroup(), startGroup()])
  const host = await startHost('sh')
  const first = await host.send(groups.map((g) => `+${g.pid}`))
  process.kill(first.watchdog, 'SIGKILL')
  let next = first
  await until(30_000, 'a new watchdog', async () => {
    next = await host.send(['?'])
    return next.watchdog !== first.watchdog && next.watchdog !== 0
  })
  expect(next.program).toBe('sh')
  for (const g of groups) expect(await isAlive(g.pid)).toBe(true)

  await host.kill()
  await within(30_000, 'the groups to die with the host', Promise.all(groups.map((g) => g.gone)))
})

test('the watchdog ignores SIGTERM, SIGINT and SIGHUP: only the host going ends it', async () => {
  const group = await startGroup()
  const host = await startHost('sh')
  const { watchdog } = await host.send([`+${group.pid}`])
  // SigIgn is the mask of ignored signals: bits 1 (HUP), 2 (INT), 15 (TERM), counted from 1. The shell sets
  // it with its first line, a moment after it starts: wait for that (no event tells), then signal it.
  const ignoresAll = async () => {
    const status = await readFile(`/proc/${watchdog}/status`, 'utf8').catch(() => '')
    const ignored = BigInt(`0x${/^SigIgn:\s+([0-9a-f]+)/m.exec(status)?.[1] ?? '0'}`)
    return [1, 2, 15].every((signal) => ((ignored >> BigInt(signal - 1)) & 1n) === 1n)
  }
  await until(30_000, 'the watchdog to ignore SIGHUP, SIGINT and SIGTERM', ignoresAll)

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.kill(watchdog, signal)
  // A round trip through the host after the signals: the same watchdog still guards the group.
  const after = await host.send(['?'])
  expect(after.watchdog).toBe(watchdog)
  expect(await isAlive(watchdog)).toBe(true)

  await host.kill()
  await within(30_000, 'the group to die with the host', group.gone)
})
