import { createLsp, type LspQueryResult, type LspService } from '@codeseam/lsp'
import { createLocalHost, type LocalHost, type TrustLevel } from '@codeseam/lsp-local'

import { withDeadline } from '../measure.js'
import type { ReadQuery } from '../read-mix.js'
import { seamHasSubtypes } from '../type-hierarchy.js'
import { agreesWithFloor, seamNormal } from '../wide-mix.js'
import { jsonBytes, relativeTo, type ReadLayer } from './read-layer.js'

/** A host and the `ctx.lsp` service it is attached to, shared by the ctx.lsp and tools layers. */
export interface HostedLsp {
  readonly lsp: LspService
  readonly host: LocalHost
  readonly root: string
  /** Language-server processes the host started (descendants of this process that are not someone else's). */
  serverPids(): number[]
  dispose(): Promise<void>
}

/** Creates `ctx.lsp` with a local host attached to one root (trusted unless `trust` says otherwise). */
export async function startHostedLsp(
  root: string,
  options: { idleTtlMs?: number; otherPids: () => ReadonlyArray<number>; trust?: TrustLevel },
): Promise<HostedLsp> {
  const { childProcesses, processTree } = await import('../process-memory.js')
  const host = await createLocalHost({ idleTtlMs: options.idleTtlMs ?? 0 })
  const lsp = createLsp()
  const release = await host.attach(lsp, [{ root, trust: options.trust ?? 'trusted' }])
  return {
    lsp,
    host,
    root,
    serverPids() {
      const others = new Set(options.otherPids().flatMap((pid) => processTree(pid)))
      return childProcesses().filter((pid) => !others.has(pid))
    },
    async dispose() {
      // Bounded, and the deadline's timer keeps the event loop alive: a dispose that waits only on unref'd
      // handles would otherwise end the whole process silently (seen after idle reclamation).
      await withDeadline(
        (async () => {
          await release()
          await host.dispose()
          await lsp.dispose()
        })(),
        30_000,
        'the lsp-local host to dispose',
      )
    },
  }
}

function names(symbols: ReadonlyArray<{ name: string; children: ReadonlyArray<unknown> }>): string[] {
  return symbols.flatMap((s) => [s.name, ...names(s.children as typeof symbols)])
}

/** Checks a seam result against a query's expectation. */
export function verifySeamResult(root: string, query: ReadQuery, result: LspQueryResult): boolean {
  if (query.expect.floor !== undefined)
    return agreesWithFloor(query.operation, query.expect.floor, seamNormal(root, query.operation, result))
  switch (query.operation) {
    case 'definition':
      return result.kind === 'locations' && result.locations.some((l) => relativeTo(root, l.path) === query.expect.file)
    case 'references':
      return result.kind === 'locations' && result.locations.length >= (query.expect.minLocations ?? 1)
    case 'hover':
      return result.kind === 'hover' && (result.hover?.contents ?? '').includes(query.expect.hoverIncludes ?? '')
    case 'documentSymbols':
      return result.kind === 'documentSymbols' && names(result.symbols).includes(query.expect.symbolName ?? '')
    case 'typeHierarchy':
      return seamHasSubtypes(root, query, result)
    default:
      return false
  }
}

/** The seam as a layer: `ctx.lsp.query` with positions, normalized results. */
export function ctxLspLayer(hosted: HostedLsp): ReadLayer {
  const { lsp, root } = hosted
  return {
    layer: 'ctx.lsp',
    inProcess: true,
    async run(query: ReadQuery) {
      const { path, position } = query
      switch (query.operation) {
        case 'documentSymbols':
          return lsp.query({ operation: 'documentSymbols', root, path })
        case 'diagnostics':
          return lsp.query({ operation: 'diagnostics', root, path })
        case 'callHierarchy': {
          // Prepare, then the first item's incoming calls (the answer is the calls, with their meta).
          const prepared = await lsp.query({ operation: 'prepareCallHierarchy', root, path, position })
          const first = prepared.items[0]
          if (first === undefined) return { kind: 'hierarchyCalls', calls: [], meta: prepared.meta }
          return lsp.query({ operation: 'incomingCalls', root, item: first })
        }
        case 'typeHierarchy': {
          // Prepare, then the first item's direct subtypes (derived: the answer carries meta.derived).
          const prepared = await lsp.query({ operation: 'prepareTypeHierarchy', root, path, position })
          const first = prepared.items[0]
          if (first === undefined) return prepared
          return lsp.query({ operation: 'subtypes', root, item: first })
        }
        default:
          return lsp.query({ operation: query.operation, root, path, position })
      }
    },
    verify: (query, answer) => verifySeamResult(root, query, answer as LspQueryResult),
    locationCount: (answer) =>
      (answer as LspQueryResult).kind === 'locations' ? (answer as { locations: unknown[] }).locations.length : 0,
    truncated: (answer) => (answer as LspQueryResult).meta.truncated,
    outputBytes: jsonBytes,
    pids: () => hosted.serverPids(),
    stop: async () => undefined,
  }
}
