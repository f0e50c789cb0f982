// Every type-only name @codeseam/lsp-mcp exports, pinned at the type level: `pnpm typecheck` (this folder is in the
// package's tsconfig) fails when src/index.ts stops exporting one. The runtime names: public-surface.test.ts.
export type {
  CliIo,
  CodeseamServerOptions,
  CodeseamSession,
  CollectToolsOptions,
  McpServerOptions,
  RunningMcpServer,
  SessionOptions,
} from '../src/index.js'
