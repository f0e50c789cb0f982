import { LspError, type LspService } from '@codeseam/lsp'
import { callTool, readTools, toolContext, type AnyTool, type ToolOutcome } from '@codeseam/tool-lsp'

/** A tool call as a model or a person writes it. */
export interface ToolCall {
  readonly tool: string
  readonly arguments?: unknown
}

/** Parses `{ "tool": "code_navigate", "arguments": { … } }` (a JSON string or an object already parsed). */
export function parseToolCall(input: unknown): ToolCall {
  let value = input
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input)
    } catch (error) {
      throw new LspError('INVALID_ARGUMENT', `the tool call is not JSON: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const call = value as { tool?: unknown; arguments?: unknown } | null
  if (call === null || typeof call !== 'object' || typeof call.tool !== 'string') {
    throw new LspError('INVALID_ARGUMENT', 'a tool call looks like {"tool": "code_symbols", "arguments": {"path": "src/index.ts"}}')
  }
  return { tool: call.tool, arguments: call.arguments ?? {} }
}

/** Runs one tool call against `ctx.lsp` and returns the standard envelope (never throws for tool errors). */
export async function runToolCall(
  lsp: LspService,
  tools: ReadonlyArray<AnyTool>,
  call: ToolCall,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const tool = tools.find((t) => t.name === call.tool)
  if (tool === undefined) {
    throw new LspError('NOT_FOUND', `no tool "${call.tool}"; the tools are: ${tools.map((t) => t.name).join(', ')}`)
  }
  return callTool(tool, call.arguments, toolContext(lsp, { signal }))
}

export { readTools }
