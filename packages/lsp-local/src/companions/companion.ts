import type { LspProviderRequest, LspQueryRequest, LspQueryResult } from '@codeseam/lsp'

import type { CompanionOperation } from '../profile/companion-operations.js'

/**
 * Something answering some of a profile's file operations beside its server: an in-process provider (ruff) or
 * another profile's server. It answers file-scoped requests only; the composition asks it file by file.
 * Which operations a companion may answer, and which companions run in process, is said in the profile
 * vocabulary (`profile/companion-operations.ts`).
 */
export interface Companion {
  /** The id a profile names it by (`ruff`, or a profile id). */
  readonly id: string
  query(request: LspProviderRequest<LspQueryRequest>, signal: AbortSignal): Promise<LspQueryResult>
}

/** A companion bound to the operations one profile gives it. */
export interface BoundCompanion {
  readonly companion: Companion
  readonly operations: ReadonlyArray<CompanionOperation>
}
