import type { HostedLsp } from './ctx-lsp-layer.js'
import type { ReadLayer } from './read-layer.js'
import { pageTruncated, toolCallFor, totalFound, verifyToolOutput } from './tool-calls.js'

interface ToolOutcomeShape {
  readonly ok: boolean
  readonly structured?: Record<string, unknown>
  readonly text: string
  readonly textTruncated: boolean
  readonly error?: { readonly code: string; readonly message: string }
}

/**
 * The tools as a harness runs them in process: `callTool` (argument decoding, target resolution, the
 * query, budgeting, rendering) over the same `ctx.lsp` as the ctx.lsp layer. Output bytes are the rendered
 * text the model reads.
 */
export async function toolsLayer(hosted: HostedLsp): Promise<{ layer: ReadLayer } | { missing: string }> {
  let tools: typeof import('@codeseam/tool-lsp')
  try {
    tools = await import('@codeseam/tool-lsp')
  } catch (error) {
    return { missing: `@codeseam/tool-lsp does not load: ${(error as Error).message}` }
  }
  if (typeof tools.callTool !== 'function' || !Array.isArray(tools.readTools))
    return { missing: '@codeseam/tool-lsp exports no callTool/readTools' }
  const byName = new Map(tools.readTools.map((tool) => [tool.name, tool]))
  for (const name of ['code_navigate', 'code_hover', 'code_symbols', 'code_hierarchy']) {
    if (!byName.has(name)) return { missing: `@codeseam/tool-lsp has no ${name} tool` }
  }
  return {
    layer: {
      layer: 'tools',
      inProcess: true,
      async run(query) {
        const call = toolCallFor(query)
        // A harness gives every call its own context and cancellation signal.
        const context = tools.toolContext(hosted.lsp, { signal: new AbortController().signal })
        const outcome = (await tools.callTool(byName.get(call.name)!, call.arguments, context)) as ToolOutcomeShape
        if (!outcome.ok) throw new Error(`${call.name} failed: ${outcome.error?.code}: ${outcome.error?.message}`)
        return outcome
      },
      verify: (query, answer) => verifyToolOutput(query, (answer as ToolOutcomeShape).structured),
      locationCount: (answer) => totalFound((answer as ToolOutcomeShape).structured),
      truncated: (answer) => pageTruncated((answer as ToolOutcomeShape).structured) || (answer as ToolOutcomeShape).textTruncated,
      outputBytes: (answer) => Buffer.byteLength((answer as ToolOutcomeShape).text, 'utf8'),
      pids: () => hosted.serverPids(),
      stop: async () => undefined,
    },
  }
}
