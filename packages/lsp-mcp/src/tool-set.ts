import * as readTools from '@codeseam/tool-lsp'
import { selectTools, type AnyTool, type ToolSelection } from '@codeseam/tool-lsp'
import { MutationSession, mutationTools } from '@codeseam/tool-lsp-mutate'

/**
 * The one place the product's tool list is assembled: every tool definition `@codeseam/tool-lsp` exports
 * (single definitions and arrays of them) and every tool `mutationTools(session)` of
 * `@codeseam/tool-lsp-mutate` creates, so a tool added to either package appears in the MCP server and the
 * CLI without touching this package. The list is computed once per server and never changes
 * while it runs: servers starting or crashing show up in results, not in the list.
 */

/** Duck-typed check for a {@link AnyTool}: tool packages export many other things (schemas, helpers). */
export function isToolDefinition(value: unknown): value is AnyTool {
  if (value === null || typeof value !== 'object') return false
  const tool = value as Partial<AnyTool>
  return (
    typeof tool.name === 'string' &&
    typeof tool.description === 'string' &&
    typeof tool.execute === 'function' &&
    typeof tool.render === 'function' &&
    typeof tool.summary === 'function' &&
    tool.input !== undefined &&
    tool.output !== undefined &&
    tool.hints !== null &&
    typeof tool.hints === 'object'
  )
}

/** Every tool a module exports, in a stable order (by name), each name once. */
export function toolsExportedBy(module: Readonly<Record<string, unknown>>): AnyTool[] {
  const byName = new Map<string, AnyTool>()
  for (const value of Object.values(module)) {
    const candidates = Array.isArray(value) ? value : [value]
    for (const candidate of candidates) {
      if (isToolDefinition(candidate) && !byName.has(candidate.name)) byName.set(candidate.name, candidate)
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/** Options for {@link collectTools}. */
export interface CollectToolsOptions {
  /** Leave out every tool that is not read-only (the MCP `--read-only` flag). */
  readonly readOnly?: boolean
  /** Tool names to leave out (`--disable-tool`); an unknown name fails with NOT_FOUND. */
  readonly disable?: ReadonlyArray<string>
  /** Keep only these names. */
  readonly enable?: ReadonlyArray<string>
  /**
   * The mutation session the mutating tools share (approval policy, "approve all", per-root queue and lock).
   * Default: a fresh session without an approval policy, which denies every change (fine for listing).
   */
  readonly mutations?: MutationSession
}

/**
 * Every tool the product exposes: the read tools of `@codeseam/tool-lsp`, then the mutating tools of
 * `@codeseam/tool-lsp-mutate` (unless `readOnly`), filtered by name.
 */
export function collectTools(options: CollectToolsOptions = {}): AnyTool[] {
  const read = toolsExportedBy(readTools)
  const readNames = new Set(read.map((t) => t.name))
  const mutating = mutationTools(options.mutations ?? new MutationSession()).filter((t) => !readNames.has(t.name))
  const all = [...read, ...mutating]
  const selection: ToolSelection = {
    ...(options.enable === undefined ? {} : { enable: options.enable }),
    ...(options.disable === undefined ? {} : { disable: options.disable }),
  }
  const selected = selectTools(all, selection)
  return options.readOnly === true ? selected.filter((t) => t.hints.readOnly) : selected
}
