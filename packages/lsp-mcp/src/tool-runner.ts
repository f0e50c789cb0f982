import { toolContext, type ToolContext, type ToolProgress } from '@codeseam/tool-lsp'
import { MutationSession, type ApprovalPolicy } from '@codeseam/tool-lsp-mutate'

import type { CodeseamSession } from './session.js'

/**
 * What every tool call of one session runs with: the session's `ctx.lsp` and roots, and one mutation session
 * (its approval state, "approve all", and its per-root queue are shared by every mutating call).
 */
export interface ToolRunner {
  readonly mutations: MutationSession
  /** The context of one call. */
  context(call: { readonly signal: AbortSignal; readonly onProgress?: (progress: ToolProgress) => void }): ToolContext
}

/** Creates the runner of a session under an approval policy. */
export function toolRunner(session: CodeseamSession, policy: ApprovalPolicy): ToolRunner {
  const mutations = new MutationSession(policy)
  const roots = session.roots.map((r) => r.root)
  return {
    mutations,
    context(call) {
      return toolContext(session.lsp, {
        signal: call.signal,
        roots,
        ...(call.onProgress === undefined ? {} : { onProgress: call.onProgress }),
      })
    },
  }
}
