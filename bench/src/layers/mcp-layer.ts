import type { ReadLayer } from './read-layer.js'

/** The MCP layer, or why it cannot be measured yet. */
export async function startMcpLayer(_root: string): Promise<{ layer: ReadLayer } | { missing: string }> {
  return { missing: 'not wired yet' }
}
