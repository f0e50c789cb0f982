import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type InitializeResult } from '@modelcontextprotocol/sdk/types.js'

import { serverInfo } from './server-info.js'

/**
 * What codeseam's MCP server says before any tool has loaded: its capabilities, its instructions and its answer
 * to `initialize`. The in-process shell (mcp-shell.ts) gives them to the SDK `Server`; the stdio proxy
 * (daemon/proxy.ts) answers `initialize` with them itself, without waiting for the daemon, so the two answers are
 * the same by construction (test/daemon-start.e2e.test.ts compares them).
 */

/** The server's capabilities: tools, with a list that does not change during a session. */
export const shellCapabilities = { tools: { listChanged: false } } as const

/** The instructions an MCP client gives its model with the tool list. */
export const shellInstructions = [
  'codeseam answers code questions with real language servers: definitions, references, types, symbols, call hierarchies, diagnostics; its mutating tools (when listed) rename and edit with a preview and a receipt.',
  'Aim with a file path plus a symbol name rather than line/column. Paths are relative to the workspace root.',
  'A result says how far to trust it (readiness: ready / indexing); a failure names a stable code and what to do next.',
].join(' ')

/**
 * The answer to `initialize` as the SDK `Server` gives it: the client's protocol version when the SDK supports
 * it, else the latest one; the capabilities, server info and instructions above.
 */
export function initializeAnswer(requestedVersion: unknown): InitializeResult {
  const protocolVersion =
    typeof requestedVersion === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requestedVersion)
      ? requestedVersion
      : LATEST_PROTOCOL_VERSION
  return { protocolVersion, capabilities: shellCapabilities, serverInfo, instructions: shellInstructions }
}
