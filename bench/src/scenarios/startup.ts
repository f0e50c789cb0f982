// Start-up of codeseam's own processes, paired in the same run (issue 15), and the MCP SDK's own round trip.
// - `node -e 0` vs `node <cli> --help`: spawn → exit, rounds alternating; the added median is of help − node
//   within each round.
// - spawn → MCP `initialize` answered, for `codeseam mcp --root <ws>`, for the no-op SDK server
//   (bench/noop-mcp-server.mjs) and for bare `node -e 0` (spawn → exit, the least any node process costs);
//   the added medians are of each server − node within each round.
// - the no-op SDK server's tools/call round trip, from the same SDK client the MCP layer uses.
import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

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
  // One of each first, untimed: the file cache is warm for every side alike.
  await node()
  await help()
  await mcp()
  await noop()
  const sides = { node: [] as number[], help: [] as number[], mcp: [] as number[], noop: [] as number[] }
  const order = [
    ['node', node],
    ['help', help],
    ['mcp', mcp],
    ['noop', noop],
  ] as const
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < order.length; i++) {
      const [name, run] = order[(round + i) % order.length]!
      sides[name].push(await run())
    }
  }
  const summary = (values: ReadonlyArray<number>) => roundSummary(summarize(values))
  return {
    rounds,
    workspace,
    entry: cli.entry,
    nodeExit: summary(sides.node),
    helpExit: summary(sides.help),
    helpAdded: summary(pairedDifferences(sides.help, sides.node)),
    mcpInitialize: summary(sides.mcp),
    noopInitialize: summary(sides.noop),
    mcpInitializeAdded: summary(pairedDifferences(sides.mcp, sides.node)),
    noopInitializeAdded: summary(pairedDifferences(sides.noop, sides.node)),
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
