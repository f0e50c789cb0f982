import { LspError } from './errors.js'
import { normalizeExtension } from './paths.js'
import type { LspProvider, ProviderId } from './provider.js'
import { lspOperations, type LspOperation } from './vocabulary.js'

/*
 * The validation stage of registration: a provider as given, checked and normalized into what the registry
 * publishes, or refused with INVALID_PROVIDER before anything is reserved.
 */

/** A registered provider as introspection shows it. */
export interface LspProviderInfo {
  readonly id: ProviderId
  readonly extensions: Readonly<Record<string, string>>
  /** Exact file names it serves (RFC 0020); `{}` when none. */
  readonly fileNames: Readonly<Record<string, string>>
  /** Interpreters of `#!` lines it serves (RFC 0020); `{}` when none. */
  readonly interpreters: Readonly<Record<string, string>>
  readonly operations: ReadonlyArray<LspOperation>
}

/** Validates and brands a provider id. */
export function providerId(id: string): ProviderId {
  if (typeof id !== 'string' || id.length === 0 || id.trim() !== id || /\s/.test(id)) {
    throw new LspError('INVALID_PROVIDER', `provider id ${JSON.stringify(id)} must be a non-empty string without whitespace`)
  }
  return id as ProviderId
}

/** The operations of the closed vocabulary, for membership tests. */
export const operationSet: ReadonlySet<string> = new Set(lspOperations)

/** Checks a provider and normalizes its claims; throws INVALID_PROVIDER on the first fault. */
export function validateProvider(provider: LspProvider): LspProviderInfo {
  if (provider === null || typeof provider !== 'object') {
    throw new LspError('INVALID_PROVIDER', 'a provider must be an object with id, extensions, operations and query')
  }
  const id = providerId(provider.id)
  if (typeof provider.query !== 'function') throw new LspError('INVALID_PROVIDER', `provider "${id}" has no query function`)
  const entries = provider.extensions !== null && typeof provider.extensions === 'object' ? Object.entries(provider.extensions) : []
  const fileNames = claimsOf(id, provider.fileNames, 'file name', /^[^/\\\0]+$/, '"Dockerfile" or ".bashrc"')
  const interpreters = claimsOf(id, provider.interpreters, 'interpreter', /^[A-Za-z0-9_.+-]+$/, '"bash" or "python3"')
  if (entries.length === 0 && Object.keys(fileNames).length === 0 && Object.keys(interpreters).length === 0) {
    throw new LspError('INVALID_PROVIDER', `provider "${id}" claims no extensions, file names or interpreters`)
  }
  const extensions: Record<string, string> = {}
  for (const [key, languageId] of entries) {
    const normalized = normalizeExtension(key)
    if (normalized === undefined) {
      throw new LspError('INVALID_PROVIDER', `provider "${id}": "${key}" is not a file extension (expected e.g. ".ts")`)
    }
    if (typeof languageId !== 'string' || languageId.trim().length === 0) {
      throw new LspError('INVALID_PROVIDER', `provider "${id}": extension "${key}" has an empty language id`)
    }
    if (normalized in extensions) {
      throw new LspError('INVALID_PROVIDER', `provider "${id}": two keys normalize to the extension "${normalized}"`)
    }
    extensions[normalized] = languageId
  }
  if (!Array.isArray(provider.operations) || provider.operations.length === 0) {
    throw new LspError('INVALID_PROVIDER', `provider "${id}" declares no operations`)
  }
  for (const operation of provider.operations) {
    if (!operationSet.has(operation)) {
      throw new LspError('INVALID_PROVIDER', `provider "${id}" declares unknown operation "${String(operation)}"`)
    }
  }
  return { id, extensions, fileNames, interpreters, operations: [...new Set(provider.operations)] }
}

/** A provider's optional file-name or interpreter claims, validated: key → non-empty language id. */
function claimsOf(id: string, given: unknown, what: string, shape: RegExp, example: string): Record<string, string> {
  if (given === undefined) return {}
  if (given === null || typeof given !== 'object') throw new LspError('INVALID_PROVIDER', `provider "${id}": ${what}s must be an object`)
  const claims: Record<string, string> = {}
  for (const [key, languageId] of Object.entries(given)) {
    if (!shape.test(key) || key === '.' || key === '..') {
      throw new LspError(
        'INVALID_PROVIDER',
        `provider "${id}": "${key}" is not ${what === 'interpreter' ? 'an' : 'a'} ${what} (expected e.g. ${example})`,
      )
    }
    if (typeof languageId !== 'string' || languageId.trim().length === 0) {
      throw new LspError('INVALID_PROVIDER', `provider "${id}": ${what} "${key}" has an empty language id`)
    }
    claims[key] = languageId
  }
  return claims
}
