// Start-up of codeseam's own processes, paired in the same run (issue 15), and the MCP SDK's own round trip.
// - `node -e 0` vs `node <cli> --help`: spawn → exit, rounds alternating; the added median is of help − node
//   within each round.
// - spawn → MCP `initialize` answered, for `codeseam mcp --root <ws>`, for the no-op SDK server
//   (bench/noop-mcp-server.mjs) and for bare `node -e 0` (spawn → exit, the least any node process costs);
//   the added medians are of each server − node within each round.
// - spawn → MCP `initialize` and `tools/list` answered with default flags (the stdio relay, `--daemon auto`): on a
//   machine's first start (a fresh runtime folder each round: no daemon yet) and warm (its daemon already running,
//   started once before the rounds); the added medians are of each − node within each round.
// - the no-op SDK server's tools/call round trip, from the same SDK client the MCP layer uses.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

import { mcpCommand } from '../layers/mcp-layer.js'
import { withDeadline } from '../measure.js'
import type { SdkNoopResult, StartupResult } from '../report.js'
import { pairedDifferences, roundSummary, summarize } from '../statistics.js'

/** The no-op MCP server's command line. */
export const noopServer = { command: process.execPath, args: [fileURLToPath(new URL('../../noop-mcp-server.mjs', import.meta.url))] }

/** Spawn → exit of a command, ms; rejects when it exits with a failure. */
async function timeExit(command: string, args: ReadonlyArray<string>, cwd: string): Promise<number> {
  const started = performance.now()
  const code = await withDeadline(
    new Promise<number | null>((resolve, reject) => {
      const child = spawn(command, [...args], { cwd, stdio: 'ignore' })
      child.once('error', reject)
      child.once('exit', (exitCode) => resolve(exitCode))
    }),
    60_000,
    `${args.join(' ')} to exit`,
  )
  const ms = performance.now() - started
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`)
  return ms
}

/** An SDK client connected over stdio (initialize answered), and the time spawn → connected. */
async function connect(command: string, args: ReadonlyArray<string>, cwd: string): Promise<{ client: Client; ms: number }> {
  const transport = new StdioClientTransport({ command, args: [...args], cwd, stderr: 'ignore' })
  const client = new Client({ name: 'codeseam-bench', version: '0.0.0' })
  const started = performance.now()
  try {
    await withDeadline(client.connect(transport), 60_000, `${args.join(' ')} to answer initialize`)
  } catch (error) {
    await client.close().catch(() => undefined)
    throw error
  }
  return { client, ms: performance.now() - started }
}

/**
 * Spawn → initialize and tools/list answered with default flags in `runtimeDir`, timed at the transport (when
 * the answer arrives, not after the SDK client has compiled the tools' schemas); then closed (and waited for).
 */
async function timeProxyList(command: string, args: ReadonlyArray<string>, cwd: string, runtimeDir: string, call = false): Promise<number> {
  const transport = new StdioClientTransport({
    command,
    args: [...args],
    cwd,
    stderr: 'ignore',
    env: { ...(process.env as Record<string, string>), CODESEAM_RUNTIME_DIR: runtimeDir },
  })
  const waiting = new Map<number, (message: JSONRPCMessage) => void>()
  transport.onmessage = (message) => {
    if ('id' in message && typeof message.id === 'number') waiting.get(message.id)?.(message)
  }
  const ask = (id: number, method: string, params: Record<string, unknown>) =>
    withDeadline(
      new Promise<JSONRPCMessage>((resolve) => {
        waiting.set(id, resolve)
        void transport.send({ jsonrpc: '2.0', id, method, params })
      }),
      call ? 120_000 : 60_000,
      `codeseam mcp (default flags) to answer ${method}`,
    )
  const started = performance.now()
  await transport.start()
  try {
    await ask(1, 'initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'codeseam-bench', version: '0.0.0' },
    })
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    await ask(2, 'tools/list', {})
    const ms = performance.now() - started
    // Warm-up only: a call opens the session, so the daemon is up (and stays) before the rounds.
    if (call) await ask(3, 'tools/call', { name: 'code_status', arguments: {} })
    return ms
  } finally {
    await withDeadline(transport.close(), 30_000, 'codeseam mcp (default flags) to close')
  }
}

/** Spawn → initialize answered, then the server is closed (and waited for) before the next side runs. */
async function timeInitialize(command: string, args: ReadonlyArray<string>, cwd: string): Promise<number> {
  const { client, ms } = await connect(command, args, cwd)
  await withDeadline(client.close(), 30_000, `${args.join(' ')} to close`)
  return ms
}

/** The start-up series on one workspace. `rounds` ≥ 15 per the issue; the order of the sides rotates. */
export async function runStartup(root: string, workspace: string, rounds: number): Promise<StartupResult | { missing: string }> {
  const cli = mcpCommand()
  if ('missing' in cli) return cli
  const node = () => timeExit(process.execPath, ['-e', '0'], root)
  const help = () => timeExit(cli.command, [...cli.args, '--help'], root)
  const mcp = () => timeInitialize(cli.command, [...cli.args, 'mcp', '--daemon', 'never', '--root', root], root)
  const noop = () => timeInitialize(noopServer.command, noopServer.args, root)
  // Default flags (the relay). Its daemons live in folders of this run only, and are stopped at the end.
  const runtimeDirs: string[] = []
  const freshDir = () => {
    const dir = mkdtempSync(nodePath.join(os.tmpdir(), 'codeseam-bench-rt-'))
    runtimeDirs.push(dir)
    return dir
  }
  const proxyArgs = [...cli.args, 'mcp', '--idle-timeout', '20', '--root', root]
  const warmDir = freshDir()
  const proxyFirst = async () => {
    const dir = freshDir()
    const ms = await timeProxyList(cli.command, proxyArgs, root, dir)
    // The daemon the relay may have started: stopped before the next side runs.
    await stopDaemons(cli, root, dir)
    return ms
  }
  const proxyWarm = () => timeProxyList(cli.command, proxyArgs, root, warmDir)
  try {
    // One of each first, untimed: the file cache is warm for every side alike; the warm side's daemon starts.
    await node()
    await help()
    await mcp()
    await noop()
    await proxyFirst()
    await timeProxyList(cli.command, proxyArgs, root, warmDir, true)
    const sides = {
      node: [] as number[],
      help: [] as number[],
      mcp: [] as number[],
      noop: [] as number[],
      first: [] as number[],
      warm: [] as number[],
    }
    const order = [
      ['node', node],
      ['help', help],
      ['mcp', mcp],
      ['noop', noop],
      ['first', proxyFirst],
      ['warm', proxyWarm],
    ] as const
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < order.length; i++) {
        const [name, run] = order[(round + i) % order.length]!
        sides[name].push(await run())
      }
    }
    return summarizeStartup(rounds, workspace, cli.entry, sides)
  } finally {
    for (const dir of runtimeDirs) {
      await stopDaemons(cli, root, dir).catch(() => undefined)
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** `codeseam daemon stop --all` in one runtime folder. */
async function stopDaemons(cli: { command: string; args: ReadonlyArray<string> }, cwd: string, runtimeDir: string): Promise<void> {
  await withDeadline(
    new Promise<void>((resolve, reject) => {
      const child = spawn(cli.command, [...cli.args, 'daemon', 'stop', '--all'], {
        cwd,
        stdio: 'ignore',
        env: { ...process.env, CODESEAM_RUNTIME_DIR: runtimeDir },
      })
      child.once('error', reject)
      child.once('exit', () => resolve())
    }),
    60_000,
    'codeseam daemon stop --all',
  )
}

type StartupSides = Record<'node' | 'help' | 'mcp' | 'noop' | 'first' | 'warm', number[]>

/** The start-up result from each side's samples (paired with node's by round). */
function summarizeStartup(rounds: number, workspace: string, entry: StartupResult['entry'], sides: StartupSides): StartupResult {
  const summary = (values: ReadonlyArray<number>) => roundSummary(summarize(values))
  return {
    rounds,
    workspace,
    entry,
    nodeExit: summary(sides.node),
    helpExit: summary(sides.help),
    helpAdded: summary(pairedDifferences(sides.help, sides.node)),
    mcpInitialize: summary(sides.mcp),
    noopInitialize: summary(sides.noop),
    mcpInitializeAdded: summary(pairedDifferences(sides.mcp, sides.node)),
    noopInitializeAdded: summary(pairedDifferences(sides.noop, sides.node)),
    proxyListFirst: summary(sides.first),
    proxyListFirstAdded: summary(pairedDifferences(sides.first, sides.node)),
    proxyListWarm: summary(sides.warm),
    proxyListWarmAdded: summary(pairedDifferences(sides.warm, sides.node)),
  }
}

/** The no-op SDK server's tools/call round trip: `calls` timed calls after a warm-up. */
export async function runSdkNoop(cwd: string, calls: number): Promise<SdkNoopResult> {
  const { client } = await connect(noopServer.command, noopServer.args, cwd)
  try {
    const call = () => client.callTool({ name: 'noop', arguments: {} })
    for (let i = 0; i < 50; i++) await call()
    const times: number[] = []
    for (let i = 0; i < calls; i++) {
      const started = performance.now()
      await call()
      times.push(performance.now() - started)
    }
    return { calls, roundTrip: roundSummary(summarize(times)) }
  } finally {
    await withDeadline(client.close(), 30_000, 'the no-op MCP server to close')
  }
}
