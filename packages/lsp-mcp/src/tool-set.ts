import { compareText } from '@codeseam/lsp'
import { readTools, selectTools, type AnyTool, type ToolSelection } from '@codeseam/tool-lsp'
import { MutationSession, mutationTools } from '@codeseam/tool-lsp-mutate'

/**
 * The one place the product's tool list is assembled: the read tools `@codeseam/tool-lsp` lists
 * (`readTools`) and every tool `mutationTools(session)` of `@codeseam/tool-lsp-mutate` creates, so a tool
 * added to either package's list appears in the MCP server and the CLI without touching this package. The list
 * is computed once per server and never changes while it runs: servers starting or crashing show up in
 * results, not in the list.
 */

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
  const read = [...readTools].sort((a, b) => compareText(a.name, b.name))
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
