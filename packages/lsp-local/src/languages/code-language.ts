import { lspOperations } from '@codeseam/lsp'

import type { Support, SupportTable } from '../policy/profile-operations.js'

/*
 * What the servers of programming languages share: they answer nearly every operation, so a record states only
 * what its server lacks (or answers from some version on); every other operation is supported.
 */

/** A programming language's support table: every operation supported but those `lacks` names. */
export function codeLanguageSupport(lacks: Partial<SupportTable>): SupportTable {
  const all = Object.fromEntries(lspOperations.map((operation) => [operation, true])) as { [O in keyof SupportTable]: Support }
  return { ...all, ...lacks }
}

/** The three type-hierarchy operations, each with the same `support` (a server without one, or one from a version on). */
export function typeHierarchy(support: Support): Pick<SupportTable, 'prepareTypeHierarchy' | 'supertypes' | 'subtypes'> {
  return { prepareTypeHierarchy: support, supertypes: support, subtypes: support }
}
