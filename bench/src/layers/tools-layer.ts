import type { HostedLsp } from './ctx-lsp-layer.js'
import type { ReadLayer } from './read-layer.js'

/** The tools layer, or why it cannot be measured yet. */
export async function toolsLayer(_hosted: HostedLsp): Promise<{ layer: ReadLayer } | { missing: string }> {
  return { missing: 'not wired yet' }
}
