import { performance } from 'node:perf_hooks'

import type { HostedLsp } from '../layers/ctx-lsp-layer.js'
import { treeRss } from '../process-memory.js'
import type { MemoryResult } from '../report.js'

/** RSS of this process (the host runs in it) and of the host's servers, now. */
export function hostMemory(workspace: string, hosted: HostedLsp, phase: MemoryResult['phase']): MemoryResult {
  const servers = hosted.serverPids()
  return { workspace, phase, hostRssBytes: process.memoryUsage().rss, serverRssBytes: treeRss(servers), servers: servers.length }
}

/**
 * Waits (bounded, on status events) until the host reclaims its idle servers, then measures again.
 * The host was created with a short idle TTL for exactly this.
 */
export async function afterIdleReclamation(workspace: string, hosted: HostedLsp, deadlineMs: number): Promise<MemoryResult> {
  const started = performance.now()
  const busy = () => hosted.host.status().some((s) => s.state === 'ready' || s.state === 'indexing' || s.state === 'starting')
  if (busy()) {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        unsubscribe()
        reject(new Error(`the host did not reclaim its idle servers within ${deadlineMs} ms`))
      }, deadlineMs)
      const unsubscribe = hosted.lsp.onStatusChange(() => {
        if (busy()) return
        clearTimeout(timer)
        unsubscribe()
        resolve()
      })
    })
  }
  const reclaimedMs = performance.now() - started
  // The servers' exit is reported before the kernel has reaped every child: measure what is left.
  global.gc?.()
  return { ...hostMemory(workspace, hosted, 'after idle reclamation'), reclaimedMs: Math.round(reclaimedMs) }
}
