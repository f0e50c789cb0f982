import { lspOperations, type LspOperation } from '@codeseam/lsp'

/**
 * Whether a profile's server must answer an operation (its minimum set, held to by the profile suites):
 * `true`, `{ no: why }`, or `{ since: major, why }` when only versions from that major on answer it.
 */
export type Support = true | { readonly no: string } | { readonly since: number; readonly why: string }

/** One entry per operation, so a new seam operation is a compile error here until each profile decides. */
export type SupportTable = { readonly [O in LspOperation]: Support }

/** The operations a table supports, in vocabulary order; with `major`, only those that version answers. */
export function supportedOperations(table: SupportTable, major?: number): LspOperation[] {
  return lspOperations.filter((operation) => {
    const support = table[operation]
    if (support === true) return true
    if ('no' in support) return false
    return major === undefined || major >= support.since
  })
}

const noTypeHierarchy = { no: 'the server has no type hierarchy' }

/** The native TS 7 server (tsgo). */
export const nativeTypeScriptSupport: SupportTable = {
  definition: true,
  typeDefinition: true,
  declaration: { no: 'tsgo does not answer textDocument/declaration' },
  implementation: true,
  references: true,
  hover: true,
  signatureHelp: true,
  documentSymbols: true,
  workspaceSymbols: true,
  prepareCallHierarchy: true,
  incomingCalls: true,
  outgoingCalls: true,
  prepareTypeHierarchy: noTypeHierarchy,
  supertypes: noTypeHierarchy,
  subtypes: noTypeHierarchy,
  diagnostics: true,
  inlayHints: true,
  completion: true,
  codeActions: true,
  prepareRename: true,
  rename: true,
  format: true,
  resolveCodeAction: true,
}

// pyright 1.1.414 advertises code actions but only ever returns "create type stub" for an installed
// third-party package without stubs (organize imports exists only as a command): no fixture can hold it to them.
const pyrightCodeActions = { no: 'pyright only offers "create type stub", which no fixture can exercise' }

/** pyright. */
export const pyrightSupport: SupportTable = {
  definition: true,
  typeDefinition: true,
  declaration: true,
  implementation: { no: 'pyright has no textDocument/implementation' },
  references: true,
  hover: true,
  signatureHelp: true,
  documentSymbols: true,
  workspaceSymbols: true,
  prepareCallHierarchy: true,
  incomingCalls: true,
  outgoingCalls: true,
  prepareTypeHierarchy: noTypeHierarchy,
  supertypes: noTypeHierarchy,
  subtypes: noTypeHierarchy,
  diagnostics: true,
  inlayHints: { no: 'pyright has no inlay hints' },
  completion: true,
  codeActions: pyrightCodeActions,
  prepareRename: true,
  rename: true,
  format: { no: 'pyright does not format' },
  resolveCodeAction: pyrightCodeActions,
}

const standardTypeHierarchy = { since: 17, why: 'the standard LSP type hierarchy came in clangd 17' }

/** clangd, by major version (14 is Debian 12's). */
export const clangdSupport: SupportTable = {
  definition: true,
  typeDefinition: true,
  declaration: true,
  implementation: true,
  references: true,
  hover: true,
  signatureHelp: true,
  documentSymbols: true,
  workspaceSymbols: true,
  prepareCallHierarchy: true,
  incomingCalls: true,
  outgoingCalls: { since: 20, why: 'outgoing calls came in clangd 20' },
  prepareTypeHierarchy: standardTypeHierarchy,
  supertypes: standardTypeHierarchy,
  subtypes: standardTypeHierarchy,
  diagnostics: true,
  inlayHints: { since: 16, why: 'standard inlay hints came in clangd 16' },
  completion: true,
  codeActions: true,
  prepareRename: true,
  rename: true,
  format: true,
  resolveCodeAction: true,
}
