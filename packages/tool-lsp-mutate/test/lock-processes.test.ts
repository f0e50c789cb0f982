import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { afterAll, beforeAll, expect, test } from 'vitest'

import { acquireRootLock, readLockHolder, rootLockPath } from '../src/lock.js'

/**
 * Two real processes running this package's lock code: the child (src/lock.ts bundled with esbuild, the
 * bundler tsup already ships) holds the root lock; this process must wait until the child releases it.
 */

const work = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-lock-processes-'))
const directory = nodePath.join(work, 'locks')
let child: ChildProcess | undefined

beforeAll(async () => {
  const require = createRequire(import.meta.url)
  const esbuild = createRequire(require.resolve('tsup')).resolve('esbuild')
  const { build } = (await import(esbuild)) as { build: (options: Record<string, unknown>) => Promise<unknown> }
  const lockSource = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '../src/lock.ts')
  await build({
    entryPoints: [lockSource],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: nodePath.join(work, 'lock.mjs'),
    conditions: ['@codeseam/source'],
    logLevel: 'silent',
  })
  writeFileSync(
    nodePath.join(work, 'holder.mjs'),
    [
      "import { acquireRootLock } from './lock.mjs'",
      'const [root, directory] = process.argv.slice(2)',
      'const lock = await acquireRootLock(root, { directory })',
      "process.stdout.write('acquired\\n')",
      "process.stdin.once('data', async () => { await lock.release(); process.stdout.write('released\\n'); process.exit(0) })",
    ].join('\n'),
  )
})

afterAll(() => {
  child?.kill('SIGKILL')
  rmSync(work, { recursive: true, force: true })
})

function nextLine(process: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    process.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()))
    process.once('exit', (code) => reject(new Error(`the holder exited (${code})`)))
  })
}

test('a lock held by another process makes this one wait until that process releases it', async () => {
  const root = '/work/shared/root'
  child = spawn(process.execPath, [nodePath.join(work, 'holder.mjs'), root, directory], { stdio: ['pipe', 'pipe', 'inherit'] })
  expect(await nextLine(child)).toBe('acquired')
  expect((await readLockHolder(rootLockPath(root, directory)))?.pid).toBe(child.pid)

  let releaseRequested = false
  let acquiredAfterRelease: boolean | undefined
  const waiting = acquireRootLock(root, { directory, timeoutMs: 60_000 }).then((lock) => {
    acquiredAfterRelease = releaseRequested
    return lock
  })
  await new Promise<void>((resolve) => setImmediate(resolve))
  expect(acquiredAfterRelease).toBeUndefined()
  const released = nextLine(child)
  releaseRequested = true
  child.stdin!.write('release\n')
  const lock = await waiting
  expect(await released).toBe('released')
  expect(acquiredAfterRelease).toBe(true)
  expect((await readLockHolder(lock.path))?.pid).toBe(process.pid)
  await lock.release()
})
