import * as nodePath from 'node:path'

import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, afterEach, beforeAll, expect, it, onTestFailed, vi } from 'vitest'

import { health, type DaemonMemory } from '../src/daemon/daemon-health.js'
import { callTool, privateRuntimeDir, removeDir, socketClient, startServe, textOf, type DaemonProcess } from './support/daemon.js'
import { copyFixture, removeWorkspace } from './support/workspace.js'

// One memory budget for both trust levels' hosts of a daemon (issue 51 item 3, RFC 0033): `codeseam serve` as a real
// child process, a trusted and an untrusted session on one root, each with its own native TypeScript server.

type Json = any

const MiB = 1024 * 1024
let root: string
let runtime: string
const daemons: DaemonProcess[] = []
const clients: Client[] = []

async function serve(args: ReadonlyArray<string>): Promise<DaemonProcess> {
  const daemon = await startServe(['--socket', nodePath.join(runtime, `d${daemons.length}.sock`), '--trust', 'trusted', ...args], runtime)
  daemons.push(daemon)
  onTestFailed(() => console.error(`codeseam serve ${args.join(' ')} stderr:\n${daemon.stderr()}`))
  return daemon
}

async function connect(daemon: DaemonProcess, trust: 'trusted' | 'untrusted'): Promise<Client> {
  if (daemon.socket === undefined) throw new Error('the daemon has no socket')
  const client = await socketClient(daemon.socket, { root, trust })
  clients.push(client)
  return client
}

const references = { target: { path: 'src/shapes.ts', symbol: 'Circle' }, kind: 'references' }

/** The daemon's memory once its servers of these trust levels were sampled after `since`. */
async function sampled(daemon: DaemonProcess, trusts: ReadonlyArray<string>, since: number): Promise<DaemonMemory> {
  return vi.waitFor(
    async () => {
      const memory = (await health(daemon.socket ?? ''))?.memory
      const fresh = memory?.servers.filter((s) => s.sampledAt >= since).map((s) => s.trust)
      expect([...new Set(fresh)].sort()).toEqual([...trusts].sort())
      return memory as DaemonMemory
    },
    { timeout: 30_000, interval: 200 },
  )
}

beforeAll(async () => {
  root = await copyFixture()
  runtime = privateRuntimeDir()
})

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await Promise.all(daemons.splice(0).map((daemon) => daemon.stop()))
})

afterAll(async () => {
  await removeWorkspace(root)
  removeDir(runtime)
})

it('a trusted and an untrusted session count against one budget: health and each code_status show one total of both', async () => {
  const daemon = await serve(['--memory-budget-mb', '4096'])
  const trusted = await connect(daemon, 'trusted')
  const untrusted = await connect(daemon, 'untrusted')
  expect((await callTool(trusted, 'code_navigate', references)).isError).toBe(false)
  expect((await callTool(untrusted, 'code_navigate', references)).isError).toBe(false)
  const memory = await sampled(daemon, ['trusted', 'untrusted'], Date.now())
  expect(memory.budgetBytes).toBe(4096 * MiB)
  expect(memory.servers).toHaveLength(2)
  // Each session's backend is its trust level's host, with one server of its own; the budget counts both hosts'.
  for (const client of [trusted, untrusted]) {
    const status = (await callTool(client, 'code_status', {})).structuredContent as Json
    expect(status.memory.servers).toBe(1)
    expect(status.memory.budget).toMatchObject({ budgetMb: 4096, servers: 2 })
    expect(status.memory.budget.usedMb).toBeGreaterThan(status.memory.residentMb)
    expect(textOf(await callTool(client, 'code_status', {}))).toMatch(/\d+ of 4096 MB budget across 2 servers of every session/)
  }
})

it("over a budget that holds one server, the untrusted session's start stops the idle trusted server; its next answer says so", async () => {
  // One server's memory once it answered, measured in a daemon with no budget.
  const measuring = await serve(['--memory-budget-mb', '0'])
  expect((await callTool(await connect(measuring, 'trusted'), 'code_navigate', references)).isError).toBe(false)
  const one = (await sampled(measuring, ['trusted'], Date.now())).serversRssBytes
  expect(one).toBeGreaterThan(10 * MiB)
  await Promise.all(clients.splice(0).map((client) => client.close()))
  await measuring.stop()

  const budgetMb = Math.ceil((one * 1.5) / MiB) // just above one server, well below two
  const daemon = await serve(['--memory-budget-mb', String(budgetMb), '--server-memory-mb', '0', '--node-heap-mb', '0'])
  const trusted = await connect(daemon, 'trusted')
  const untrusted = await connect(daemon, 'untrusted')
  expect((await callTool(trusted, 'code_navigate', references)).isError).toBe(false)
  expect((await callTool(untrusted, 'code_navigate', references)).isError).toBe(false)
  // The trusted server, idle and least recently used, is stopped for the untrusted one: it says why.
  const status = await vi.waitFor(
    async () => {
      const now = (await callTool(trusted, 'code_status', {})).structuredContent as Json
      const typescript = now.servers.find((s: Json) => s.server === 'typescript')
      expect(typescript.state).toBe('idle')
      expect(typescript.reason).toMatch(new RegExp(`^stopped: the ${budgetMb} MB memory budget was exceeded \\(\\d+ MB across 2 servers`))
      return now
    },
    { timeout: 30_000, interval: 200 },
  )
  expect(status.memory?.budget?.servers ?? 0).toBeLessThanOrEqual(1)
  const memory = (await health(daemon.socket ?? ''))?.memory
  expect(memory?.servers.map((s) => s.trust)).toEqual(['untrusted'])
  // The next answer of the trusted session: its server starts again, answers in full, and says it is degraded.
  const again = await callTool(trusted, 'code_navigate', references)
  expect(again.isError, textOf(again)).toBe(false)
  const structured = again.structuredContent as Json
  expect(structured.totalFound).toBeGreaterThan(2)
  expect(structured.readiness.status).toBe('degraded')
})
