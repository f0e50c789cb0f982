import { execFileSync, spawn } from 'node:child_process'
import { createReadStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { expect, test } from 'vitest'

import { isAlive, supportScriptArgs } from './helpers.js'

/** Resolves with `value` when `event` fires, rejects after `ms` (a bounded wait on an event, not a sleep). */
function within<T>(ms: number, what: string, attach: (resolve: (value: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
    attach((value) => {
      clearTimeout(timer)
      resolve(value)
    })
  })
}

/** Polls /proc every 20 ms until `pid` is gone or a zombie, for at most 30 s (a pid has no exit event here). */
async function gone(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000
  while (await isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still alive after 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

// Node has no parent-death signal: the host's servers must still die when the host is SIGKILLed. The
// server here, and the grandchild it starts in its process group, ignore stdin EOF and SIGTERM, so only the
// watchdog can end them. Both hold a FIFO open for writing; the FIFO's end event is the proof both died.
test('a SIGKILLed host takes its language servers with it, grandchildren included', async () => {
  const dir = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-watchdog-'))
  const fifo = nodePath.join(dir, 'server.fifo')
  execFileSync('mkfifo', [fifo])
  try {
    const reader = createReadStream(fifo, { encoding: 'utf8' })
    const host = spawn(process.execPath, supportScriptArgs('watchdog-host.ts', dir, fifo), { stdio: ['ignore', 'pipe', 'inherit'] })
    const started = await within<string>(60_000, 'the server to start', (resolve) => {
      let text = ''
      reader.on('data', (chunk) => {
        text += String(chunk)
        if (text.includes('\n')) resolve(text)
      })
    })
    const [, server, grandchild] = /started (\d+) (\d+)/.exec(started) ?? []
    const serverPid = Number(server)
    const grandchildPid = Number(grandchild)
    expect(await isAlive(serverPid)).toBe(true)
    expect(await isAlive(grandchildPid)).toBe(true)

    // Listening before the kill: the watchdog may kill them before this process sees the host's exit event.
    let hostKilled = false
    let endedBeforeKill = false
    const ended = within<void>(30_000, 'the server and its grandchild to die after their host', (resolve) =>
      reader.once('end', () => {
        endedBeforeKill = !hostKilled
        resolve()
      }),
    )
    const hostExited = within<void>(30_000, 'the host to exit', (resolve) => host.once('exit', () => resolve()))
    hostKilled = true
    host.kill('SIGKILL')
    await hostExited
    // Neither closes the FIFO itself: its end means the kernel closed it because both processes exited.
    await ended
    expect(endedBeforeKill).toBe(false)
    // A process's files close as it exits, a moment before /proc shows it gone.
    await gone(serverPid)
    await gone(grandchildPid)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
