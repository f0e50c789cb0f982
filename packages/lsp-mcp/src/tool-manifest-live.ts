import { toMcpTool, type AnyTool } from '@codeseam/tool-lsp'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'

import { commandName } from './cli/flags.js'
import type { ToolManifest, ToolManifestEntry } from './tool-manifest.js'
import { collectTools } from './tool-set.js'

/** One tool's manifest entry, from its definition. */
export function manifestEntry(tool: AnyTool): ToolManifestEntry {
  return {
    name: tool.name,
    command: commandName(tool),
    title: tool.title,
    readOnly: tool.hints.readOnly,
    mcp: toMcpTool(tool) as unknown as Tool,
  }
}

/** The manifest computed from the live tool definitions (what the build writes to dist/tools.json). */
export function liveToolManifest(): ToolManifest {
  return collectTools().map(manifestEntry)
}
