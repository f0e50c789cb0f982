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
 * The one error type of the seam. `code` is stable and meant to be switched on; `message` is for people
 * and models and says what to do next.
 */
export class LspError extends Error {
  override readonly name = 'LspError'
  readonly code: LspErrorCode
  readonly data: LspErrorData

  constructor(code: LspErrorCode, message: string, options: { cause?: unknown; data?: LspErrorData } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.data = options.data ?? {}
  }

  /** A JSON-safe view for wire formats (MCP results, CLI `--json`). */
  toJSON(): { code: LspErrorCode; message: string; data: LspErrorData } {
    return { code: this.code, message: this.message, data: this.data }
  }
}

/** True for an {@link LspError}, optionally of one of the given codes. */
export function isLspError(value: unknown, ...codes: ReadonlyArray<LspErrorCode>): value is LspError {
  return value instanceof LspError && (codes.length === 0 || codes.includes(value.code))
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
