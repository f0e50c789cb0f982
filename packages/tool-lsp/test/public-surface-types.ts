// Every type-only name @codeseam/tool-lsp exports, pinned at the type level: `pnpm typecheck` (this folder is in the
// package's tsconfig) fails when src/index.ts stops exporting one. The runtime names: public-surface.test.ts.
export type {
  AnthropicTool,
  AnyTool,
  CallToolOptions,
  JsonSchemaObject,
  LanguageDiagnosticsLimit,
  McpTool,
  OpenAiFunction,
  OpenAiTool,
  OpenAiToolOptions,
  ToJsonSchemaOptions,
  ToolContext,
  ToolContextOptions,
  ToolDefinition,
  ToolFailure,
  ToolHints,
  ToolOutcome,
  ToolProgress,
  ToolSelection,
  ToolSuccess,
} from '../src/index.js'
