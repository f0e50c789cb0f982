// The public surface of @codeseam/lsp-mcp, name by name: the tool list, the session, the MCP server (in process
// or over stdio) and the CLI. Approval prompts, progress and exit-code helpers are internal to the server and
// the CLI. test/public-surface.test.ts pins the values, test/public-surface-types.ts the types.
export { collectTools, type CollectToolsOptions } from './tool-set.js'
export { openSession, type CodeseamSession, type SessionOptions } from './session.js'
export { createCodeseamServer, type CodeseamServerOptions } from './server.js'
export { serverInfo } from './server-info.js'
export { startMcpServer, type McpServerOptions, type RunningMcpServer } from './stdio-server.js'
export { runCli, type CliIo } from './cli/main.js'
