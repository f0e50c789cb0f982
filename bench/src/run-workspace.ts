import { ctxLspLayer, startHostedLsp, type HostedLsp } from './layers/ctx-lsp-layer.js'
import { startFloorLayer } from './layers/floor-layer.js'
import { startMcpLayer } from './layers/mcp-layer.js'
import type { ReadLayer } from './layers/read-layer.js'
import { toolsLayer } from './layers/tools-layer.js'
import { onePerProject } from './one-per-project.js'
import { sampleOwnMemory } from './own-memory.js'
import { rssOf, treeRss } from './process-memory.js'
import { hotReferencesQuery, isDerivedOperation, type ReadQuery } from './read-mix.js'
import type {
  ConcurrencyResult,
  HotReferencesResult,
  IncrementResult,
  MemoryResult,
  OwnMemoryResult,
  MissingMeasurement,
  ReadMixResult,
  TargetResolutionResult,
  WorkspaceInfo,
} from './report.js'
import { runConcurrency } from './scenarios/concurrency.js'
import { runHotReferences } from './scenarios/hot-references.js'
import { afterIdleReclamation, hostMemory } from './scenarios/memory.js'
import { runReadMix } from './scenarios/read-mix.js'
import { runTargetResolution } from './scenarios/target-resolution.js'
import { defaultProfile, serverCommandOf } from './server-commands.js'
import type { GeneratedWorkspace } from './workspace-generator.js'

/** Everything measured on one workspace. */
export interface WorkspaceRun {
  readonly info: WorkspaceInfo
  readonly readMix: ReadMixResult[]
  readonly hotReferences: HotReferencesResult[]
  readonly targetResolution?: TargetResolutionResult
  readonly concurrency: ConcurrencyResult[]
  readonly memory: MemoryResult[]
  readonly increments: IncrementResult[]
  /** The MCP host's own RSS and its servers', sampled while it served the read mix and the concurrent burst. */
  readonly ownMemory: OwnMemoryResult[]
}

export interface WorkspaceRunOptions {
  readonly workspace: GeneratedWorkspace
  readonly queries: ReadonlyArray<ReadQuery>
  readonly rounds: number
  readonly missing: MissingMeasurement[]
  /** Facts about how layers were run (e.g. which MCP entry point), shown with the figures. */
  readonly notes: string[]
  readonly log: (message: string) => void
  /** This repository: no hot symbol, no target-resolution series. */
  readonly repository?: boolean
}

/** Idle TTL of the measured host: short, so reclamation can be observed at the end of each workspace. */
const idleTtlMs = 15_000

/**
 * The bare server primed as codeseam loads for a complete workspace-wide answer: one file of every project opened
 * after its burst, then one query answered (so the opens were processed), its tree's RSS read. The floor busy alone
 * holds only the projects of the read mix's files, which gives incomplete references across projects.
 */
async function primeFloor(
  floor: Awaited<ReturnType<typeof startFloorLayer>>,
  root: string,
  query: ReadQuery | undefined,
): Promise<Omit<MemoryResult, 'workspace'> | undefined> {
  if (query === undefined) return undefined
  for (const file of onePerProject(root)) await floor.client.ensureOpen(file)
  await floor.run(query)
  return { phase: 'floor primed busy', serverRssBytes: treeRss(floor.pids()), servers: floor.pids().length }
}

/** Starts every usable layer on one workspace, runs every scenario, stops everything it started. */
export async function runWorkspace(options: WorkspaceRunOptions): Promise<WorkspaceRun> {
  const { workspace, queries, rounds, missing, notes, log } = options
  const native = await defaultProfile('typescript')
  if (native.unavailable !== undefined) throw new Error(`the native TypeScript server cannot run: ${native.unavailable}`)
  const floor = await startFloorLayer(serverCommandOf(native), workspace.root)
  const layers: ReadLayer[] = [floor]
  let mcp: ReadLayer | undefined
  let hosted: HostedLsp | undefined
  // The tools layer runs on a host of its own, as the MCP layer does: a layer sharing the server the layer
  // before it has just woken would be measured against a warm server while the others wake theirs.
  let toolsHosted: HostedLsp | undefined
  const result: WorkspaceRun = {
    info: {
      name: workspace.name,
      files: options.repository ? 0 : workspace.fileCount + 1,
      ...(options.repository ? {} : { hotReferences: workspace.hotReferenceCount }),
      generated: !options.repository,
    },
    readMix: [],
    hotReferences: [],
    concurrency: [],
    memory: [],
    increments: [],
    ownMemory: [],
  }
  const note = (what: string, why: string) => {
    if (!missing.some((m) => m.what === what)) missing.push({ what, why })
    log(`not measured: ${what}: ${why}`)
  }
  try {
    hosted = await startHostedLsp(workspace.root, {
      idleTtlMs,
      otherPids: () => [...floor.pids(), ...(mcp?.pids() ?? []), ...(toolsHosted?.serverPids() ?? [])],
    })
    const ctxLayer = ctxLspLayer(hosted)
    layers.push(ctxLayer)
    // Both hosts' servers are this process's children: the ctx.lsp host's are known once its server runs, and
    // the tools host's are the children that are nobody else's.
    const first = queries[0]
    if (first !== undefined) await ctxLayer.run(first).catch(() => undefined)
    const ctxServers = hosted.serverPids()
    toolsHosted = await startHostedLsp(workspace.root, {
      idleTtlMs,
      otherPids: () => [...floor.pids(), ...(mcp?.pids() ?? []), ...ctxServers],
    })
    const tools = await toolsLayer(toolsHosted)
    if ('missing' in tools) note('tools layer', tools.missing)
    else layers.push(tools.layer)
    const started = await startMcpLayer(workspace.root)
    if ('missing' in started) note('MCP layer', started.missing)
    else {
      layers.push((mcp = started.layer))
      const entry =
        started.entry === 'dist' ? 'the built CLI (packages/lsp-mcp/dist/cli.js)' : 'its TypeScript sources (no fresh build was found)'
      const line = `MCP layer: \`codeseam mcp --read-only\` was run from ${entry}.`
      if (!notes.includes(line)) notes.push(line)
    }

    log(`${workspace.name}: read mix × ${rounds} rounds through ${layers.map((l) => l.layer).join(', ')}`)
    const mcpHost = mcp?.pids()[0]
    const sampler = mcpHost === undefined ? undefined : sampleOwnMemory(workspace.name, mcpHost)
    const mix = await runReadMix(workspace.name, layers, queries, rounds)
    result.readMix.push(...mix.results)
    result.increments.push(...mix.increments)

    if (!options.repository) {
      log(`${workspace.name}: hot references`)
      result.hotReferences.push(
        ...(await runHotReferences(workspace.name, layers, hotReferencesQuery(workspace), Math.max(5, Math.round(rounds / 4)))),
      )
      log(`${workspace.name}: target resolution`)
      Object.assign(result, { targetResolution: await runTargetResolution(hosted.lsp, workspace) })
    }

    log(`${workspace.name}: 100 concurrent queries`)
    // The native operations only, so the burst stays what it was measured as before the derived one joined.
    const nativeQueries = queries.filter((query) => !isDerivedOperation(query.operation))
    // Memory is read right after each process's own burst, before it can go idle.
    for (const layer of layers) {
      result.concurrency.push(await runConcurrency(workspace.name, layer, nativeQueries, 100))
      if (layer.layer === 'floor') {
        result.memory.push({
          workspace: workspace.name,
          phase: 'floor busy',
          serverRssBytes: treeRss(floor.pids()),
          servers: floor.pids().length,
        })
        const primed = await primeFloor(floor, workspace.root, nativeQueries[0])
        if (primed !== undefined) result.memory.push({ workspace: workspace.name, ...primed })
      } else if (layer.layer === 'ctx.lsp') {
        result.memory.push(hostMemory(workspace.name, hosted, 'busy'))
      } else if (layer.layer === 'mcp') {
        const [mcpPid, ...mcpServers] = layer.pids()
        result.memory.push({
          workspace: workspace.name,
          phase: 'mcp busy',
          hostRssBytes: mcpPid === undefined ? 0 : rssOf(mcpPid),
          serverRssBytes: mcpServers.reduce((total, pid) => total + rssOf(pid), 0),
          servers: mcpServers.length,
        })
      }
    }
    if (!result.memory.some((m) => m.phase === 'busy')) result.memory.push(hostMemory(workspace.name, hosted, 'busy'))
    if (sampler !== undefined) result.ownMemory.push(sampler.stop())
    await mcp?.stop()
    mcp = undefined
    await floor.stop()
    await toolsHosted.dispose()
    toolsHosted = undefined
    log(`${workspace.name}: waiting for idle reclamation (TTL ${idleTtlMs / 1000} s)`)
    result.memory.push(await afterIdleReclamation(workspace.name, hosted, idleTtlMs + 60_000))
    return result
  } finally {
    await mcp?.stop()
    await floor.stop()
    await toolsHosted?.dispose()
    await hosted?.dispose()
  }
}
