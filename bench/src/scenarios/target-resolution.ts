import { performance } from 'node:perf_hooks'

import { resolveTarget, type LspService } from '@codeseam/lsp'

import type { TargetResolutionResult } from '../report.js'
import { roundSummary, summarize } from '../statistics.js'
import { modulePath, type GeneratedWorkspace } from '../workspace-generator.js'

/**
 * What naming a symbol instead of a position costs: `resolveTarget` on `ServiceNNNN.add` in distinct files
 * (uncached: read + document symbols + flatten) and then the same targets again (cached per content hash).
 */
export async function runTargetResolution(lsp: LspService, workspace: GeneratedWorkspace, files = 30): Promise<TargetResolutionResult> {
  const targets = Array.from({ length: Math.min(files, workspace.fileCount) }, (_, i) => {
    const index = Math.floor((i * workspace.fileCount) / Math.min(files, workspace.fileCount))
    return { path: modulePath(index), symbol: `Service${String(index).padStart(4, '0')}.add` }
  })
  const timeAll = async (): Promise<number[]> => {
    const times: number[] = []
    for (const target of targets) {
      const started = performance.now()
      const resolved = await resolveTarget(lsp, target)
      times.push(performance.now() - started)
      if (resolved.symbol?.qualifiedName !== target.symbol)
        throw new Error(`resolveTarget found ${resolved.symbol?.qualifiedName} for ${target.symbol}`)
    }
    return times
  }
  const uncached = await timeAll()
  const cached = [...(await timeAll()), ...(await timeAll())]
  return { workspace: workspace.name, uncached: roundSummary(summarize(uncached)), cached: roundSummary(summarize(cached)) }
}
