import type { LspOperation } from '@codeseam/lsp'
import type { ClientCapabilities, Registration, ServerCapabilities } from 'vscode-languageserver-protocol/node'

import type { ServerProfile } from '../profile/profiles.js'

/**
 * What the pool needs from the feature records (`features/`), handed in by the host's wiring (`host.ts`) so
 * that the pool, a floor below the records, never imports them.
 */
export interface FeatureFacts {
  /** What the host tells a profile's server it understands: the feature records' client capabilities and its language record's. */
  clientCapabilities(profile: ServerProfile): ClientCapabilities
  /** Every operation a running server negotiated, for its status. */
  negotiatedOperations(capabilities: ServerCapabilities, registrations: ReadonlyMap<string, Registration>): LspOperation[]
}
