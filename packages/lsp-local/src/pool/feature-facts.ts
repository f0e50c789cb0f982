import type { LspOperation } from '@codeseam/lsp'
import type { ClientCapabilities, Registration, ServerCapabilities } from 'vscode-languageserver-protocol/node'

/**
 * What the pool needs from the feature records (`features/`), handed in by the host's wiring (`host.ts`) so
 * that the pool, a floor below the records, never imports them.
 */
export interface FeatureFacts {
  /** What the host tells every server it starts it understands: the records' client capabilities. */
  readonly clientCapabilities: ClientCapabilities
  /** Every operation a running server negotiated, for its status. */
  negotiatedOperations(capabilities: ServerCapabilities, registrations: ReadonlyMap<string, Registration>): LspOperation[]
}
