// The whole read/write path as a harness wires it: ctx.lsp, the lsp-local host, every read and mutating
// tool, called through callTool exactly as the MCP server does.
import { createLsp, type LspService } from '@codeseam/lsp'
import { createLocalHost, type HostOptions, type LocalHost } from '@codeseam/lsp-local'
import { callTool, readTools, toolContext, type AnyTool, type ToolOutcome } from '@codeseam/tool-lsp'
import { mutationTools, type MutationSessionOptions } from '@codeseam/tool-lsp-mutate'

export interface Stack {
  readonly lsp: LspService
  readonly host: LocalHost
  readonly root: string
  /** Every tool by name: the read tools and the mutating tools. */
  readonly tools: ReadonlyMap<string, AnyTool>
  /** Calls a tool with raw (JSON) arguments, with its own context and signal, like a harness. */
  call(name: string, args: unknown): Promise<ToolOutcome>
  /** Calls a tool object over this stack (e.g. a copy of one of `tools` with its steps watched), the same way. */
  callWith(tool: AnyTool, args: unknown): Promise<ToolOutcome>
  dispose(): Promise<void>
}

export interface StackOptions {
  readonly host?: HostOptions
  readonly mutations?: MutationSessionOptions
}

/** Opens one trusted root with every tool over it. */
export async function openStack(root: string, options: StackOptions = {}): Promise<Stack> {
  const host = await createLocalHost(options.host ?? {})
  const lsp = createLsp()
  const release = await host.attach(lsp, [{ root, trust: 'trusted' }])
  // The mutation lock lives in the OS temp folder; the suite keeps it there too but turns it off where
  // tests run in parallel on different roots anyway (each root has its own lock file).
  const tools = new Map<string, AnyTool>(
    [...readTools, ...mutationTools({ lock: false, diagnosticsWaitMs: 2_000, ...options.mutations })].map((t) => [t.name, t]),
  )
  let disposed: Promise<void> | undefined
  return {
    lsp,
    host,
    root,
    tools,
    call(name, args) {
      const tool = tools.get(name)
      if (tool === undefined) throw new Error(`no tool ${name}`)
      return callTool(tool, args, toolContext(lsp, { signal: new AbortController().signal }))
    },
    callWith(tool, args) {
      return callTool(tool, args, toolContext(lsp, { signal: new AbortController().signal }))
    },
    dispose() {
      disposed ??= (async () => {
        await release()
        await host.dispose()
        await lsp.dispose()
      })()
      return disposed
    },
  }
}
