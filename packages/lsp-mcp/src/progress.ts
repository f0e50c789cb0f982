import * as nodePath from 'node:path'

import type { LspProviderStatus, LspService, LspWorkspaceInfo } from '@codeseam/lsp'
import { projectLoadingWords, type ToolProgress } from '@codeseam/tool-lsp'

/**
 * Progress of one tool call, from two sources: language servers of the call's roots starting or indexing
 * (the seam's status changes) and the tool's own progress (hierarchy walks, workspace diagnostics). Both
 * become one monotonically increasing stream of messages, which the MCP server sends as
 * `notifications/progress` and the CLI shows on stderr.
 */

/** One progress report: a counter that only grows, a message, and a total when the tool knows it. */
export interface ProgressReport {
  readonly progress: number
  readonly total?: number
  readonly message: string
}

/** Words for a server state, as a person reads them in a progress line. */
export function describeStatus(status: LspProviderStatus): string {
  const server = status.server ?? status.providerId
  const where = status.root === undefined ? '' : ` (${nodePath.basename(status.root)})`
  switch (status.state) {
    case 'starting':
      return `${server}${where}: starting the language server`
    case 'indexing':
      return `${server}${where}: the language server is indexing`
    case 'ready':
      return `${server}${where}: ready`
    case 'crashed':
      return `${server}${where}: the language server crashed${status.reason === undefined ? '' : `: ${status.reason}`}`
    case 'unavailable':
      return `${server}${where}: unavailable${status.reason === undefined ? '' : `: ${status.reason}`}`
    case 'idle':
      return `${server}${where}: idle`
  }
}

/** Words for a project load as it runs: "typescript (app): loading projects 12/46, 380 files opened". */
export function describeLoading(status: LspProviderStatus): string | undefined {
  if (status.loading === undefined) return undefined
  const where = status.root === undefined ? '' : ` (${nodePath.basename(status.root)})`
  return `${status.server ?? status.providerId}${where}: loading ${projectLoadingWords(status.loading)}`
}

function concerns(status: LspProviderStatus, roots: ReadonlyArray<LspWorkspaceInfo>): boolean {
  if (status.root === undefined) return true
  const root = status.root
  return roots.some((r) => {
    const relative = nodePath.relative(r.root, root)
    return relative === '' || (!relative.startsWith('..') && !nodePath.isAbsolute(relative))
  })
}

/** A progress stream for one call. `dispose` stops listening to status changes. */
export interface CallProgress {
  /** Pass to the tool context. */
  readonly onProgress: (progress: ToolProgress) => void
  dispose(): void
}

/**
 * Follows status changes of the servers under `roots` and the tool's own progress for one call, and hands
 * each as a {@link ProgressReport} to `report`. Only transitions worth telling (starting, indexing, ready
 * after one of those, crashed, unavailable) and each new figure of a project load ("loading projects 12/46, 380
 * files opened") are reported.
 */
export function followCallProgress(
  lsp: LspService,
  roots: ReadonlyArray<LspWorkspaceInfo>,
  report: (report: ProgressReport) => void,
): CallProgress {
  let counter = 0
  // What was last said about each server: status flaps (ready ⇄ indexing per query), a person needs each news once.
  const told = new Map<string, LspProviderStatus['state']>()
  const emit = (message: string, total?: number) => {
    counter += 1
    report({ progress: counter, message, ...(total === undefined ? {} : { total }) })
  }
  // What was last said of each server's project load: a person needs each new figure once.
  const loadingTold = new Map<string, string>()
  const unsubscribe = lsp.onStatusChange((status) => {
    if (!concerns(status, roots)) return
    const key = `${status.providerId}|${status.root ?? ''}`
    const loading = describeLoading(status)
    if (loading !== undefined && loadingTold.get(key) !== loading) {
      loadingTold.set(key, loading)
      emit(loading)
    }
    const previous = told.get(key)
    if (status.state === 'ready' || status.state === 'idle') {
      // "ready" is news only after "starting" or "indexing" was said.
      if (previous !== 'starting' && previous !== 'indexing') return
    } else if (previous === status.state || (status.state === 'indexing' && told.has(key) && previous !== 'crashed')) {
      return
    }
    told.set(key, status.state)
    emit(describeStatus(status))
  })
  return {
    onProgress(progress) {
      const counts = progress.done === undefined ? '' : ` (${progress.done}${progress.total === undefined ? '' : `/${progress.total}`})`
      emit(`${progress.message}${counts}`, undefined)
    },
    dispose: unsubscribe,
  }
}
