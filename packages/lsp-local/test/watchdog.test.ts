import { execFileSync, spawn } from 'node:child_process'
import { createReadStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { expect, test } from 'vitest'

import { isAlive } from './helpers.js'

const here = nodePath.dirname(fileURLToPath(import.meta.url))

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

// Node has no parent-death signal: the host's servers must still die when the host is SIGKILLed. The
// server here ignores stdin EOF and SIGTERM, so only the watchdog can end it. It holds a FIFO open for
// writing; the FIFO's end event is the proof it died.
test('a SIGKILLed host takes its language servers with it', async () => {
  const dir = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-watchdog-'))
  const fifo = nodePath.join(dir, 'server.fifo')
  execFileSync('mkfifo', [fifo])
  try {
    const reader = createReadStream(fifo, { encoding: 'utf8' })
    const host = spawn(
      process.execPath,
      [
        '--conditions=@codeseam/source',
        '--import',
        nodePath.join(here, 'support', 'register.mjs'),
        nodePath.join(here, 'support', 'watchdog-host.ts'),
        dir,
        fifo,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const started = await within<string>(60_000, 'the server to start', (resolve) => {
      let text = ''
      reader.on('data', (chunk) => {
        text += String(chunk)
        if (text.includes('\n')) resolve(text)
      })
    })
    const serverPid = Number(/started (\d+)/.exec(started)?.[1])
    expect(await isAlive(serverPid)).toBe(true)

    const hostExited = within<void>(30_000, 'the host to exit', (resolve) => host.once('exit', () => resolve()))
    host.kill('SIGKILL')
    await hostExited
    // The server never closes the FIFO itself: its end means the kernel closed it because the process exited.
    await within<void>(30_000, 'the server to die after its host', (resolve) => reader.once('end', () => resolve()))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
