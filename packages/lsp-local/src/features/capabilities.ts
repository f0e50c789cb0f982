import { lspOperations, type LspOperation } from '@codeseam/lsp'
import type { Registration, ServerCapabilities } from 'vscode-languageserver-protocol/node'

import { hasCapability } from '../server/capabilities.js'
import { featureOf } from './table.js'

/** Whether the running server negotiated an operation (static capability or dynamic registration). */
export function supportsOperation(
  operation: LspOperation,
  capabilities: ServerCapabilities,
  registrations: ReadonlyMap<string, Registration>,
): boolean {
  const { source } = featureOf(operation)
  if (source.enabledBy === 'always') return true
  return source.enabledBy.some((e) => hasCapability(capabilities, registrations, e.capability, e.method))
}

/** Every operation the running server negotiated. */
export function negotiatedOperations(capabilities: ServerCapabilities, registrations: ReadonlyMap<string, Registration>): LspOperation[] {
  return lspOperations.filter((operation) => supportsOperation(operation, capabilities, registrations))
}
