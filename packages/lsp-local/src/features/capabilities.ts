import { lspOperations, type LspOperation } from '@codeseam/lsp'
import { DocumentDiagnosticRequest, type Registration, type ServerCapabilities } from 'vscode-languageserver-protocol/node'

import { featureOf } from './table.js'

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
  const { source } = featureOf(operation)
  // Only a server source is implemented: a companion or derived operation is not offered yet.
  if (source.kind !== 'server') return false
  if (source.enabledBy === 'always') return true
  return source.enabledBy.some((e) => hasCapability(capabilities, registrations, e.capability, e.method))
}

/** Every operation the running server negotiated. */
export function negotiatedOperations(capabilities: ServerCapabilities, registrations: ReadonlyMap<string, Registration>): LspOperation[] {
  return lspOperations.filter((operation) => supportsOperation(operation, capabilities, registrations))
}

/** Whether the server answers textDocument/diagnostic (pull). */
export function supportsPullDiagnostics(capabilities: ServerCapabilities, registrations: ReadonlyMap<string, Registration>): boolean {
  return hasCapability(capabilities, registrations, 'diagnosticProvider', DocumentDiagnosticRequest.method)
}
