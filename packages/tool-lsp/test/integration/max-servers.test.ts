import { readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { createLsp, type LspProviderStatus, type LspService } from '@codeseam/lsp'
import { createLocalHost, type LocalHost } from '@codeseam/lsp-local'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { callTool, toMcpTool, toolContext, type ToolOutcome } from '../../src/index.js'
import { codeSymbols } from '../../src/symbols.js'
import { validateDraft07 } from '../support/schema-rules.js'

/**
 * Issue 13, "Done when": with `limits: { maxServers: 2 }` and three Python roots plus a TypeScript one, a
 * code_symbols search over every root never runs more than 2 language servers (by the host's status events and
 * by the process tree sampled at each of them), restarts none, and its answer names every root it did not
 * search while the roots it searched contribute their symbols — on the first call and when asked again.
 */

const maxServers = 2
const probe = 'codeseam_probe'

interface Root {
  readonly id: string
  readonly root: string
  readonly file: string
  readonly text: string
}

const projects: ReadonlyArray<{ id: string; files: Record<string, string>; file: string }> = [
  ...['py-a', 'py-b', 'py-c'].map((id) => ({
    id,
    file: 'pkg/probe.py',
    files: {
      'pyproject.toml': `[project]\nname = "${id}"\nversion = "0.1.0"\n`,
      'pkg/__init__.py': '',
      'pkg/probe.py': ['"""A probe every root declares."""', '', '', `def ${probe}(value: int) -> int:`, '    return value + 1', ''].join(
        '\n',
      ),
    },
  })),
  {
    id: 'ts-app',
    file: 'src/probe.ts',
    files: {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true },
        include: ['src'],
      }),
      'src/probe.ts': [
        '/** A probe every root declares. */',
        `export function ${probe}(value: number): number {`,
        '  return value + 1',
        '}',
        '',
      ].join('\n'),
    },
  },
]

/** 1-based line and column of the probe's name in its declaration, found by text. */
function declared(text: string): { line: number; column: number } {
  const lines = text.split('\n')
  const index = lines.findIndex((l) => /\b(def|function) codeseam_probe\(/.test(l))
  if (index < 0) throw new Error('no probe declaration')
  return { line: index + 1, column: lines[index]!.indexOf(probe) + 1 }
}

/** Language-server processes among this process's children: spawned with a `--stdio` argument, not zombies. */
function liveServerPids(): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8')
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid || /^State:\s+Z/m.test(status)) continue
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes('--stdio')) pids.push(Number(entry))
    } catch {
      // gone
    }
  }
  return pids
}

/** Watches every status event during a call: servers up at once (by state and by process), starts, restarts. */
class ServerWatch {
  private readonly states = new Map<string, LspProviderStatus['state']>()
  readonly starts = new Map<string, number>()
  maxByStatus = 0
  maxByProcess = 0
  events = 0
  restarts: string[] = []
  private readonly unsubscribe: () => void

  constructor(lsp: LspService) {
    for (const status of lsp.status()) if (status.root !== undefined) this.states.set(this.key(status), status.state)
    this.unsubscribe = lsp.onStatusChange((status) => this.seen(status))
    this.sample()
  }

  /** Language-server processes alive now (sampled at each event, and when the watch starts and stops). */
  private sample(): void {
    this.maxByProcess = Math.max(this.maxByProcess, liveServerPids().length)
  }

  private key(status: LspProviderStatus): string {
    return `${status.providerId} ${status.root ?? ''}`
  }

  private seen(status: LspProviderStatus): void {
    this.events++
    if (status.root === undefined) return
    const key = this.key(status)
    const before = this.states.get(key)
    if (status.state === 'starting' && before !== 'starting') this.starts.set(key, (this.starts.get(key) ?? 0) + 1)
    this.states.set(key, status.state)
    if ((status.restarts ?? 0) > 0) this.restarts.push(`${key}: ${status.restarts}`)
    const up = [...this.states.values()].filter((s) => s === 'starting' || s === 'indexing' || s === 'ready').length
    this.maxByStatus = Math.max(this.maxByStatus, up)
    // Sampled synchronously, at the moment of the event.
    this.sample()
  }

  stop(): void {
    this.sample()
    this.unsubscribe()
  }
}

describe(`code_symbols over four roots with limits.maxServers = ${maxServers}`, { timeout: 240_000 }, () => {
  const roots: Root[] = []
  let host: LocalHost
  let lsp: LspService

  beforeAll(async () => {
    for (const project of projects) {
      const root = await realpath(await mkdtemp(nodePath.join(tmpdir(), `codeseam-max-${project.id}-`)))
      for (const [relative, text] of Object.entries(project.files)) {
        await mkdir(nodePath.dirname(nodePath.join(root, relative)), { recursive: true })
        await writeFile(nodePath.join(root, relative), text)
      }
      roots.push({ id: project.id, root, file: project.file, text: project.files[project.file]! })
    }
    host = await createLocalHost({ limits: { maxServers } })
    lsp = createLsp()
    // Roots of one workspace at the same trust share a server where the language can (RFC 0025): alternating the
    // trust keeps more servers in play (two pyright, one TypeScript) than the limit allows.
    await host.attach(
      lsp,
      roots.map((r, index) => ({ root: r.root, id: r.id, trust: index % 2 === 0 ? ('trusted' as const) : ('untrusted' as const) })),
    )
  }, 120_000)

  afterAll(async () => {
    await lsp?.dispose()
    await host?.dispose()
    for (const root of roots) await rm(root.root, { recursive: true, force: true })
  })

  /** One search over every root, watched; checks (a)–(c) and returns the roots it searched. */
  async function search(): Promise<{ searched: string[]; outcome: ToolOutcome }> {
    const watch = new ServerWatch(lsp)
    let outcome: ToolOutcome
    try {
      outcome = await callTool(codeSymbols, { query: probe }, toolContext(lsp))
    } finally {
      watch.stop()
    }
    if (!outcome.ok) throw new Error(`code_symbols failed: ${outcome.error.code}: ${outcome.error.message}`)
    expect(validateDraft07(toMcpTool(codeSymbols).outputSchema, outcome.structured)).toEqual([])
    const result: Record<string, any> = outcome.structured

    // (a) never more than maxServers language servers at once, by status and by process. (A call whose
    // servers are all running already may produce no event: the samples at its start and end still count.)
    expect(watch.maxByStatus, 'servers starting/indexing/ready at once').toBeLessThanOrEqual(maxServers)
    expect(watch.maxByProcess, 'language-server processes alive at once').toBeLessThanOrEqual(maxServers)
    expect(liveServerPids().length).toBeLessThanOrEqual(maxServers)
    // (b) no server restarted, and none started twice within the call.
    expect(watch.restarts).toEqual([])
    expect(lsp.status().filter((s) => (s.restarts ?? 0) > 0)).toEqual([])
    expect([...watch.starts.entries()].filter(([, n]) => n > 1)).toEqual([])

    // (c) every root either contributes its probe, where the file declares it, or is named as not searched.
    const notice: string = result.notice ?? ''
    const named = (id: string) => new RegExp(`not searched: [^.]*\\b${id.replace('-', '\\-')}\\b`).test(notice)
    const searched: string[] = []
    for (const root of roots) {
      const matches = result.matches.filter((m: any) => m.rootId === root.id)
      if (matches.length > 0) {
        searched.push(root.id)
        expect(matches.map((m: any) => ({ name: m.name, path: m.path, line: m.line, column: m.column }))).toEqual([
          { name: probe, path: root.file, ...declared(root.text) },
        ])
        expect(named(root.id), `${root.id} has symbols but is named as not searched: ${notice}`).toBe(false)
      } else {
        expect(named(root.id), `${root.id} has no symbols and is not named as not searched: ${notice}`).toBe(true)
      }
    }
    expect(searched.length, `no root was searched: ${notice}`).toBeGreaterThan(0)
    expect(result.totalFound).toBe(searched.length)
    if (searched.length < roots.length) {
      expect(notice).toMatch(/every language server busy under limits\.maxServers/)
      expect(outcome.text).toContain(`notice: ${notice}`)
    }
    return { searched, outcome }
  }

  it('the first call runs at most 2 servers, restarts none, and names the roots it did not search', async () => {
    const watch = new ServerWatch(lsp)
    const { searched } = await search()
    watch.stop()
    // The servers of the first call started under the watch: the status events were there to count.
    expect(watch.events).toBeGreaterThan(0)
    expect(watch.starts.size).toBeGreaterThan(0)
    // Four roots started at once under a limit of two: the limit bit, so the naming was exercised.
    expect(searched.length, 'every root was searched, so the limit was never reached').toBeLessThan(roots.length)
  })

  it("asked again: the searched roots' symbols are right and the gaps are named", async () => {
    await search()
  })

  it('each root asked on its own gets its own symbols', async () => {
    for (const root of roots) {
      const watch = new ServerWatch(lsp)
      const outcome = await callTool(codeSymbols, { query: probe, rootId: root.id }, toolContext(lsp))
      watch.stop()
      if (!outcome.ok) throw new Error(`${root.id}: ${outcome.error.code}: ${outcome.error.message}`)
      expect(
        (outcome.structured as Record<string, any>).matches.map((m: any) => ({
          rootId: m.rootId,
          path: m.path,
          line: m.line,
          column: m.column,
        })),
      ).toEqual([{ rootId: root.id, path: root.file, ...declared(root.text) }])
      expect((outcome.structured as Record<string, any>).notice).toBeUndefined()
      expect(watch.maxByProcess).toBeLessThanOrEqual(maxServers)
      expect(watch.restarts).toEqual([])
    }
  })
})
