import { lspOperations, type LspOperation } from '@codeseam/lsp'

/**
 * Whether a profile's server must answer an operation (its minimum set, held to by the profile suites):
 * `true`, `{ no: why }`, or `{ since: major, why }` when only versions from that major on answer it. `inLanguage:
 * false` on a `no` says the language itself has no such thing (a Dockerfile has no types): codeseam then derives
 * nothing for it either (RFC 0010 derivations are for servers that lack what their language has).
 */
export type Support = true | { readonly no: string; readonly inLanguage?: false } | { readonly since: number; readonly why: string }

/** Every operation decided: what `supportedOperations`, `languageLacks`, the docs and the profile suites read. */
export type SupportTable = { readonly [O in LspOperation]: Support }

/*
 * A record states its support compactly: what its kind of server gives, except … (`codeSupport`,
 * `documentSupport`). What each kind gives for an operation a record does not name is decided once, in
 * `operationDefaults` below, keyed by every seam operation: a new operation is a compile error there until it is
 * decided for both kinds, or marked `eachRecordDecides` — then every record's exceptions must name it (a compile
 * error in each record until it does).
 */

/** How a reason names the language's files and its server: "YAML has no types", "taplo does not format". */
export interface SupportNames {
  readonly files: string
  readonly verb: 'has' | 'have'
  readonly server: string
}

/** What a record gets for an operation it does not name, by the kind of language its server serves. */
interface OperationDefault {
  /** A programming language's server, which answers nearly every operation. */
  readonly code: Support
  /** The server of a language around the code (configuration, markup, scripts), which reads one document at a time. */
  readonly document: (names: SupportNames) => Support
}

/** An operation with no default: every record states it. */
export const eachRecordDecides = 'each record decides'

const lacking =
  (what: string) =>
  ({ files, verb }: SupportNames): Support => ({ no: `${files} ${verb} no ${what}`, inLanguage: false })
const serverLacks =
  (what: string) =>
  ({ server }: SupportNames): Support => ({ no: `${server} ${what}` })

/** For each operation, what a record that does not name it gets (or that each record must name it). */
export const operationDefaults = {
  definition: { code: true, document: lacking('definitions') },
  typeDefinition: { code: true, document: lacking('types') },
  declaration: { code: true, document: lacking('declarations') },
  implementation: { code: true, document: lacking('implementations') },
  references: { code: true, document: lacking('references') },
  hover: { code: true, document: serverLacks('has no hover') },
  signatureHelp: { code: true, document: lacking('signatures') },
  documentSymbols: { code: true, document: serverLacks('has no outline') },
  workspaceSymbols: { code: true, document: serverLacks('outlines one document at a time') },
  prepareCallHierarchy: { code: true, document: lacking('calls') },
  incomingCalls: { code: true, document: lacking('calls') },
  outgoingCalls: { code: true, document: lacking('calls') },
  prepareTypeHierarchy: { code: true, document: lacking('types') },
  supertypes: { code: true, document: lacking('types') },
  subtypes: { code: true, document: lacking('types') },
  diagnostics: { code: true, document: serverLacks('reports no diagnostics') },
  inlayHints: { code: true, document: serverLacks('has no inlay hints') },
  completion: { code: true, document: serverLacks('has no completion') },
  codeActions: { code: true, document: serverLacks('offers no code actions') },
  prepareRename: { code: true, document: lacking('names to rename') },
  rename: { code: true, document: lacking('names to rename') },
  format: { code: true, document: serverLacks('does not format') },
  resolveCodeAction: { code: true, document: serverLacks('resolves no code actions') },
} as const satisfies { readonly [O in LspOperation]: OperationDefault | typeof eachRecordDecides }

type Defaults = typeof operationDefaults

/** The operations of a defaults table that every record must name. */
export type UndefaultedOperations<D extends { readonly [O in LspOperation]: unknown }> = {
  [O in LspOperation]: D[O] extends typeof eachRecordDecides ? O : never
}[LspOperation]

/** Exceptions to a defaults table: any operation may be stated; those it leaves undefaulted must be. */
export type SupportExceptionsOf<D extends { readonly [O in LspOperation]: unknown }> = Partial<SupportTable> & {
  readonly [O in UndefaultedOperations<D>]: Support
}

/** A record's compact support: only where its server differs from its kind's defaults, plus every undefaulted operation. */
export type SupportExceptions = SupportExceptionsOf<Defaults>

/** An operation's default, seen as any defaults table may hold it. */
const defaultOf = (operation: LspOperation): OperationDefault | typeof eachRecordDecides => operationDefaults[operation]

/** The full table: each operation as `except` states it, else as `kind` picks from its default. */
function expand(kind: (fallback: OperationDefault) => Support, except: SupportExceptions): SupportTable {
  const entry = (operation: LspOperation): Support => {
    const stated = except[operation]
    if (stated !== undefined) return stated
    const fallback = defaultOf(operation)
    // Unreachable while the types hold: `SupportExceptions` requires every undefaulted operation.
    if (fallback === eachRecordDecides) throw new Error(`a support table must state ${operation}`)
    return kind(fallback)
  }
  const table: { [O in LspOperation]?: Support } = {}
  for (const operation of lspOperations) table[operation] = entry(operation)
  return table as SupportTable
}

/** A programming language's server: every operation, except those `except` names (a `no`, or a `since`). */
export function codeSupport(except: SupportExceptions): SupportTable {
  return expand((fallback) => fallback.code, except)
}

/**
 * A document language's server: its language has no definitions, types, calls or names to rename, and its server
 * nothing else, except what `except` names (what it answers, or the language has after all). `language` is how a
 * reason names the files ("YAML has", "stylesheets have"), `server` how it names the server.
 */
export function documentSupport(language: Pick<SupportNames, 'files' | 'verb'>, server: string, except: SupportExceptions): SupportTable {
  const names = { ...language, server }
  return expand((fallback) => fallback.document(names), except)
}

/** The three type-hierarchy operations, each with the same `support` (a server without one, or one from a version on). */
export function typeHierarchy(support: Support): Pick<SupportTable, 'prepareTypeHierarchy' | 'supertypes' | 'subtypes'> {
  return { prepareTypeHierarchy: support, supertypes: support, subtypes: support }
}

/** The three call-hierarchy operations, each with the same `support`. */
export function callHierarchy(support: Support): Pick<SupportTable, 'prepareCallHierarchy' | 'incomingCalls' | 'outgoingCalls'> {
  return { prepareCallHierarchy: support, incomingCalls: support, outgoingCalls: support }
}

/** An operation the server has that codeseam does not offer until a test holds the server to it. */
export const notYet = { no: 'the server has it; codeseam does not offer it until a test holds it to it' } as const

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
