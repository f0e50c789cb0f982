import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolRequest,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import type { ToolOutcome } from '@codeseam/tool-lsp'
import { context, propagation, ROOT_CONTEXT, type Context } from '@opentelemetry/api'

import { serverInfo } from './server-info.js'
import { shellCapabilities, shellInstructions } from './shell-answers.js'

/**
 * The MCP server without the tools: the low-level SDK `Server`, its instructions, a fixed `tools/list` and
 * a `tools/call` that checks the name and hands the call on. It loads no tool, so `codeseam mcp` can answer
 * `initialize` and `tools/list` (from the build's tool manifest) while the tools and the session load.
 */

/** Runs one named, listed tool call. */
export type ToolCall = (request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => Promise<CallToolResult>

/** The result MCP returns for one outcome: text for the model, structured JSON on success, the error code on failure. */
export function toCallToolResult(outcome: ToolOutcome): CallToolResult {
  if (outcome.ok) {
    return { content: [{ type: 'text', text: outcome.text }], structuredContent: outcome.structured, isError: false }
  }
  // No structuredContent on failure: it would not match the tool's output schema, and clients validate it.
  return { content: [{ type: 'text', text: outcome.text }], isError: true, _meta: { 'codeseam/error': outcome.error } }
}

/**
 * The trace context a client sent with a call: W3C `traceparent` (and `tracestate`) in `params._meta`. Only
 * those two keys, and only strings, are read. Without a propagator registered (no export) this is the root
 * context, so a call without export, or without `_meta`, starts no trace of the client's.
 */
export function clientTraceContext(meta: Readonly<Record<string, unknown>> | undefined): Context {
  const carrier: Record<string, string> = {}
  for (const key of ['traceparent', 'tracestate']) {
    const value = meta?.[key]
    if (typeof value === 'string') carrier[key] = value
  }
  return propagation.extract(ROOT_CONTEXT, carrier)
}

/**
 * The SDK server listing `listed` and passing each call of a listed tool to `call`. `validator` checks what a
 * client answers to an elicitation (only tool calls elicit, so the CLI passes one that is loaded with the tools).
 */
export function createMcpShell(listed: ReadonlyArray<Tool>, call: ToolCall, validator: jsonSchemaValidator): Server {
  const server = new Server(serverInfo, {
    capabilities: shellCapabilities,
    instructions: shellInstructions,
    jsonSchemaValidator: validator,
  })
  const names = listed.map((tool) => tool.name)
  const known = new Set(names)
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...listed] }))
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    if (!known.has(request.params.name)) {
      throw new McpError(ErrorCode.InvalidParams, `unknown tool "${request.params.name}" (tools: ${names.join(', ')})`)
    }
    // The call's spans continue the client's trace (its `_meta.traceparent`), in-process and in the daemon alike.
    return context.with(clientTraceContext(request.params._meta), () => call(request, extra))
  })
  return server
}
