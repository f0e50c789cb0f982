import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, afterEach, describe, expect, test } from 'vitest'

import { acquireRootLock, breakStale, processStartTime, readLockHolder, rootLockPath } from '../src/lock.js'

/**
 * The cross-process root lock with real processes: a child process holds the lock and then dies without
 * releasing it (SIGKILL), exactly like a crashed MCP server.
 */

const directory = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-lock-test-'))
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
})
afterAll(() => {
  rmSync(directory, { recursive: true, force: true })
})

/** A real process that waits until killed; resolves once it is running. */
async function sleeper(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'process.stdout.write("up\\n"); setInterval(() => {}, 1 << 30)'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve())
    child.once('error', reject)
  })
  return child
}

/** Writes a lock file owned by `pid`, as that process would have. */
async function holdAs(root: string, pid: number, processStart?: string): Promise<void> {
  const start = processStart ?? (await processStartTime(pid))
  const holder = {
    pid,
    ...(start === undefined ? {} : { processStart: start }),
    hostname: hostname(),
    root,
    acquiredAt: new Date().toISOString(),
    token: `held-by-${pid}`,
  }
  writeFileSync(rootLockPath(root, directory), JSON.stringify(holder))
}

describe('root lock', () => {
  test('held while acquired, named by a hash of the root, released on release', async () => {
    const root = '/work/some/root'
    const lock = await acquireRootLock(root, { directory })
    expect(lock.path.startsWith(directory)).toBe(true)
    expect(lock.path).not.toContain('some')
    expect(await readLockHolder(lock.path)).toMatchObject({ pid: process.pid, root })
    await lock.release()
    expect(existsSync(lock.path)).toBe(false)
  })

  test('a second acquirer waits for the release (no polling needed: a file event wakes it)', async () => {
    const root = '/work/queue/root'
    const first = await acquireRootLock(root, { directory })
    let secondHeld = false
    const second = acquireRootLock(root, { directory, livenessCheckMs: 60_000 }).then((lock) => {
      secondHeld = true
      return lock
    })
    // The second acquirer is waiting while the first holds the lock.
    await new Promise<void>((resolve) => setImmediate(resolve))
    expect(secondHeld).toBe(false)
    await first.release()
    const lock = await second
    expect((await readLockHolder(lock.path))?.token).toBe(lock.holder.token)
    await lock.release()
  })

  test('a lock whose owner crashed is detected as stale and taken over', async () => {
    const root = '/work/crash/root'
    const child = await sleeper()
    await holdAs(root, child.pid!)
    let acquired = false
    const waiting = acquireRootLock(root, { directory, timeoutMs: 60_000, livenessCheckMs: 50 }).then((lock) => {
      acquired = true
      return lock
    })
    await new Promise<void>((resolve) => setImmediate(resolve))
    expect(acquired).toBe(false)
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGKILL')
    await exited
    const lock = await waiting
    expect((await readLockHolder(lock.path))?.pid).toBe(process.pid)
    await lock.release()
  })

  test('a reused pid (same pid, other start time) is stale', async () => {
    const root = '/work/reuse/root'
    await holdAs(root, process.pid, '1')
    const lock = await acquireRootLock(root, { directory, timeoutMs: 5_000 })
    expect((await readLockHolder(lock.path))?.token).toBe(lock.holder.token)
    await lock.release()
  })

  test('a live holder makes a bounded wait fail with TIMEOUT naming it', async () => {
    const root = '/work/busy/root'
    const child = await sleeper()
    await holdAs(root, child.pid!)
    await expect(acquireRootLock(root, { directory, timeoutMs: 300, livenessCheckMs: 50 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      data: { holder: { pid: child.pid } },
    })
    expect((await readLockHolder(rootLockPath(root, directory)))?.pid).toBe(child.pid)
  })

  test('two acquirers in one process are served in arrival order', async () => {
    const root = '/work/two/root'
    const first = await acquireRootLock(root, { directory })
    const order: string[] = []
    const second = acquireRootLock(root, { directory }).then(async (lock) => {
      order.push('second')
      await lock.release()
    })
    order.push('first')
    await first.release()
    await second
    expect(order).toEqual(['first', 'second'])
  })

  test('a breaker with an old view of a stale lock leaves the live lock taken since in place', async () => {
    const root = '/work/late-breaker/root'
    await holdAs(root, process.pid, '1')
    const path = rootLockPath(root, directory)
    const stale = (await readLockHolder(path))!
    const live = await acquireRootLock(root, { directory, timeoutMs: 5_000 })
    await breakStale(path, stale)
    expect((await readLockHolder(path))?.token).toBe(live.holder.token)
    await live.release()
  })

  test("a breaker's guard left by a process that died while breaking is cleared, and the stale lock then broken", async () => {
    const root = '/work/dead-breaker/root'
    await holdAs(root, process.pid, '1')
    const guard = `${rootLockPath(root, directory)}.break`
    writeFileSync(guard, '999999')
    const longAgo = new Date(Date.now() - 60_000)
    utimesSync(guard, longAgo, longAgo)
    const lock = await acquireRootLock(root, { directory, timeoutMs: 5_000, livenessCheckMs: 50 })
    expect((await readLockHolder(lock.path))?.token).toBe(lock.holder.token)
    expect(existsSync(guard)).toBe(false)
    await lock.release()
  })

  test('sessions that find one stale lock at once take turns: never two holders', async () => {
    for (let round = 0; round < 20; round++) {
      const root = `/work/stampede/${round}`
      await holdAs(root, process.pid, '1')
      let inside = 0
      let most = 0
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          const lock = await acquireRootLock(root, { directory, timeoutMs: 20_000, livenessCheckMs: 20 })
          inside++
          most = Math.max(most, inside)
          // Hold it across a few turns of the event loop, as an edit does across its awaits.
          for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve))
          inside--
          await lock.release()
        }),
      )
      expect(most, `round ${round}`).toBe(1)
    }
  })
})
