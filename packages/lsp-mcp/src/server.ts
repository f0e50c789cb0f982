import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { toMcpTool } from '@codeseam/tool-lsp'

import { createMcpShell } from './mcp-shell.js'
import type { CodeseamSession } from './session.js'
import { bindToolCalls, type ToolCallOptions } from './tool-calls.js'

export { toCallToolResult } from './mcp-shell.js'

/**
 * The MCP server: the low-level SDK `Server` with our own JSON Schemas (exported from the neutral tool
 * definitions by `toMcpTool`), bound to one {@link CodeseamSession}. It only binds handlers: listing is a
 * fixed array, calling is `callTool` with the MCP cancellation signal, progress and approval wired in.
 * (`codeseam mcp` builds the same server from the same parts, listing from the build's tool manifest and
 * binding the calls once its session is open: see stdio-server.ts.)
 */

/** Options for {@link createCodeseamServer}. */
export interface CodeseamServerOptions extends ToolCallOptions {
  readonly session: CodeseamSession
}

/** Creates the MCP server for a session. Connect it to a transport with `server.connect(transport)`. */
export function createCodeseamServer(options: CodeseamServerOptions): Server {
  const holder: { server?: Server } = {}
  const current = (): Server => {
    if (holder.server === undefined) throw new Error('the MCP server is not created yet')
    return holder.server
  }
  const { tools, call } = bindToolCalls(current, options.session, options)
  const listed: Tool[] = tools.map((tool) => toMcpTool(tool) as unknown as Tool)
  // The status reports the host's servers: it waits for their lookup (a question does not; see session.ts).
  const session = options.session
  holder.server = createMcpShell(
    listed,
    async (request, extra) => {
      if (request.params.name === 'code_status') await session.started
      return call(request, extra)
    },
    new AjvJsonSchemaValidator(),
  )
  return holder.server
}
