import { DocumentDiagnosticRequest, type Registration, type ServerCapabilities } from 'vscode-languageserver-protocol/node'

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

/** Whether the server answers textDocument/diagnostic (pull). */
export function supportsPullDiagnostics(capabilities: ServerCapabilities, registrations: ReadonlyMap<string, Registration>): boolean {
  return hasCapability(capabilities, registrations, 'diagnosticProvider', DocumentDiagnosticRequest.method)
}
