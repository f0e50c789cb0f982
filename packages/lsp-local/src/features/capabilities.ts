import { lspOperations, type LspOperation } from '@codeseam/lsp'
import {
  CallHierarchyPrepareRequest,
  CodeActionRequest,
  CompletionRequest,
  DeclarationRequest,
  DefinitionRequest,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ImplementationRequest,
  InlayHintRequest,
  ReferencesRequest,
  RenameRequest,
  SignatureHelpRequest,
  TypeDefinitionRequest,
  TypeHierarchyPrepareRequest,
  WorkspaceSymbolRequest,
  type Registration,
  type ServerCapabilities,
} from 'vscode-languageserver-protocol/node'

/** The server capability and the dynamic-registration method that enable each operation. */
const enablers: {
  readonly [O in LspOperation]: ReadonlyArray<{ readonly capability: keyof ServerCapabilities; readonly method: string }> | 'always'
} = {
  definition: [{ capability: 'definitionProvider', method: DefinitionRequest.method }],
  typeDefinition: [{ capability: 'typeDefinitionProvider', method: TypeDefinitionRequest.method }],
  declaration: [{ capability: 'declarationProvider', method: DeclarationRequest.method }],
  implementation: [{ capability: 'implementationProvider', method: ImplementationRequest.method }],
  references: [{ capability: 'referencesProvider', method: ReferencesRequest.method }],
  hover: [{ capability: 'hoverProvider', method: HoverRequest.method }],
  signatureHelp: [{ capability: 'signatureHelpProvider', method: SignatureHelpRequest.method }],
  documentSymbols: [{ capability: 'documentSymbolProvider', method: DocumentSymbolRequest.method }],
  workspaceSymbols: [{ capability: 'workspaceSymbolProvider', method: WorkspaceSymbolRequest.method }],
  prepareCallHierarchy: [{ capability: 'callHierarchyProvider', method: CallHierarchyPrepareRequest.method }],
  incomingCalls: [{ capability: 'callHierarchyProvider', method: CallHierarchyPrepareRequest.method }],
  outgoingCalls: [{ capability: 'callHierarchyProvider', method: CallHierarchyPrepareRequest.method }],
  prepareTypeHierarchy: [{ capability: 'typeHierarchyProvider', method: TypeHierarchyPrepareRequest.method }],
  supertypes: [{ capability: 'typeHierarchyProvider', method: TypeHierarchyPrepareRequest.method }],
  subtypes: [{ capability: 'typeHierarchyProvider', method: TypeHierarchyPrepareRequest.method }],
  // Every server can push diagnostics; pull is used when offered.
  diagnostics: 'always',
  inlayHints: [{ capability: 'inlayHintProvider', method: InlayHintRequest.method }],
  completion: [{ capability: 'completionProvider', method: CompletionRequest.method }],
  codeActions: [{ capability: 'codeActionProvider', method: CodeActionRequest.method }],
  prepareRename: [{ capability: 'renameProvider', method: RenameRequest.method }],
  rename: [{ capability: 'renameProvider', method: RenameRequest.method }],
  format: [
    { capability: 'documentFormattingProvider', method: DocumentFormattingRequest.method },
    { capability: 'documentRangeFormattingProvider', method: DocumentRangeFormattingRequest.method },
  ],
  resolveCodeAction: [{ capability: 'codeActionProvider', method: CodeActionRequest.method }],
}

/** Whether a capability or a dynamic registration for `method` is present. */
export function hasCapability(
  capabilities: ServerCapabilities,
  registrations: ReadonlyMap<string, Registration>,
  capability: keyof ServerCapabilities,
  method: string,
): boolean {
  const value = capabilities[capability]
  if (value !== undefined && value !== null && value !== false) return true
  for (const registration of registrations.values()) if (registration.method === method) return true
  return false
}

/** Whether the running server negotiated an operation (static capability or dynamic registration). */
export function supportsOperation(
  operation: LspOperation,
  capabilities: ServerCapabilities,
  registrations: ReadonlyMap<string, Registration>,
): boolean {
  const enabler = enablers[operation]
  if (enabler === 'always') return true
  return enabler.some((e) => hasCapability(capabilities, registrations, e.capability, e.method))
}

/** Every operation the running server negotiated. */
export function negotiatedOperations(capabilities: ServerCapabilities, registrations: ReadonlyMap<string, Registration>): LspOperation[] {
  return lspOperations.filter((operation) => supportsOperation(operation, capabilities, registrations))
}

/** Whether the server answers textDocument/diagnostic (pull). */
export function supportsPullDiagnostics(capabilities: ServerCapabilities, registrations: ReadonlyMap<string, Registration>): boolean {
  return hasCapability(capabilities, registrations, 'diagnosticProvider', DocumentDiagnosticRequest.method)
}
