import { spawn, type ChildProcessByStdio } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'

import { LspError } from '@codeseam/lsp'
import { afterEach, describe, expect, test, vi } from 'vitest'

import { defaultResourceLimits, resolveResourceLimits, withHeapCap } from '../src/policy/limits.js'
import { MemoryWatcher, type MemoryBreach } from '../src/pool/memory.js'
import { chooseBudgetReclaim, chooseReclaim } from '../src/pool/reclaim.js'
import { readTreeMemory } from '../src/server/process-tree.js'

const MiB = 1024 ** 2
const GiB = 1024 ** 3

describe('defaults and config', () => {
  test('a 2-core, 24 GB machine: 4 servers, 4 GiB per tree, 12 GiB for all, 3 GiB heap, 200 documents', () => {
    expect(defaultResourceLimits({ cpus: 2, totalMemoryBytes: 24 * GiB })).toEqual({
      maxServers: 4,
      maxServerMemoryBytes: 4 * GiB,
      memoryBudgetBytes: 12 * GiB,
      nodeHeapMb: 3072,
      maxOpenDocuments: 200,
      memoryCheckIntervalMs: 5_000,
      memoryBreachSamples: 2,
      maxFileBytes: 4 * 1024 * 1024,
      maxLineLength: 10_000,
    })
  })

  test('a small machine gets smaller ceilings but still two servers', () => {
    const small = defaultResourceLimits({ cpus: 1, totalMemoryBytes: 2 * GiB })
    expect(small.maxServerMemoryBytes).toBe(512 * MiB)
    expect(small.maxServers).toBe(2)
    expect(small.nodeHeapMb).toBe(384)
    expect(small.memoryBudgetBytes).toBe(GiB) // half of RAM, but at least 1 GiB
  })

  test('the budget caps the per-server ceiling and the heap cap (three quarters of it); 0 disables it', () => {
    const machine = { cpus: 2, totalMemoryBytes: 24 * GiB }
    const tight = resolveResourceLimits({ memoryBudgetBytes: 1024 * MiB }, machine)
    expect(tight.maxServerMemoryBytes).toBe(1024 * MiB)
    expect(tight.nodeHeapMb).toBe(768)
    // A smaller ceiling and heap cap are kept, and so is "none".
    expect(resolveResourceLimits({ memoryBudgetBytes: GiB, maxServerMemoryBytes: 512 * MiB, nodeHeapMb: 256 }, machine)).toMatchObject({
      maxServerMemoryBytes: 512 * MiB,
      nodeHeapMb: 256,
    })
    expect(resolveResourceLimits({ memoryBudgetBytes: GiB, maxServerMemoryBytes: 0, nodeHeapMb: 0 }, machine)).toMatchObject({
      maxServerMemoryBytes: 0,
      nodeHeapMb: 0,
    })
    // No budget: the defaults as they were.
    expect(resolveResourceLimits({ memoryBudgetBytes: 0 }, machine)).toMatchObject({
      memoryBudgetBytes: 0,
      maxServerMemoryBytes: 4 * GiB,
      nodeHeapMb: 3072,
    })
    expect(() => resolveResourceLimits({ memoryBudgetBytes: 10 * MiB }, machine)).toThrow(/memoryBudgetBytes .* 16 MiB/)
  })

  test('user values override the defaults; 0 disables the memory ceiling and the heap cap', () => {
    const limits = resolveResourceLimits({ maxServers: 9, maxServerMemoryBytes: 0, nodeHeapMb: 0 }, { cpus: 2, totalMemoryBytes: 24 * GiB })
    expect(limits.maxServers).toBe(9)
    expect(limits.maxServerMemoryBytes).toBe(0)
    expect(limits.nodeHeapMb).toBe(0)
    expect(limits.maxOpenDocuments).toBe(200)
  })

  test.each([
    [{ maxServers: 0 }, /maxServers must be an integer ≥ 1/],
    [{ maxServers: 1.5 }, /maxServers/],
    [{ nodeHeapMb: -1 }, /nodeHeapMb/],
    [{ maxServerMemoryBytes: 1024 }, /no language server starts in under 64 MiB/],
  ])('rejects %o with INVALID_ARGUMENT', (config, message) => {
    const error = (() => {
      try {
        resolveResourceLimits(config)
      } catch (caught) {
        return caught
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(LspError)
    expect((error as LspError).code).toBe('INVALID_ARGUMENT')
    expect((error as LspError).message).toMatch(message)
  })
})

describe('which idle server to reclaim', () => {
  const servers = [
    { key: 'a', busy: false, lastUsed: 30 },
    { key: 'b', busy: true, lastUsed: 10 },
    { key: 'c', busy: false, lastUsed: 20 },
    { key: 'd', busy: false, lastUsed: 40 },
  ]

  test('nothing while under the cap', () => {
    expect(chooseReclaim(servers, 5)).toEqual({ stop: [], short: 0 })
  })

  test('least recently used idle ones first; busy ones never', () => {
    expect(chooseReclaim(servers, 4)).toEqual({ stop: ['c'], short: 0 })
    expect(chooseReclaim(servers, 3)).toEqual({ stop: ['c', 'a'], short: 0 })
  })

  test('reports the shortfall when every idle server is not enough', () => {
    expect(chooseReclaim(servers, 1)).toEqual({ stop: ['c', 'a', 'd'], short: 1 })
  })
})

describe('which servers the memory budget stops', () => {
  const servers = [
    { key: 'a', busy: false, lastUsed: 30, rssBytes: 100 },
    { key: 'b', busy: true, lastUsed: 10, rssBytes: 300 },
    { key: 'c', busy: false, lastUsed: 20, rssBytes: 50 },
    { key: 'd', busy: false, lastUsed: 40, rssBytes: 200 },
  ]

  test('nothing while the total fits, or without a budget', () => {
    expect(chooseBudgetReclaim(servers, 650)).toEqual({ stop: [] })
    expect(chooseBudgetReclaim(servers, 0)).toEqual({ stop: [] })
  })

  test('idle ones least recently used first, until the rest fit; busy ones never', () => {
    expect(chooseBudgetReclaim(servers, 620)).toEqual({ stop: ['c'] })
    expect(chooseBudgetReclaim(servers, 550)).toEqual({ stop: ['c', 'a'] })
    expect(chooseBudgetReclaim(servers, 300)).toEqual({ stop: ['c', 'a', 'd'] })
  })

  test('when the busy ones alone are over it, the largest restarts once its queries finish', () => {
    expect(chooseBudgetReclaim(servers, 200)).toEqual({ stop: ['c', 'a', 'd'], restartWhenIdle: 'b' })
  })
})

describe('heap caps', () => {
  const node = process.execPath

  test('a Node server gets --max-old-space-size before its script', () => {
    const capped = withHeapCap(
      { id: 'pyright', command: node, args: ['/x/langserver.index.js', '--stdio'] },
      { command: node, args: ['/x/langserver.index.js', '--stdio'], env: {} },
      3072,
    )
    expect(capped.args).toEqual(['--max-old-space-size=3072', '/x/langserver.index.js', '--stdio'])
  })

  test('a cap the profile already sets is kept', () => {
    const args = ['--max-old-space-size=512', '/x/server.js']
    expect(withHeapCap({ id: 'custom', command: 'node', args }, { command: 'node', args, env: {} }, 3072).args).toEqual(args)
  })

  test('typescript-language-server also caps the tsserver it forks', () => {
    const capped = withHeapCap(
      { id: 'typescript-language-server', command: node, args: ['/x/typescript-language-server/lib/cli.mjs', '--stdio'] },
      {
        command: node,
        args: ['/x/typescript-language-server/lib/cli.mjs', '--stdio'],
        env: {},
        initializationOptions: { tsserver: { path: '/x/tsserver.js' } },
      },
      2048,
    )
    expect(capped.initializationOptions).toEqual({ tsserver: { path: '/x/tsserver.js' }, maxTsServerMemory: 2048 })
  })

  test('the Go native TypeScript server gets GOMEMLIMIT; other native servers are left alone; 0 caps nothing', () => {
    const native = withHeapCap(
      { id: 'typescript', command: '/x/tsc', args: ['--lsp', '--stdio'] },
      { command: '/x/tsc', args: ['--lsp', '--stdio'], env: { PATH: '/bin' } },
      3072,
    )
    expect(native).toEqual({ args: ['--lsp', '--stdio'], env: { PATH: '/bin', GOMEMLIMIT: '3072MiB' }, initializationOptions: undefined })
    const clangd = { command: '/usr/bin/clangd', args: ['--log=error'], env: {} }
    expect(withHeapCap({ id: 'clangd', ...clangd }, clangd, 3072)).toEqual({
      args: clangd.args,
      env: clangd.env,
      initializationOptions: undefined,
    })
    expect(withHeapCap({ id: 'pyright', command: node, args: ['a.js'] }, { command: node, args: ['a.js'], env: {} }, 0).args).toEqual([
      'a.js',
    ])
  })
})

/**
 * A real process that allocates memory on command. It answers every stdin line with one JSON line:
 * `grow N` touches N more MiB; `child N` starts a grandchild that touches N MiB and reports its pid.
 */
const growerSource = `
const { spawn } = require('node:child_process');
const keep = [];
const readline = require('node:readline').createInterface({ input: process.stdin });
const say = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
readline.on('line', (line) => {
  const [verb, n] = line.split(' ');
  if (verb === 'grow') { keep.push(Buffer.alloc(Number(n) * 1024 * 1024, 1)); say({ grown: Number(n), pid: process.pid }); }
  if (verb === 'child') {
    const child = spawn(process.execPath, ['-e', "const b = Buffer.alloc(" + Number(n) + " * 1024 * 1024, 1); process.stdout.write('ready\\\\n'); setInterval(() => b[0]++, 1 << 30)"], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', () => say({ child: child.pid }));
  }
});
say({ started: process.pid });
`

class Grower {
  readonly process: ChildProcessByStdio<Writable, Readable, null>
  private readonly replies: Array<(reply: Record<string, number>) => void> = []
  private readonly early: Array<Record<string, number>> = []

  constructor() {
    this.process = spawn(process.execPath, ['-e', growerSource], { stdio: ['pipe', 'pipe', 'inherit'] })
    createInterface({ input: this.process.stdout }).on('line', (line) => {
      const reply = JSON.parse(line) as Record<string, number>
      const waiter = this.replies.shift()
      if (waiter === undefined) this.early.push(reply)
      else waiter(reply)
    })
  }

  /** The next reply (each command gets exactly one). */
  next(): Promise<Record<string, number>> {
    const ready = this.early.shift()
    if (ready !== undefined) return Promise.resolve(ready)
    return new Promise((resolve) => this.replies.push(resolve))
  }

  async send(command: string): Promise<Record<string, number>> {
    const reply = this.next()
    this.process.stdin.write(`${command}\n`)
    return reply
  }

  get pid(): number {
    const pid = this.process.pid
    if (pid === undefined) throw new Error('the grower did not start')
    return pid
  }

  async kill(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return
    const exited = new Promise((resolve) => this.process.once('exit', resolve))
    // The grower's own group is not separate; kill its children through the tree we can read.
    const tree = await readTreeMemory(this.pid)
    for (const pid of [...(tree?.pids ?? [])].reverse()) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    await exited
  }
}

describe('process-tree memory (real processes, /proc)', () => {
  const growers: Grower[] = []
  const grower = async () => {
    const g = new Grower()
    growers.push(g)
    await g.next() // started
    return g
  }
  afterEach(async () => {
    await Promise.all(growers.splice(0).map((g) => g.kill()))
  })

  test('sees a process grow by what it allocated', { timeout: 60_000 }, async () => {
    const g = await grower()
    const before = await readTreeMemory(g.pid)
    expect(before?.pids).toEqual([g.pid])
    await g.send('grow 200')
    const after = await readTreeMemory(g.pid)
    expect((after?.rssBytes ?? 0) - (before?.rssBytes ?? 0)).toBeGreaterThan(150 * MiB)
  })

  test("counts descendants: a grandchild's memory is in the tree", { timeout: 60_000 }, async () => {
    const g = await grower()
    const alone = await readTreeMemory(g.pid)
    const { child } = await g.send('child 150')
    const tree = await readTreeMemory(g.pid)
    expect(tree?.pids).toContain(child)
    expect((tree?.rssBytes ?? 0) - (alone?.rssBytes ?? 0)).toBeGreaterThan(120 * MiB)
  })

  test('a process that is gone has no tree', { timeout: 60_000 }, async () => {
    const g = await grower()
    const pid = g.pid
    await g.kill()
    expect(await readTreeMemory(pid)).toBeUndefined()
  })

  test('the watcher reports a tree over its ceiling once, after the configured samples, not before', { timeout: 60_000 }, async () => {
    const g = await grower()
    const baseline = (await readTreeMemory(g.pid))?.rssBytes ?? 0
    const breaches: MemoryBreach[] = []
    const watcher = new MemoryWatcher((breach) => breaches.push(breach), { intervalMs: 60_000, breachSamples: 2 })
    watcher.watch('root\0pyright', g.pid, baseline + 100 * MiB)
    expect(await watcher.check()).toEqual([])
    await g.send('grow 200')
    expect(await watcher.check()).toEqual([]) // one sample over: forgiven
    const [breach] = await watcher.check()
    expect(breach?.key).toBe('root\0pyright')
    expect(breach?.rssBytes).toBeGreaterThan(baseline + 100 * MiB)
    expect(breach?.reason).toMatch(/over the \d+ MiB ceiling \(maxServerMemoryBytes\)/)
    expect(breaches).toHaveLength(1)
    expect(await watcher.check()).toEqual([]) // reported once; the host watches the restarted process anew
    expect(watcher.size).toBe(0)
    watcher.stop()
  })

  test(
    'a watch without a ceiling samples for status only: no figure before the first sample, never a breach',
    { timeout: 60_000 },
    async () => {
      const g = await grower()
      const breaches: MemoryBreach[] = []
      const watcher = new MemoryWatcher((breach) => breaches.push(breach), { intervalMs: 60_000, breachSamples: 1 })
      watcher.watch('k', g.pid, 0)
      expect(watcher.lastSample('k')).toBeUndefined() // not read yet: nothing, not 0
      // The first sample is taken at once, without waiting for the interval.
      const first = await vi.waitFor(() => watcher.lastSample('k') ?? Promise.reject(new Error('not sampled yet')), { timeout: 10_000 })
      expect(first).toMatchObject({ pid: g.pid })
      expect(first.rssBytes).toBeGreaterThan(MiB)
      await g.send('grow 200')
      expect(await watcher.check()).toEqual([])
      expect(watcher.lastSample('k')?.rssBytes).toBeGreaterThan(first.rssBytes + 150 * MiB)
      expect(watcher.lastSample('k')?.sampledAt).toBeGreaterThanOrEqual(first.sampledAt)
      expect(breaches).toEqual([])
      watcher.stop()
    },
  )

  test('the watcher forgets a process that exited (the crash path reports it)', { timeout: 60_000 }, async () => {
    const g = await grower()
    const watcher = new MemoryWatcher(() => {}, { intervalMs: 60_000, breachSamples: 1 })
    watcher.watch('k', g.pid, 64 * MiB)
    await g.kill()
    expect(await watcher.check()).toEqual([])
    expect(watcher.size).toBe(0)
  })
})
