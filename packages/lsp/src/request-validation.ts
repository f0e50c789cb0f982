import * as nodePath from 'node:path'

import { LspError } from './errors.js'
import { normalizeRoot } from './paths.js'
import type { LspReadAlong } from './provider.js'
import { operationSet } from './provider-validation.js'
import { operationInfo, type LspOperationScope, type LspQueryRequest } from './vocabulary.js'

/*
 * The validation stage of a query: what the caller sent, checked before any provider is chosen, in the order the
 * service has always checked it (the first fault found is the error the caller sees).
 */

function isNonNegativeInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

function validatePosition(request: LspQueryRequest): void {
  if (!('position' in request)) return
  const position: unknown = request.position
  if (
    position === null ||
    typeof position !== 'object' ||
    !isNonNegativeInteger((position as { line?: unknown }).line) ||
    !isNonNegativeInteger((position as { character?: unknown }).character)
  ) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `position ${JSON.stringify(position)} is invalid: line and character must be zero-based non-negative integers`,
    )
  }
}

/** Whether a string is well-formed UTF-16: no surrogate without its pair (text no UTF-8 encoder can carry). */
const wellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed()

/**
 * What {@link illFormedText} does not walk: the caller's read-along snapshot (its text is a whole file, decoded
 * from UTF-8 by the seam, so well-formed; scanning it on every query would cost milliseconds on a large file)
 * and the seam's own resolved file.
 */
const notCallerText: ReadonlySet<string> = new Set(['document', 'file'])

/** Where, in a request, the first string with a lone surrogate is (`newName`, `only[0]`), if any. */
function illFormedText(value: unknown, where: string, depth = 0): string | undefined {
  if (typeof value === 'string') return wellFormed(value) ? undefined : where
  if (value === null || typeof value !== 'object' || depth > 8) return undefined
  for (const [key, child] of Object.entries(value)) {
    if (depth === 0 && notCallerText.has(key)) continue
    const found = illFormedText(child, Array.isArray(value) ? `${where}[${key}]` : where === '' ? key : `${where}.${key}`, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Refuses a request with a string that is not well-formed Unicode (a lone surrogate, e.g. a rename's
 * `newName: "\ud800"`): no JSON-RPC peer can decode it, and the native TypeScript server, for one, drops
 * the whole message and never answers, so the call would hang until its deadline.
 */
function validateText(request: LspQueryRequest): void {
  const where = illFormedText(request, '')
  if (where !== undefined) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `${where} is not well-formed Unicode: it has a lone surrogate (a UTF-16 code unit U+D800–U+DFFF without its pair); send text a language server can read`,
    )
  }
}

/** A query that passed validation: its normalized root, its operation's scope, and its file path if it names one. */
export interface ValidatedQuery {
  readonly request: LspQueryRequest & LspReadAlong
  readonly root: string
  readonly scope: LspOperationScope
  readonly filePath: string | undefined
}

/** The request with its `askedAt` (RFC 0036) checked: a finite number, never later than now. */
function withAskedAt(request: LspQueryRequest & LspReadAlong): LspQueryRequest & LspReadAlong {
  const { askedAt } = request
  if (askedAt === undefined) return request
  if (typeof askedAt !== 'number' || !Number.isFinite(askedAt)) {
    throw new LspError('INVALID_ARGUMENT', `askedAt ${JSON.stringify(askedAt)} must be a moment of this process's performance.now()`)
  }
  const now = performance.now()
  return askedAt <= now ? request : { ...request, askedAt: now }
}

/** Checks a query before it is routed; throws CANCELLED or INVALID_ARGUMENT on the first fault. */
export function validateQuery(request: LspQueryRequest & LspReadAlong, signal: AbortSignal | undefined): ValidatedQuery {
  if (signal?.aborted) throw new LspError('CANCELLED', 'the request was cancelled before it started')
  if (request === null || typeof request !== 'object' || !operationSet.has(request.operation)) {
    throw new LspError('INVALID_ARGUMENT', `unknown operation ${JSON.stringify((request as { operation?: unknown } | null)?.operation)}`)
  }
  if (typeof request.root !== 'string' || !nodePath.isAbsolute(request.root)) {
    throw new LspError('INVALID_ARGUMENT', `request.root ${JSON.stringify(request.root)} must be an absolute workspace root`)
  }
  validatePosition(request)
  validateText(request)
  const root = normalizeRoot(request.root)
  const scope = operationInfo[request.operation].scope
  if (request.operation === 'workspaceSymbols' && (typeof request.query !== 'string' || request.query.trim() === '')) {
    throw new LspError('INVALID_ARGUMENT', 'workspaceSymbols needs a non-empty query: give part of a symbol name')
  }
  const filePath = 'path' in request && typeof request.path === 'string' ? request.path : undefined
  return { request: withAskedAt(request), root, scope, filePath }
}
