import { lspOperations, type LspOperation } from '@codeseam/lsp'

/**
 * Whether a profile's server must answer an operation (its minimum set, held to by the profile suites):
 * `true`, `{ no: why }`, or `{ since: major, why }` when only versions from that major on answer it. `inLanguage:
 * false` on a `no` says the language itself has no such thing (a Dockerfile has no types): codeseam then derives
 * nothing for it either (RFC 0010 derivations are for servers that lack what their language has).
 */
export type Support = true | { readonly no: string; readonly inLanguage?: false } | { readonly since: number; readonly why: string }

/** One entry per operation, so a new seam operation is a compile error here until each profile decides. */
export type SupportTable = { readonly [O in LspOperation]: Support }

/** The operations a table supports, in vocabulary order; with `major`, only those that version answers. */
export function supportedOperations(table: SupportTable, major?: number): LspOperation[] {
  return lspOperations.filter((operation) => {
    const support = table[operation]
    if (support === true) return true
    if ('no' in support) return false
    return major === undefined || major >= support.since
  })
}

/** Whether the language itself lacks what the operation asks for (so nothing may be derived for it). */
export function languageLacks(table: SupportTable, operation: LspOperation): boolean {
  const support = table[operation]
  return typeof support === 'object' && 'no' in support && support.inLanguage === false
}
