import type { LspOperation, LspProviderRequest, LspQueryRequest, LspQueryResult } from '@codeseam/lsp'

/**
 * The operations a companion can answer beside a profile's server, and how each is composed:
 * `format` the companion alone; `codeActions` and `diagnostics` both answers merged; `resolveCodeAction`
 * whoever listed the action.
 */
export const companionOperations = [
  'format',
  'codeActions',
  'resolveCodeAction',
  'diagnostics',
] as const satisfies ReadonlyArray<LspOperation>

/** An operation a companion may answer. */
export type CompanionOperation = (typeof companionOperations)[number]

/**
 * Something answering some of a profile's file operations beside its server: an in-process provider (ruff) or
 * another profile's server. It answers file-scoped requests only; the composition asks it file by file.
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

/** The companions lsp-local runs in process, by the id a profile names them with. */
export const inProcessCompanionIds = ['ruff'] as const
