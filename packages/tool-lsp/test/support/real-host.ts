import { createLsp, type LspProviderStatus, type LspService } from '@codeseam/lsp'
import { createLocalHost, type HostOptions, type LocalHost } from '@codeseam/lsp-local'

import { callTool, toMcpTool, toolContext, type AnyTool, type ToolContext, type ToolOutcome } from '../../src/index.js'
import { validateDraft07 } from './schema-rules.js'

/** A real lsp-local host attached to a fresh ctx.lsp over one root. */
export interface RealHost {
  readonly host: LocalHost
  readonly lsp: LspService
  readonly context: ToolContext
  /** Runs a tool like a harness would; successful structured output is checked against the MCP output schema. */
  call(tool: AnyTool, args: unknown): Promise<ToolOutcome>
  dispose(): Promise<void>
}

export async function startRealHost(root: string, options: HostOptions = {}): Promise<RealHost> {
  const host = await createLocalHost(options)
  const lsp = createLsp()
  await host.attach(lsp, [{ root, trust: 'trusted' }])
  const context = toolContext(lsp)
  return {
    host,
    lsp,
    context,
    async call(tool, args) {
      const outcome = await callTool(tool, args, context)
      if (outcome.ok) {
        const problems = validateDraft07(toMcpTool(tool).outputSchema, outcome.structured)
        if (problems.length > 0) throw new Error(`${tool.name} output does not match its output schema: ${problems.join('; ')}`)
      }
      return outcome
    },
    async dispose() {
      await lsp.dispose()
      await host.dispose()
    },
  }
}

/** The structured result of a successful outcome; fails the test with the error otherwise. */
export function structured(outcome: ToolOutcome): Record<string, any> {
  if (!outcome.ok) throw new Error(`expected success from ${outcome.tool}, got ${outcome.error.code}: ${outcome.error.message}`)
  return outcome.structured
}

/** Resolves once a provider status matches, or rejects after `timeoutMs` (a bounded wait on events, not a sleep). */
export function waitForStatus(
  lsp: LspService,
  matches: (status: LspProviderStatus) => boolean,
  timeoutMs = 60_000,
): Promise<LspProviderStatus> {
  const now = lsp.status().find(matches)
  if (now !== undefined) return Promise.resolve(now)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe()
      reject(new Error(`no matching provider status within ${timeoutMs} ms (now: ${JSON.stringify(lsp.status())})`))
    }, timeoutMs)
    const unsubscribe = lsp.onStatusChange((status) => {
      if (!matches(status)) return
      clearTimeout(timer)
      unsubscribe()
      resolve(status)
    })
  })
}
