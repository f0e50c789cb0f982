/**
 * The stable error codes callers route on. A code never changes meaning; new codes may be added.
 */
export const lspErrorCodes = [
  /** A provider registration is malformed (empty id, bad extension, …). */
  'INVALID_PROVIDER',
  /** A registration collides with an existing provider id, extension or workspace root. Registry only. */
  'CONFLICT',
  /** No provider or workspace can serve the request, or its server cannot be started. */
  'UNAVAILABLE',
  /** The selected provider does not support the operation. Never reported as an empty result. */
  'UNSUPPORTED_OPERATION',
  /** The service or provider was disposed. */
  'DISPOSED',
  /** The request's deadline passed. */
  'TIMEOUT',
  /** The caller aborted the request. */
  'CANCELLED',
  /** The language server process died while serving the request. */
  'SERVER_CRASHED',
  /** The language server answered with an error. */
  'SERVER_ERROR',
  /** The provider or server answered with something the contract does not allow. */
  'MALFORMED_RESPONSE',
  /** A path or URI resolves outside every workspace root. */
  'OUTSIDE_WORKSPACE',
  /** A file, symbol or item does not exist. `data.nearest` may list close names. */
  'NOT_FOUND',
  /** A target matches several things. `data.candidates` lists them. */
  'AMBIGUOUS',
  /** A file changed underneath: its version or content hash no longer matches. */
  'STALE_VERSION',
  /** A caller-supplied argument is invalid (bad position, empty name, …). */
  'INVALID_ARGUMENT',
  /** The approval callback refused a mutation. */
  'APPROVAL_DENIED',
  /** Writing to disk (or a buffer) failed; the applier rolled back what it could. */
  'WRITE_FAILED',
  /** An outcome may or may not have happened (a timed-out command, an unconfirmed save). */
  'UNCERTAIN',
  /** The operation would run code the untrusted workspace chooses. */
  'UNTRUSTED',
  /**
   * An edit would leave uses of what it changes unchanged (a rename that misses references). `data.leftBehind`
   * names them; the caller may accept a partial edit explicitly (RFC 0018).
   */
  'INCOMPLETE_EDIT',
] as const

/** A stable error code; see {@link lspErrorCodes}. */
export type LspErrorCode = (typeof lspErrorCodes)[number]

/** A candidate listed by an AMBIGUOUS error. */
export interface LspCandidate {
  readonly label: string
  readonly [key: string]: unknown
}

/** Structured data that accompanies some codes. */
export interface LspErrorData {
  /** AMBIGUOUS: what matched. */
  readonly candidates?: ReadonlyArray<LspCandidate>
  /** NOT_FOUND: the closest names that do exist. */
  readonly nearest?: ReadonlyArray<string>
  /** Anything else a provider wants to attach (stderr tail, provider id, path, …). */
  readonly [key: string]: unknown
}

/**
 * The data each code carries, parallel to `resultKindByOperation`: {@link isLspError} with a code narrows
 * `error.data` to it. Every shape stays open (`LspErrorData`'s index signature) for what a backend adds.
 * A code without an entry fails to compile (`LspErrorDataFor` indexes this by code; test/errors.test.ts also compares the keys).
 */
export interface LspErrorDataByCode {
  readonly INVALID_PROVIDER: LspErrorData
  /** Which registration it collides with. */
  readonly CONFLICT: LspErrorData & { readonly providerId?: string; readonly extension?: string; readonly owner?: string }
  /**
   * What could not serve: the profile and root, the limit that was hit, the roots that are open; for a file
   * over a per-file limit (RFC 0013) the file, which limit, its value and ceiling, and how to raise it; for
   * an answer over the message limit (`maxMessageBytes`, RFC 0014) its size and the ceiling.
   */
  readonly UNAVAILABLE: LspErrorData & {
    readonly profile?: string
    readonly root?: string
    readonly maxServers?: number
    readonly path?: string
    readonly limit?: 'maxFileBytes' | 'maxLineLength' | 'binary' | 'notUtf8' | 'maxMessageBytes'
    readonly value?: number
    readonly ceiling?: number
    readonly raise?: string
    readonly open?: ReadonlyArray<string>
    readonly extension?: string
    readonly registered?: ReadonlyArray<string>
  }
  readonly UNSUPPORTED_OPERATION: LspErrorData & { readonly providerId?: string; readonly profile?: string; readonly operation?: string }
  readonly DISPOSED: LspErrorData
  readonly TIMEOUT: LspErrorData & { readonly profile?: string }
  readonly CANCELLED: LspErrorData
  readonly SERVER_CRASHED: LspErrorData & { readonly profile?: string; readonly stderr?: string }
  readonly SERVER_ERROR: LspErrorData & { readonly path?: string }
  readonly MALFORMED_RESPONSE: LspErrorData & { readonly providerId?: string; readonly uri?: string; readonly path?: string }
  readonly OUTSIDE_WORKSPACE: LspErrorData & { readonly path?: string; readonly uri?: string; readonly root?: string }
  /** The closest names that do exist, when a symbol was looked for. */
  readonly NOT_FOUND: LspErrorData & { readonly nearest?: ReadonlyArray<string>; readonly path?: string }
  /** What matched: always listed. */
  readonly AMBIGUOUS: LspErrorData & { readonly candidates: ReadonlyArray<LspCandidate> }
  readonly STALE_VERSION: LspErrorData & { readonly path?: string }
  /** The arguments that are wrong, by input path, when the caller's input itself is (not a server's refusal). */
  readonly INVALID_ARGUMENT: LspErrorData & { readonly issues?: ReadonlyArray<{ readonly path: string; readonly message: string }> }
  readonly APPROVAL_DENIED: LspErrorData
  readonly WRITE_FAILED: LspErrorData
  readonly UNCERTAIN: LspErrorData
  readonly UNTRUSTED: LspErrorData & { readonly profile?: string; readonly root?: string }
  /** The uses the edit would leave unchanged (workspace-relative path, 1-based line, the line's text). */
  readonly INCOMPLETE_EDIT: LspErrorData & {
    readonly leftBehind?: ReadonlyArray<{ readonly path: string; readonly line: number; readonly column: number; readonly snippet: string }>
  }
}

/** The data of one code (a union of codes: any of theirs). */
export type LspErrorDataFor<C extends LspErrorCode> = LspErrorDataByCode[C]

/** The options of an error: its cause, and its data — required where the code's data has required fields. */
export type LspErrorOptions<C extends LspErrorCode> = { readonly cause?: unknown } & ({} extends LspErrorDataFor<C>
  ? { readonly data?: LspErrorDataFor<C> }
  : { readonly data: LspErrorDataFor<C> })

/**
 * The one error type of the seam. `code` is stable and meant to be switched on; `message` is for people
 * and models and says what to do next; `data` is typed by code ({@link LspErrorDataByCode}).
 */
export class LspError<C extends LspErrorCode = LspErrorCode> extends Error {
  override readonly name = 'LspError'
  readonly code: C
  readonly data: LspErrorDataFor<C>

  constructor(
    code: C,
    message: string,
    ...[options]: {} extends LspErrorDataFor<C> ? [options?: LspErrorOptions<C>] : [options: LspErrorOptions<C>]
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.data = (options?.data ?? {}) as LspErrorDataFor<C>
  }

  /** A JSON-safe view for wire formats (MCP results, CLI `--json`). */
  toJSON(): { code: C; message: string; data: LspErrorDataFor<C> } {
    return { code: this.code, message: this.message, data: this.data }
  }
}

/** True for an {@link LspError}, optionally of one of the given codes (then `data` is typed by those codes). */
export function isLspError<C extends LspErrorCode = LspErrorCode>(value: unknown, ...codes: ReadonlyArray<C>): value is LspError<C> {
  return value instanceof LspError && (codes.length === 0 || (codes as ReadonlyArray<LspErrorCode>).includes(value.code))
}

/**
 * Wraps anything thrown by foreign code into an LspError so callers can always route on `code`.
 * An LspError passes through unchanged.
 */
export function toLspError(cause: unknown, fallback: LspErrorCode, context: string): LspError {
  if (cause instanceof LspError) return cause
  const detail = cause instanceof Error ? cause.message : String(cause)
  return new LspError(fallback, `${context}: ${detail}`, { cause })
}
