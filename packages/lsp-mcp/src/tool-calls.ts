import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { callTool, toolContext, type AnyTool } from '@codeseam/tool-lsp'
import { MutationSession, type ApprovalPolicy } from '@codeseam/tool-lsp-mutate'

import { deferredApprovalPolicy, mcpApprovalPolicy, type Elicit } from './approval.js'
import { toCallToolResult, type ToolCall } from './mcp-shell.js'
import { followCallProgress } from './progress.js'
import type { CodeseamSession } from './session.js'
import { collectTools, type CollectToolsOptions } from './tool-set.js'

/** Options for {@link bindToolCalls}. */
export interface ToolCallOptions extends Omit<CollectToolsOptions, 'mutations'> {
  /** `--allow-edits`: apply previewable changes without asking (see `mcpApprovalPolicy`). */
  readonly allowEdits?: boolean
  /** Character budget of each result's text (default: the tool package's). */
  readonly maxChars?: number
}

/**
 * The tools bound to a session and a server: `callTool` with the MCP cancellation signal, progress and
 * approval wired in. `server` is read only when a call asks its client something (elicitation).
 */
export function bindToolCalls(
  server: () => Server,
  session: CodeseamSession,
  options: ToolCallOptions,
): { readonly tools: ReadonlyArray<AnyTool>; readonly call: ToolCall } {
  const elicit: Elicit = async (params, signal) => {
    const result = await server().elicitInput({ mode: 'form', ...params }, { signal, timeout: 10 * 60_000 })
    return { action: result.action, content: result.content as Record<string, unknown> | undefined }
  }
  let policy: ApprovalPolicy | undefined
  // Whether the client can ask its user is known only after initialize; the tools are bound to the session now.
  const currentPolicy = (): ApprovalPolicy => {
    policy ??= mcpApprovalPolicy({
      allowEdits: options.allowEdits === true,
      ...(server().getClientCapabilities()?.elicitation?.form === undefined ? {} : { elicit }),
    })
    return policy
  }
  const tools: ReadonlyArray<AnyTool> = collectTools({ ...options, mutations: new MutationSession(deferredApprovalPolicy(currentPolicy)) })
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const call: ToolCall = async (request, extra) => {
    const tool = byName.get(request.params.name)
    // The server lists the same tools, so it never hands on a name that is not here.
    if (tool === undefined) throw new Error(`tool "${request.params.name}" is listed but not bound`)
    const progressToken = request.params._meta?.progressToken
    // Read per call: a session's roots change when its client's roots do.
    const open = session.roots
    const roots = open.map((r) => r.root)
    const progress = followCallProgress(session.lsp, open, (report) => {
      if (progressToken === undefined) return
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...report } }).catch(() => {
        // The client went away mid-call; the call itself ends through its signal.
      })
    })
    try {
      const context = toolContext(session.lsp, { signal: extra.signal, roots, onProgress: progress.onProgress })
      const outcome = await callTool(
        tool,
        request.params.arguments ?? {},
        context,
        options.maxChars === undefined ? {} : { maxChars: options.maxChars },
      )
      return toCallToolResult(outcome)
    } finally {
      progress.dispose()
    }
  }
  return { tools, call }
}
