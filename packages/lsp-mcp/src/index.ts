export { collectTools, type CollectToolsOptions } from './tool-set.js'
export { openSession, type CodeseamSession, type SessionOptions } from './session.js'
export { createCodeseamServer, toCallToolResult, type CodeseamServerOptions } from './server.js'
export { serverInfo } from './server-info.js'
export { startMcpServer, type McpServerOptions, type RunningMcpServer } from './stdio-server.js'
export {
  mcpApprovalPolicy,
  deferredApprovalPolicy,
  approvalPrompt,
  type Elicit,
  type ElicitSchema,
  type McpApprovalOptions,
} from './approval.js'
export { followCallProgress, describeStatus, type CallProgress, type ProgressReport } from './progress.js'
export { runCli, exitCodeOf, cliApprovalPolicy, type CliIo } from './cli/main.js'
export { exitCodes } from './cli/help.js'
