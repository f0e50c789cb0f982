import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { callTool, toMcpTool, toolContext, type AnyTool, type ToolOutcome } from '@codeseam/tool-lsp'
import { MutationSession, type ApprovalPolicy } from '@codeseam/tool-lsp-mutate'

import { deferredApprovalPolicy, mcpApprovalPolicy, type Elicit } from './approval.js'
import { followCallProgress } from './progress.js'
import { serverInfo } from './server-info.js'
import type { CodeseamSession } from './session.js'
import { collectTools, type CollectToolsOptions } from './tool-set.js'

/**
 * The MCP server: the low-level SDK `Server` with our own JSON Schemas (exported from the neutral tool
 * definitions by `toMcpTool`), bound to one {@link CodeseamSession}. It only binds handlers: listing is a
 * fixed array, calling is `callTool` with the MCP cancellation signal, progress and approval wired in.
 */

/** Options for {@link createCodeseamServer}. */
export interface CodeseamServerOptions extends Omit<CollectToolsOptions, 'mutations'> {
  readonly session: CodeseamSession
  /** `--allow-edits`: apply previewable changes without asking (see `mcpApprovalPolicy`). */
  readonly allowEdits?: boolean
  /** Character budget of each result's text (default: the tool package's). */
  readonly maxChars?: number
}

const instructions = [
  'codeseam answers code questions with real language servers: definitions, references, types, symbols, call hierarchies, diagnostics; its mutating tools (when listed) rename and edit with a preview and a receipt.',
  'Aim with a file path plus a symbol name rather than line/column. Paths are relative to the workspace root.',
  'A result says how far to trust it (readiness: ready / indexing); a failure names a stable code and what to do next.',
].join(' ')

/** The result MCP returns for one outcome: text for the model, structured JSON on success, the error code on failure. */
export function toCallToolResult(outcome: ToolOutcome): CallToolResult {
  if (outcome.ok) {
    return { content: [{ type: 'text', text: outcome.text }], structuredContent: outcome.structured, isError: false }
  }
  // No structuredContent on failure: it would not match the tool's output schema, and clients validate it.
  return { content: [{ type: 'text', text: outcome.text }], isError: true, _meta: { 'codeseam/error': outcome.error } }
}

/** Creates the MCP server for a session. Connect it to a transport with `server.connect(transport)`. */
export function createCodeseamServer(options: CodeseamServerOptions): Server {
  const { session } = options
  const server = new Server(serverInfo, { capabilities: { tools: { listChanged: false } }, instructions })

  const elicit: Elicit = async (params, signal) => {
    const result = await server.elicitInput({ mode: 'form', ...params }, { signal, timeout: 10 * 60_000 })
    return { action: result.action, content: result.content as Record<string, unknown> | undefined }
  }
  let policy: ApprovalPolicy | undefined
  // Whether the client can ask its user is known only after initialize; the tools are bound to the session now.
  const currentPolicy = (): ApprovalPolicy => {
    policy ??= mcpApprovalPolicy({
      allowEdits: options.allowEdits === true,
      ...(server.getClientCapabilities()?.elicitation?.form === undefined ? {} : { elicit }),
    })
    return policy
  }
  const tools: ReadonlyArray<AnyTool> = collectTools({ ...options, mutations: new MutationSession(deferredApprovalPolicy(currentPolicy)) })
  const listed: Tool[] = tools.map((tool) => toMcpTool(tool) as unknown as Tool)
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const roots = session.roots.map((r) => r.root)

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }))

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name)
    if (tool === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `unknown tool "${request.params.name}" (tools: ${[...byName.keys()].join(', ')})`)
    }
    const progressToken = request.params._meta?.progressToken
    const progress = followCallProgress(session.lsp, session.roots, (report) => {
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
  })
  return server
}
