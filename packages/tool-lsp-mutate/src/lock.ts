import { createHash, randomUUID } from 'node:crypto'
import { watch, unlinkSync, type FSWatcher } from 'node:fs'
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'

/**
 * The cross-process mutation lock of one workspace root. Two processes (two MCP servers, a CLI and an MCP
 * server) that mutate the same root take turns through a lock file in the OS temp folder, named by a hash of
 * the canonical root, so the workspace itself never sees lock files. The file holds the owner's pid and
 * process start time: a lock whose owner died (or whose pid was reused by a new process) is stale and is
 * broken by the next process that wants it. See rfc/0004-mutation-transactions.md.
 */

/** Who holds a lock. */
export interface LockHolder {
  readonly pid: number
  /** The owner's start time in clock ticks since boot (Linux `/proc/<pid>/stat` field 22), when known. */
  readonly processStart?: string
  readonly hostname: string
  readonly root: string
  readonly acquiredAt: string
  /** Unique per acquisition: tells this lock from a later one at the same path. */
  readonly token: string
}

/** A held lock. */
export interface RootLockHandle {
  readonly path: string
  readonly holder: LockHolder
  /** Releases the lock if this handle still owns it. Idempotent. */
  release(): Promise<void>
}

/** Options for {@link acquireRootLock}. */
export interface RootLockOptions {
  /** Folder of lock files (default `<os tmpdir>/codeseam-locks`). */
  readonly directory?: string
  /** How long to wait for another process to finish (default 60 s); then TIMEOUT naming the holder. */
  readonly timeoutMs?: number
  readonly signal?: AbortSignal
  /** How often to re-check a waiting lock's owner is alive: a crash makes no file event (default 250 ms). */
  readonly livenessCheckMs?: number
}

/** The default folder of lock files. */
export function defaultLockDirectory(): string {
  return nodePath.join(os.tmpdir(), 'codeseam-locks')
}

/** The lock file of a root (canonical absolute path). */
export function rootLockPath(root: string, directory = defaultLockDirectory()): string {
  const key = createHash('sha256').update(nodePath.normalize(root)).digest('hex').slice(0, 32)
  return nodePath.join(directory, `${key}.lock`)
}

/** The start time of a process (Linux), to tell a live owner from a new process that reused its pid. */
export async function processStartTime(pid: number): Promise<string | undefined> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may contain spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[19]
  } catch {
    return undefined
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Reads the holder of a lock file; undefined when there is none (or it is unreadable). */
export async function readLockHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(path, 'utf8')) as Partial<LockHolder>
    if (typeof parsed.pid !== 'number' || typeof parsed.token !== 'string') return undefined
    return parsed as LockHolder
  } catch {
    return undefined
  }
}

/**
 * Whether a holder is gone: same host and its pid is not running, or runs a different process (start time
 * differs). A holder on another host is never considered stale: its liveness cannot be checked from here.
 */
export async function isStaleHolder(holder: LockHolder): Promise<boolean> {
  if (holder.hostname !== os.hostname()) return false
  if (!isAlive(holder.pid)) return true
  if (holder.processStart === undefined) return false
  const start = await processStartTime(holder.pid)
  return start !== undefined && start !== holder.processStart
}

const heldPaths = new Map<string, string>()
let exitHookInstalled = false

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  // A normal exit releases held locks at once; a crash leaves them for stale detection.
  process.once('exit', () => {
    for (const path of heldPaths.keys()) {
      try {
        unlinkSync(path)
      } catch {
        // Already gone.
      }
    }
  })
}

/** Tries once: links a fully written temp file into place, so a lock file is never seen half-written. */
async function tryCreate(path: string, holder: LockHolder): Promise<boolean> {
  const temp = `${path}.${holder.token}.tmp`
  await fs.writeFile(temp, JSON.stringify(holder), { mode: 0o644 })
  try {
    await fs.link(temp, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw new LspError('UNAVAILABLE', `cannot create the mutation lock ${path}: ${(error as Error).message}`, { cause: error })
  } finally {
    await fs.rm(temp, { force: true })
  }
}

/** A breaker's guard older than this was left by a process that died while breaking: it is cleared. */
const breakGuardMaxAgeMs = 10_000

/**
 * Breaks a stale lock, one breaker at a time: under an exclusively created guard file, the lock is removed
 * only if it is still the stale one this breaker read. (Moving it aside and back, as before, left a moment
 * with no lock file: when several sessions found the same stale lock at once — a daemon killed mid-edit —
 * a third could take the lock in that moment, the move back failed, and two held it: two edits of one file
 * interleaved, one lost. Found by `pnpm soak`.) A breaker that finds another at work does nothing; it tries
 * to take the lock again when that one is done.
 */
export async function breakStale(path: string, stale: LockHolder): Promise<void> {
  const guard = `${path}.break`
  try {
    await fs.writeFile(guard, String(process.pid), { flag: 'wx', mode: 0o644 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return
    const since = await fs.stat(guard).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    )
    if (since > breakGuardMaxAgeMs) await fs.rm(guard, { force: true })
    return
  }
  try {
    const current = await readLockHolder(path)
    if (current !== undefined && current.token === stale.token) await fs.rm(path, { force: true })
  } finally {
    await fs.rm(guard, { force: true })
  }
}

/**
 * Takes the mutation lock of `root`, waiting (bounded) while another live process holds it. Waiting is
 * driven by file events on the lock folder, plus a periodic owner liveness check because a crashed owner
 * removes nothing.
 */
export async function acquireRootLock(root: string, options: RootLockOptions = {}): Promise<RootLockHandle> {
  const directory = options.directory ?? defaultLockDirectory()
  const path = rootLockPath(root, directory)
  await fs.mkdir(directory, { recursive: true })
  const start = await processStartTime(process.pid)
  const holder: LockHolder = {
    pid: process.pid,
    ...(start === undefined ? {} : { processStart: start }),
    hostname: os.hostname(),
    root,
    acquiredAt: new Date().toISOString(),
    token: randomUUID(),
  }
  const attempt = async (): Promise<boolean> => {
    if (await tryCreate(path, holder)) return true
    const current = await readLockHolder(path)
    if (current !== undefined && (await isStaleHolder(current))) {
      await breakStale(path, current)
      return tryCreate(path, holder)
    }
    return false
  }

  if (!(await attempt())) await waitForLock(path, root, options, attempt)

  heldPaths.set(path, holder.token)
  installExitHook()
  let released = false
  return {
    path,
    holder,
    async release() {
      if (released) return
      released = true
      heldPaths.delete(path)
      const current = await readLockHolder(path)
      if (current?.token === holder.token) await fs.rm(path, { force: true })
    },
  }
}

async function waitForLock(path: string, root: string, options: RootLockOptions, attempt: () => Promise<boolean>): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000
  const livenessCheckMs = options.livenessCheckMs ?? 250
  let watcher: FSWatcher | undefined
  let timer: NodeJS.Timeout | undefined
  let interval: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  try {
    await new Promise<void>((resolveWait, rejectWait) => {
      let settled = false
      const resolve = () => {
        settled = true
        resolveWait()
      }
      const reject = (error: unknown) => {
        settled = true
        rejectWait(error)
      }
      let busy = false
      let again = false
      const check = () => {
        if (settled) return
        if (busy) {
          again = true
          return
        }
        busy = true
        attempt().then(
          (won) => {
            busy = false
            // Won after giving up (timeout, cancel): hand the lock straight back.
            if (won && settled) void fs.rm(path, { force: true })
            else if (won) resolve()
            else if (again) {
              again = false
              check()
            }
          },
          (error: unknown) => reject(error),
        )
      }
      watcher = watch(nodePath.dirname(path), (_event, name) => {
        if (name === null || name === nodePath.basename(path)) check()
      })
      watcher.on('error', () => undefined)
      interval = setInterval(check, livenessCheckMs)
      timer = setTimeout(() => {
        void readLockHolder(path).then((holder) =>
          reject(
            new LspError(
              'TIMEOUT',
              `another process (pid ${holder?.pid ?? '?'}, since ${holder?.acquiredAt ?? '?'}) has held the mutation lock of ${root} for over ${timeoutMs} ms; retry when it finishes, or remove ${path} if that process is stuck`,
              { data: { lockPath: path, ...(holder === undefined ? {} : { holder }) } },
            ),
          ),
        )
      }, timeoutMs)
      if (options.signal !== undefined) {
        onAbort = () => reject(new LspError('CANCELLED', 'cancelled while waiting for the mutation lock'))
        if (options.signal.aborted) onAbort()
        else options.signal.addEventListener('abort', onAbort, { once: true })
      }
      // The holder may have released between the first attempt and the watcher starting.
      check()
    })
  } finally {
    watcher?.close()
    if (timer !== undefined) clearTimeout(timer)
    if (interval !== undefined) clearInterval(interval)
    if (onAbort !== undefined) options.signal?.removeEventListener('abort', onAbort)
  }
}
