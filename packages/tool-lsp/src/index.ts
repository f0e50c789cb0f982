// The public surface of @codeseam/tool-lsp, name by name: the tool list, running and exporting tools, and what
// a package defining its own tools reuses (tool-lsp-mutate does). test/public-surface.test.ts pins the values,
// test/public-surface-types.ts the types.
export { languageDiagnosticsLimits, quoteDiagnosticsLimit } from './diagnostics-limits.js'
export type { LanguageDiagnosticsLimit } from './diagnostics-limits.js'
export { defineTool, decodeToolInput, selectTools, toolContext } from './definition.js'
export type { AnyTool, ToolContext, ToolContextOptions, ToolDefinition, ToolHints, ToolProgress, ToolSelection } from './definition.js'
export { callTool } from './envelope.js'
export type { CallToolOptions, ToolFailure, ToolOutcome, ToolSuccess } from './envelope.js'
export { toAnthropicTool, toJsonSchema, toMcpTool, toOpenAiTool } from './exporters.js'
export type {
  AnthropicTool,
  JsonSchemaObject,
  McpTool,
  OpenAiFunction,
  OpenAiTool,
  OpenAiToolOptions,
  ToJsonSchemaOptions,
} from './exporters.js'
export {
  FirstMatchInput,
  ModelRangeOutput,
  NonNegativeInt,
  PageOutput,
  PositiveInt,
  ReadinessOutput,
  ResolvedTargetOutput,
  TargetInput,
} from './schemas.js'
export { noticeFor, targetOutput } from './targeting.js'
export { projectLoadingWords } from './status.js'
export { readTools } from './tools.js'
