// "Many agents": 1, 4 and 8 concurrent MCP sessions on the same workspace, three ways —
// - no daemon: N × `codeseam mcp --daemon never` over stdio (N hosts, N language servers);
// - daemon, stdio proxies: N × `codeseam mcp --daemon auto` over stdio, relaying to one daemon they start;
// - daemon, direct HTTP: one `codeseam serve --http 127.0.0.1:0`, N MCP SDK clients over Streamable HTTP —
// each against the bare server answering the same concurrent load (N request streams) in the same rounds.
// Every (mode, N) gets fresh processes (a fresh daemon too), in a private runtime folder
// (CODESEAM_RUNTIME_DIR), so the bench never joins a user's daemon; everything it started is stopped, the
// daemons by their pid, even when a step fails.
import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { get } from 'node:http'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { performance } from 'node:perf_hooks'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

import { startFloorLayer } from '../layers/floor-layer.js'
import { mcpCommand } from '../layers/mcp-layer.js'
import { toolCallFor, verifyToolOutput } from '../layers/tool-calls.js'
import { untilCorrect, withDeadline } from '../measure.js'
import { classifyHostTree, parentOf } from '../own-memory.js'
import { privateOf, processTree, rssOf, treeRss } from '../process-memory.js'
import type { ReadQuery } from '../read-mix.js'
import type { ManyAgentsMode, ManyAgentsResult, MissingMeasurement, RssFigure } from '../report.js'
import { quantile, round, roundSummary, summarize } from '../statistics.js'
import { defaultProfile, serverCommandOf } from '../server-commands.js'

/** The modes, in the order they run (and are reported). */
export const manyAgentsModes: ReadonlyArray<ManyAgentsMode> = ['no daemon', 'daemon, stdio proxies', 'daemon, direct HTTP']
/** Concurrent sessions per series. */
export const manyAgentsSessions: ReadonlyArray<number> = [1, 4, 8]

/** Something that answers the mix's queries: one agent's MCP session, or one stream to the bare server. */
interface Caller {
  run(query: ReadQuery): Promise<unknown>
  verify(query: ReadQuery, answer: unknown): boolean
}

interface CallResult {
  readonly isError?: boolean
  readonly structuredContent?: Record<string, unknown>
  readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string }>
}

/** An MCP client as a caller: the tool call a model would make for each query. */
function mcpCaller(client: Client): Caller {
  return {
    async run(query) {
      const call = toolCallFor(query)
      const result = (await client.callTool({ name: call.name, arguments: call.arguments }, undefined, { timeout: 120_000 })) as CallResult
      if (result.isError === true) throw new Error(`${call.name} failed: ${result.content?.[0]?.text ?? ''}`)
      return result
    },
    verify: (query, answer) => verifyToolOutput(query, (answer as CallResult).structuredContent),
  }
}

/** One round: every caller runs the whole mix, one call after another, all callers at once (each from its own offset). */
async function runRound(
  callers: ReadonlyArray<Caller>,
  queries: ReadonlyArray<ReadQuery>,
  into: { ms: number[]; errors: number; wrong: number },
) {
  await Promise.all(
    callers.map(async (caller, index) => {
      for (let k = 0; k < queries.length; k++) {
        const query = queries[(index + k) % queries.length]!
        const started = performance.now()
        try {
          const answer = await caller.run(query)
          into.ms.push(performance.now() - started)
          if (!caller.verify(query, answer)) into.wrong++
        } catch {
          into.errors++
        }
      }
    }),
  )
}

/** The processes of one (mode, N): who hosts the servers, and the proxies (if any). */
interface Processes {
  readonly proxies: ReadonlyArray<number>
  readonly hosts: ReadonlyArray<number>
}

/** One RSS sample of the processes: proxies, hosts (+ watchdogs), servers' trees, server processes. */
function sampleRss(processes: Processes) {
  const proxyRss = processes.proxies.map(rssOf)
  const proxyPrivate = processes.proxies.map(privateOf)
  let hosts = 0
  let servers = 0
  let serverProcesses = 0
  for (const host of processes.hosts) {
    const tree = classifyHostTree(host)
    hosts += rssOf(host) + tree.watchdogs.reduce((total, pid) => total + rssOf(pid), 0)
    servers += tree.servers.reduce((total, pid) => total + rssOf(pid), 0)
    serverProcesses += tree.servers.filter((pid) => parentOf(pid) === host).length
  }
  const proxies = proxyRss.reduce((a, b) => a + b, 0)
  return {
    proxies,
    largestProxy: Math.max(0, ...proxyRss),
    largestProxyPrivate: Math.max(0, ...proxyPrivate),
    hosts,
    servers,
    serverProcesses,
    total: proxies + hosts + servers,
  }
}

function rssFigure(values: ReadonlyArray<number>): RssFigure {
  const sorted = [...values].sort((a, b) => a - b)
  return { median: Math.round(quantile(sorted, 0.5)), max: sorted[sorted.length - 1] ?? 0 }
}

/** Samples every `everyMs` until stopped. */
function rssSampler(processes: Processes, everyMs = 250) {
  const samples: Array<ReturnType<typeof sampleRss>> = []
  const take = () => samples.push(sampleRss(processes))
  take()
  const timer = setInterval(take, everyMs)
  return {
    stop(): ManyAgentsResult['memory'] {
      clearInterval(timer)
      take()
      const withProxies = processes.proxies.length > 0
      return {
        samples: samples.length,
        total: rssFigure(samples.map((s) => s.total)),
        ...(withProxies
          ? {
              proxies: rssFigure(samples.map((s) => s.proxies)),
              largestProxy: rssFigure(samples.map((s) => s.largestProxy)),
              largestProxyPrivate: rssFigure(samples.map((s) => s.largestProxyPrivate)),
            }
          : {}),
        hosts: rssFigure(samples.map((s) => s.hosts)),
        servers: rssFigure(samples.map((s) => s.servers)),
        serverProcesses: Math.max(...samples.map((s) => s.serverProcesses)),
      }
    },
  }
}

/** Whether a process is alive (a zombie is not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** SIGTERM, up to `graceMs` to go, then SIGKILL for it and every descendant it had. */
async function stopProcess(pid: number, graceMs = 10_000): Promise<void> {
  if (!alive(pid)) return
  const tree = processTree(pid)
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    return
  }
  const deadline = performance.now() + graceMs
  while (alive(pid) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  for (const one of tree) {
    if (!alive(one)) continue
    try {
      process.kill(one, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}

/** The health of the daemon on a socket (its pid), or undefined. */
function daemonHealth(socketPath: string): Promise<{ pid: number } | undefined> {
  return new Promise((resolve) => {
    const req = get({ socketPath, path: '/codeseam/health', timeout: 2_000 }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => {
        try {
          resolve(res.statusCode === 200 ? (JSON.parse(text) as { pid: number }) : undefined)
        } catch {
          resolve(undefined)
        }
      })
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(undefined))
  })
}

/** The pids of the daemons answering on sockets in the runtime folder. */
async function daemonsIn(runtimeDir: string): Promise<number[]> {
  if (!existsSync(runtimeDir)) return []
  const sockets = readdirSync(runtimeDir).filter((name) => name.endsWith('.sock'))
  const pids: number[] = []
  for (const socket of sockets) {
    const found = await daemonHealth(nodePath.join(runtimeDir, socket))
    if (found !== undefined) pids.push(found.pid)
  }
  return pids
}

/** Waits for `codeseam serve`'s "listening … http://…/mcp (bearer token in FILE)" line on stderr. */
function servedUrl(child: ChildProcess, deadlineMs = 60_000): Promise<{ url: string; token: string }> {
  return withDeadline(
    new Promise((resolve, reject) => {
      let text = ''
      child.stderr!.setEncoding('utf8')
      child.stderr!.on('data', (chunk: string) => {
        text += chunk
        const match = /listening.* (http:\/\/\S+\/mcp) \(bearer token in (.+?)\)/.exec(text)
        if (match !== null) resolve({ url: match[1]!, token: readFileSync(match[2]!, 'utf8').trim() })
      })
      child.once('error', reject)
      child.once('exit', (code) => reject(new Error(`codeseam serve exited (${code}) before listening: ${text.slice(-400)}`)))
    }),
    deadlineMs,
    'codeseam serve to listen',
  )
}

export interface ManyAgentsOptions {
  readonly workspace: { readonly name: string; readonly root: string }
  /** The mix every session runs (native operations). */
  readonly queries: ReadonlyArray<ReadQuery>
  readonly rounds: number
  readonly sessions?: ReadonlyArray<number>
  readonly missing: MissingMeasurement[]
  readonly notes: string[]
  readonly log: (message: string) => void
}

/** Runs every mode × session count; stops every process it started, daemons included. */
export async function runManyAgents(options: ManyAgentsOptions): Promise<ManyAgentsResult[]> {
  const { workspace, queries, rounds, log } = options
  const root = workspace.root
  const chosen = mcpCommand()
  if ('missing' in chosen) {
    options.missing.push({ what: 'many agents', why: chosen.missing })
    return []
  }
  const cli = chosen
  if (cli.entry !== 'dist') {
    // `--daemon auto` starts the daemon as `node <its own script> serve`, which from the TypeScript sources
    // would lack the bench's hooks: the scenario needs the built CLI.
    const why = 'needs the built CLI (packages/lsp-mcp/dist/cli.js, at least as new as its sources): run `pnpm bench --build`'
    options.missing.push({ what: 'many agents', why })
    log(`not measured: many agents: ${why}`)
    return []
  }
  const native = await defaultProfile('typescript')
  if (native.unavailable !== undefined) throw new Error(`the native TypeScript server cannot run: ${native.unavailable}`)

  const runtimeDir = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-bench-rt-'))
  chmodSync(runtimeDir, 0o700)
  const env = { ...getDefaultEnvironment(), CODESEAM_RUNTIME_DIR: runtimeDir }
  const sessionQuery = new URLSearchParams({ trust: 'trusted', edits: 'read-only', root })
  const results: ManyAgentsResult[] = []
  // What the current (mode, N) runs, for the cleanup in any case.
  let floor: Awaited<ReturnType<typeof startFloorLayer>> | undefined
  let clients: Client[] = []
  let daemons: number[] = []
  const cleanUp = async () => {
    await floor?.stop()
    floor = undefined
    await Promise.all(clients.map((client) => withDeadline(client.close(), 15_000, 'an MCP client to close').catch(() => undefined)))
    clients = []
    const found = await daemonsIn(runtimeDir)
    await Promise.all([...new Set([...daemons, ...found])].map((pid) => stopProcess(pid)))
    daemons = []
  }
  try {
    for (const sessions of options.sessions ?? manyAgentsSessions) {
      for (const mode of manyAgentsModes) {
        log(`many agents: ${mode}, ${sessions} session${sessions === 1 ? '' : 's'}`)
        try {
          results.push(await runOne(mode, sessions))
        } finally {
          await cleanUp()
        }
      }
    }
  } finally {
    await cleanUp()
    await rm(runtimeDir, { recursive: true, force: true })
  }
  const line =
    'Many agents: every series ran the built CLI with its own private runtime folder (CODESEAM_RUNTIME_DIR), fresh processes, a fresh daemon and a fresh bare server.'
  if (!options.notes.includes(line)) options.notes.push(line)
  return results

  async function connectStdio(args: ReadonlyArray<string>): Promise<{ client: Client; pid: number }> {
    const transport = new StdioClientTransport({ command: cli.command, args: [...cli.args, ...args], cwd: root, env, stderr: 'ignore' })
    const client = new Client({ name: 'codeseam-bench-agent', version: '0.0.0' })
    clients.push(client)
    await withDeadline(client.connect(transport), 60_000, `codeseam ${args.join(' ')} to initialize`)
    if (transport.pid === null) throw new Error('codeseam mcp has no pid')
    return { client, pid: transport.pid }
  }

  async function connectHttp(url: string, token: string): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}?${sessionQuery.toString()}`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    })
    const client = new Client({ name: 'codeseam-bench-agent', version: '0.0.0' })
    clients.push(client)
    await withDeadline(client.connect(transport), 60_000, 'an MCP session over HTTP')
    return client
  }

  async function runOne(mode: ManyAgentsMode, sessions: number): Promise<ManyAgentsResult> {
    // A fresh bare server per series too: its RSS after the rounds is one server's after the same load.
    const bareServer = await startFloorLayer(serverCommandOf(native), root)
    floor = bareServer
    for (const query of queries) await untilCorrect(bareServer, query)
    const mcpArgs = ['mcp', '--root', root, '--trust', 'trusted', '--read-only']
    let callers: Caller[]
    let processes: Processes
    if (mode === 'no daemon') {
      const connected = await Promise.all(Array.from({ length: sessions }, () => connectStdio([...mcpArgs, '--daemon', 'never'])))
      callers = connected.map((c) => mcpCaller(c.client))
      processes = { proxies: [], hosts: connected.map((c) => c.pid) }
    } else if (mode === 'daemon, stdio proxies') {
      const args = [...mcpArgs, '--daemon', 'auto', '--idle-timeout', '120']
      // The first proxy starts the daemon; the others join it. The proxy answers `initialize` and `tools/list` itself and
      // finds or starts the daemon beside them; a tool call waits for the daemon's session (code_status asks no server).
      const first = await connectStdio(args)
      await withDeadline(first.client.callTool({ name: 'code_status', arguments: {} }), 60_000, 'the first proxy to reach its daemon')
      const found = await daemonsIn(runtimeDir)
      daemons.push(...found)
      if (found.length !== 1) throw new Error(`expected one daemon in ${runtimeDir} after the first proxy, found ${found.length}`)
      const others = await Promise.all(Array.from({ length: sessions - 1 }, () => connectStdio(args)))
      const connected = [first, ...others]
      callers = connected.map((c) => mcpCaller(c.client))
      processes = { proxies: connected.map((c) => c.pid), hosts: found }
    } else {
      const child = spawn(
        cli.command,
        [...cli.args, 'serve', '--http', '127.0.0.1:0', '--no-socket', '--trust', 'trusted', '--read-only', '--idle-timeout', '120'],
        { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] },
      )
      if (child.pid !== undefined) daemons.push(child.pid)
      const { url, token } = await servedUrl(child)
      child.stderr!.resume()
      const connected = await Promise.all(Array.from({ length: sessions }, () => connectHttp(url, token)))
      callers = connected.map(mcpCaller)
      processes = { proxies: [], hosts: child.pid === undefined ? [] : [child.pid] }
    }
    // Warm: every session answers every query correctly once (the first starts the server), then one untimed round each.
    await Promise.all(
      callers.map(async (caller) => {
        for (const query of queries)
          await untilCorrect({ layer: 'mcp', run: (q) => caller.run(q), verify: (q, a) => caller.verify(q, a) }, query)
      }),
    )
    const floorCallers: Caller[] = Array.from({ length: sessions }, () => bareServer)
    const scratch = { ms: [] as number[], errors: 0, wrong: 0 }
    await runRound(floorCallers, queries, scratch)
    await runRound(callers, queries, scratch)

    const codeseam = { ms: [] as number[], errors: 0, wrong: 0 }
    const bare = { ms: [] as number[], errors: 0, wrong: 0 }
    const sampler = rssSampler(processes)
    for (let turn = 0; turn < rounds; turn++) {
      // The order alternates, so neither side always runs right after the other.
      if (turn % 2 === 0) {
        await runRound(floorCallers, queries, bare)
        await runRound(callers, queries, codeseam)
      } else {
        await runRound(callers, queries, codeseam)
        await runRound(floorCallers, queries, bare)
      }
    }
    const memory = sampler.stop()
    const latency = roundSummary(summarize(codeseam.ms))
    const bareSummary = roundSummary(summarize(bare.ms))
    return {
      workspace: workspace.name,
      mode,
      sessions,
      rounds,
      latency,
      bare: bareSummary,
      addedP50: round(latency.median - bareSummary.median),
      addedP95: round(latency.p95 - bareSummary.p95),
      errors: codeseam.errors,
      wrong: codeseam.wrong,
      bareWrong: bare.wrong + bare.errors,
      memory,
      bareServerRssBytes: treeRss(bareServer.pids()),
    }
  }
}
