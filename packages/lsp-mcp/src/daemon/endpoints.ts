import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { LspErrorCode } from '@codeseam/lsp'

/**
 * What the daemon and its stdio proxy agree on: the endpoints' paths and the answer a tool call gets when the
 * daemon could not serve it. Apart from serve.ts so the proxy loads none of the daemon's stack (the tools,
 * the language-server host): a proxy is one small process per agent.
 */

/** The MCP endpoint's path. */
export const mcpPath = '/mcp'
/** `GET`: the daemon's identity, for a proxy to check it joined the right one. */
export const healthPath = '/codeseam/health'

/** What a tool call answers when the daemon could not serve it (the proxy's answer when the daemon died mid-call). */
export function daemonFailure(code: LspErrorCode, message: string): CallToolResult {
  return {
    content: [{ type: 'text', text: `error ${code}: ${message}` }],
    isError: true,
    _meta: { 'codeseam/error': { code, message, data: {} } },
  }
}
