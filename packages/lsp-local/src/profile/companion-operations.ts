import type { LspOperation } from '@codeseam/lsp'

/**
 * The operations a companion can answer beside a profile's server, and how each is composed:
 * `format` and `documentSymbols` the companion alone; `codeActions` and `diagnostics` both answers merged;
 * `resolveCodeAction` whoever listed the action.
 */
export const companionOperations = [
  'format',
  'documentSymbols',
  'codeActions',
  'resolveCodeAction',
  'diagnostics',
] as const satisfies ReadonlyArray<LspOperation>

/** An operation a companion may answer. */
export type CompanionOperation = (typeof companionOperations)[number]

/** The companions lsp-local runs in process, by the id a profile names them with. */
export const inProcessCompanionIds = ['ruff'] as const
