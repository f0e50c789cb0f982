import { createRequire, syncBuiltinESMExports } from 'node:module'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { readCacheLimits } from '../../../lsp-local/src/workspace/read-cache.js'
import { codeHover } from '../../src/hover.js'
import { codeNavigate } from '../../src/navigation.js'
import { typeScriptProject, type Project } from '../support/projects.js'
import { startRealHost, structured, type RealHost } from '../support/real-host.js'

/** The CommonJS `fs` object (the ESM namespace is frozen): its methods are what ESM named imports are synced from. */
const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs')

/**
 * Issue 14: one `code_navigate` call resolves its target path once and reads the target file once, across
 * every package in this process (the seam, lsp-local, tool-lsp). The language server's own reads happen in
 * its process and are not seen here; the other files the references land in are not the target. Issue 15: a
 * file read before and unchanged since is not read again: one stat shows it unchanged.
 */

/** File-system calls of this process whose path argument is `watched`, by method name. */
class FsSpy {
  readonly calls: string[] = []
  private readonly restore: Array<() => void> = []

  constructor(private readonly watched: string) {}

  /** Wraps every function of `fs` and `fs.promises`; `syncBuiltinESMExports` makes ESM named imports see them. */
  install(): void {
    this.wrapAll(fs as unknown as Record<string, unknown>, '')
    this.wrapAll(fs.promises as unknown as Record<string, unknown>, 'promises.')
    syncBuiltinESMExports()
  }

  uninstall(): void {
    for (const undo of this.restore.splice(0).reverse()) undo()
    syncBuiltinESMExports()
  }

  count(...names: ReadonlyArray<string>): number {
    return this.calls.filter((call) => names.includes(call)).length
  }

  private wrapAll(target: Record<string, unknown>, prefix: string): void {
    for (const name of Object.keys(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, name)
      const original = descriptor?.value
      if (typeof original !== 'function' || descriptor?.writable !== true || /^[A-Z]/.test(name)) continue
      const note = (argument: unknown) => {
        if (this.isWatched(argument)) this.calls.push(`${prefix}${name}`)
      }
      const wrapped = function (this: unknown, ...args: unknown[]) {
        note(args[0])
        return (original as (...a: unknown[]) => unknown).apply(this, args)
      }
      // realpathSync.native and friends stay reachable through the wrapper.
      Object.assign(wrapped, original)
      target[name] = wrapped
      this.restore.push(() => {
        target[name] = original
      })
    }
  }

  private isWatched(argument: unknown): boolean {
    let path: string | undefined
    if (typeof argument === 'string') path = argument.startsWith('file:') ? fileURLToPath(argument) : argument
    else if (argument instanceof URL && argument.protocol === 'file:') path = fileURLToPath(argument)
    else if (Buffer.isBuffer(argument)) path = argument.toString('utf8')
    return path !== undefined && nodePath.resolve(path) === this.watched
  }
}

const reads = ['readFile', 'readFileSync', 'promises.readFile', 'open', 'openSync', 'promises.open', 'createReadStream']
const resolutions = ['realpath', 'realpathSync', 'promises.realpath']
const stats = ['stat', 'statSync', 'promises.stat', 'lstat', 'lstatSync', 'promises.lstat', 'access', 'accessSync', 'promises.access']

describe('code_navigate resolves and reads its target once', { timeout: 120_000 }, () => {
  let project: Project
  let real: RealHost

  const racyChangeMs = readCacheLimits.racyChangeMs

  beforeAll(async () => {
    // The fixture was written moments ago: files changed this recently are never kept, so the host would
    // read them at every call (see racyChangeMs); here they count as settled.
    readCacheLimits.racyChangeMs = 0
    project = await typeScriptProject(4)
    real = await startRealHost(project.root)
    // Warm-up on another file: starts the server and loads the project, so the measured calls see only
    // what one call costs, not what starting a server costs.
    structured(await real.call(codeNavigate, { target: { path: 'src/telemetry.ts', symbol: 'track' }, kind: 'references' }))
  }, 120_000)

  afterAll(async () => {
    readCacheLimits.racyChangeMs = racyChangeMs
    await real?.dispose()
    await project?.remove()
  })

  /** The file-system calls on `path` during `call`, and how many queries asked a server about it. */
  const measure = async (path: string, call: () => Promise<void>): Promise<{ spy: FsSpy; queries: number }> => {
    const target = nodePath.join(project.root, path)
    const spy = new FsSpy(target)
    const query = real.lsp.query
    let queries = 0
    real.lsp.query = ((request: { path?: string }, signal?: AbortSignal) => {
      if (request.path !== undefined && nodePath.resolve(project.root, request.path) === target) queries++
      return query.call(real.lsp, request as never, signal)
    }) as typeof query
    spy.install()
    try {
      await call()
    } finally {
      spy.uninstall()
      real.lsp.query = query
    }
    return { spy, queries }
  }

  /** One references call on src/shapes.ts. */
  const references = () =>
    measure('src/shapes.ts', async () => {
      const result = structured(
        await real.call(codeNavigate, { target: { path: 'src/shapes.ts', symbol: 'describe' }, kind: 'references' }),
      )
      // main.ts imports and calls it; with the declaration, three references.
      expect(result.totalFound).toBe(3)
    })

  it('the first call on the file (document not yet open in the server), and a second one (already open, file unchanged)', async () => {
    for (const [which, { spy, queries }] of [
      ['first', await references()],
      ['second', await references()],
    ] as const) {
      const seen = `${which} call (${queries} queries on the file): ${spy.calls.join(', ')}`
      // Contained once: one realpath (the seam's containment, symlinks included) for the whole call.
      expect(spy.count(...resolutions), seen).toBe(1)
      // Read once: the seam's read serves target resolution, the server's document sync and the snippets.
      // The second call reads nothing: one stat shows the file unchanged since the first read.
      const kept = which === 'first' ? 0 : 1
      expect(spy.count(...reads), seen).toBe(1 - kept)
      // The honest minimum of stats: one per answer a server gave about the file, taken after the answer to
      // say whether the file changed while the server worked (the answer's `stale` flag, shared with the check
      // that the answer's files still exist); it cannot be folded into the read, which came before. Plus one per
      // question asked while the server holds the document open: before every question each open document is
      // checked by a stat, since a write made just before it may not have reached the file watch yet (RFC 0023).
      // The first call asks for the outline (to find the symbol; the document opens with it) and the
      // references; the second finds the outline cached for the file's content hash and asks only once.
      // Plus one for the workspace's change mark, read before the references query (RFC 0026): it takes the disk
      // in as a question does, the document open by then.
      const askedWhileOpen = which === 'first' ? queries - 1 : queries
      const markRead = 1
      expect(spy.count(...stats), seen).toBe(queries + kept + askedWhileOpen + markRead)
      expect(queries, seen).toBe(which === 'first' ? 2 : 1)
      expect(spy.calls.length, seen).toBe(2 + queries + askedWhileOpen + markRead)
    }
  })

  it('code_hover passes its read along too: one realpath, and no read of a file read before and unchanged', async () => {
    // src/main.ts was read for the warm-up's snippets (it calls track): one stat finds it unchanged.
    const { spy, queries } = await measure('src/main.ts', async () => {
      const result = structured(await real.call(codeHover, { target: { path: 'src/main.ts', symbol: 'report' } }))
      expect(JSON.stringify(result)).toContain('report')
    })
    const seen = `${queries} queries on the file: ${spy.calls.join(', ')}`
    expect(spy.count(...resolutions), seen).toBe(1)
    expect(spy.count(...reads), seen).toBe(0)
    // One stat after each answer, one for the read kept, and one before each question: src/main.ts is open in
    // the server (the warm-up's project load pinned it), and every open document is checked before a question.
    expect(spy.count(...stats), seen).toBe(2 * queries + 1)
  })
})
