// The wider mix (issue 15) on one real-repository workspace: definition, references, implementation (not on
// pyright), hover, document symbols, call hierarchy (prepare + incoming calls) and one file's diagnostics,
// through the floor, ctx.lsp, the tools and codeseam mcp. The floor answers first until its answer settles;
// that answer, normalised, is what every layer's is compared with. Then every layer warms up (each query until
// it agrees), and the layers take turns query by query, the order rotating, for paired increments.
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { performance } from 'node:perf_hooks'

import type { FloorClient, ServerCommand } from '../floor-client.js'
import { ctxLspLayer, startHostedLsp, type HostedLsp } from '../layers/ctx-lsp-layer.js'
import { startFloorLayer } from '../layers/floor-layer.js'
import { startMcpLayer } from '../layers/mcp-layer.js'
import type { ReadLayer } from '../layers/read-layer.js'
import { toolsLayer } from '../layers/tools-layer.js'
import { withDeadline } from '../measure.js'
import type { ReadQuery } from '../read-mix.js'
import type { IncrementResult } from '../report.js'
import { floorNormal, wideLeftOut, wideMixQueries, type NormalAnswer } from '../wide-mix.js'
import { runReadMix } from './read-mix.js'

/** How the bare server is started for this corpus: the same folders and settings codeseam gives it. */
export interface WideMixServer {
  readonly command: ServerCommand
  readonly folders: ReadonlyArray<string>
  readonly unscoped?: Readonly<Record<string, unknown>>
}

export interface WideMixRun {
  readonly increments: IncrementResult[]
  /** What the run should say about itself (how the floor got diagnostics, layers that did not start). */
  readonly notes: string[]
}

const same = (a: NormalAnswer, b: NormalAnswer) =>
  a.count === b.count && a.keys.length === b.keys.length && a.keys.every((key, index) => key === b.keys[index])

/**
 * The floor's settled answer: asked until two answers in a row agree (and, except for diagnostics, are not
 * empty), bounded. Servers may answer from a partly loaded project at first.
 */
export async function settledFloorAnswer(root: string, floor: ReadLayer, query: ReadQuery, deadlineMs = 120_000): Promise<NormalAnswer> {
  const started = performance.now()
  let previous: NormalAnswer | undefined
  for (;;) {
    // Bounded; the deadline's timer also keeps the event loop alive while only the server's pipes are open.
    const answer = floorNormal(
      root,
      query.operation,
      await withDeadline(floor.run(query), deadlineMs, `the floor to answer "${query.label}"`),
    )
    const usable = query.operation === 'diagnostics' || answer.count > 0
    if (usable && previous !== undefined && same(previous, answer)) return answer
    previous = usable ? answer : undefined
    if (performance.now() - started > deadlineMs)
      throw new Error(
        `the floor gave no settled answer to "${query.label}" within ${deadlineMs} ms (last: ${JSON.stringify(answer).slice(0, 300)})`,
      )
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** One corpus's wider mix; throws when the floor or ctx.lsp cannot answer (the caller lists it as not measured). */
export async function runWideMix(
  corpus: string,
  root: string,
  server: WideMixServer,
  rounds: number,
  log: (message: string) => void,
): Promise<WideMixRun> {
  const notes: string[] = []
  const read = (path: string) => readFileSync(nodePath.join(root, path), 'utf8')
  const floor = await startFloorLayer(server.command, root, {
    folders: server.folders,
    ...(server.unscoped === undefined ? {} : { unscopedSettings: server.unscoped }),
    wide: true,
  })
  let hosted: HostedLsp | undefined
  let toolsHosted: HostedLsp | undefined
  let mcp: ReadLayer | undefined
  try {
    const asked = wideMixQueries(corpus, read)
    const queries: ReadQuery[] = []
    for (const query of asked) queries.push({ ...query, expect: { floor: await settledFloorAnswer(root, floor, query) } })
    const client: FloorClient = floor.client
    notes.push(
      `${corpus} (wide mix): the floor's answers, which every layer's is compared with — ${queries.map((q) => `${q.label}: ${q.expect.floor!.count}`).join('; ')}`,
    )
    notes.push(
      `${corpus}: the floor's diagnostics are ${client.pullsDiagnostics ? 'pulled (textDocument/diagnostic)' : 'the ones the server published after the file was opened'}`,
    )
    hosted = await startHostedLsp(root, { otherPids: () => [...floor.pids(), ...(mcp?.pids() ?? [])] })
    const layers: ReadLayer[] = [floor, ctxLspLayer(hosted)]
    // The tools on a host of their own, as in the read mix (run-workspace.ts): no layer shares a server.
    toolsHosted = await startHostedLsp(root, { otherPids: () => [...floor.pids(), ...(mcp?.pids() ?? [])] })
    const tools = await toolsLayer(toolsHosted)
    if ('missing' in tools) notes.push(`${corpus}: no tools layer in the wide mix: ${tools.missing}`)
    else layers.push(tools.layer)
    const started = await startMcpLayer(root)
    if ('missing' in started) notes.push(`${corpus}: no MCP layer in the wide mix: ${started.missing}`)
    else layers.push((mcp = started.layer))
    log(
      `${corpus}: wide mix (${queries.map((q) => q.operation).join(', ')}) × ${rounds} rounds through ${layers.map((l) => l.layer).join(', ')}`,
    )
    const { increments } = await runReadMix(corpus, layers, queries, rounds, { mix: 'wide mix' })
    const leftOut: IncrementResult[] = (wideLeftOut[corpus] ?? []).map(({ operation, why }) => ({
      workspace: corpus,
      mix: 'wide mix',
      operation,
      turns: 0,
      wrong: {},
      note: why,
    }))
    return { increments: [...increments, ...leftOut], notes }
  } finally {
    await withDeadline(
      (async () => {
        await mcp?.stop()
        await toolsHosted?.dispose()
        await hosted?.dispose()
        await floor.stop()
      })(),
      60_000,
      'the wide mix layers to stop',
    )
  }
}
