import type { LspOperation } from '@codeseam/lsp'

/** A tool of this package. */
type ReadToolName =
  | 'code_symbols'
  | 'code_navigate'
  | 'code_hierarchy'
  | 'code_hover'
  | 'code_diagnostics'
  | 'code_inlay_hints'
  | 'code_completions'
  | 'code_status'

/** Where a model reaches an operation: a read tool here, or an edit tool of @codeseam/tool-lsp-mutate. */
export type OperationTool = { readonly read: ReadToolName } | { readonly edit: string }

/**
 * Which tool exposes each seam operation. One entry per operation: a new operation is a compile error here
 * until a tool asks it (or the edit tools do), so no operation is added that no model can reach.
 */
export const toolByOperation = {
  definition: { read: 'code_navigate' },
  typeDefinition: { read: 'code_navigate' },
  declaration: { read: 'code_navigate' },
  implementation: { read: 'code_navigate' },
  references: { read: 'code_navigate' },
  hover: { read: 'code_hover' },
  // Asked along with hover when the provider offers it.
  signatureHelp: { read: 'code_hover' },
  documentSymbols: { read: 'code_symbols' },
  workspaceSymbols: { read: 'code_symbols' },
  prepareCallHierarchy: { read: 'code_hierarchy' },
  incomingCalls: { read: 'code_hierarchy' },
  outgoingCalls: { read: 'code_hierarchy' },
  prepareTypeHierarchy: { read: 'code_hierarchy' },
  supertypes: { read: 'code_hierarchy' },
  subtypes: { read: 'code_hierarchy' },
  diagnostics: { read: 'code_diagnostics' },
  inlayHints: { read: 'code_inlay_hints' },
  completion: { read: 'code_completions' },
  codeActions: { edit: 'code_actions' },
  resolveCodeAction: { edit: 'code_actions' },
  prepareRename: { edit: 'code_rename' },
  rename: { edit: 'code_rename' },
  format: { edit: 'code_format' },
} as const satisfies { readonly [O in LspOperation]: OperationTool }
