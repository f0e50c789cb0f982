// Derived operations (type hierarchy, implementation) where VS Code's providers lack them. VS Code cannot
// say whether a provider is registered for a language, so when to derive is decided here by rule
// (rfc/0005, addendum "derived operations"); the derivation itself is the seam's (`deriveOperation`).
import {
  LspError,
  canDerive,
  deriveOperation,
  derivedOperations,
  isDerivable,
  isDerivedItem,
  lspOperations,
  providerDerivationHost,
  type LspDerivableOperation,
  type LspDerivationHost,
  type LspOperation,
  type LspProviderRequest,
  type LspQueryResult,
  type LspRequestFor,
} from '@codeseam/lsp'

import { containedPath } from './containment.js'
import type { Deadline } from './deadline.js'
import { readDocumentText } from './documents.js'

/** The provider options about derivation (see {@link VsCodeProviderOptions}). */
export interface DerivationOptions {
  /**
   * Answer type hierarchy and implementation by derivation where VS Code's providers lack them. Default
   * true; false leaves every answer to VS Code (and claims only `operations`).
   */
  readonly derive?: boolean
  /**
   * Operations a language's extensions do not provide, by language id (e.g. `{ python: ['implementation'] }`):
   * derived for that language without asking VS Code, which cannot tell a missing provider from an empty
   * answer. Only derivable operations (`prepareTypeHierarchy`, `supertypes`, `subtypes`, `implementation`).
   */
  readonly missingProviders?: Readonly<Record<string, ReadonlyArray<LspDerivableOperation>>>
}

/**
 * How one request is answered: by VS Code; by derivation; or by VS Code first and, when it answers no item,
 * by derivation if that finds a type at the position.
 */
export type Route = 'native' | 'derive' | 'nativeThenDerive'

/** What the provider claims and derives, decided once from its options. */
export interface DerivationPlan {
  /** Every operation the provider claims: `operations`, plus what is derived outright from them. */
  readonly operations: ReadonlyArray<LspOperation>
  /** Operations some request may answer by derivation, for the status. */
  readonly derivedOperations: ReadonlyArray<LspOperation>
  route(request: LspProviderRequest): Route
}

const typeHierarchy: ReadonlyArray<LspOperation> = ['prepareTypeHierarchy', 'supertypes', 'subtypes']

export function derivationPlan(native: ReadonlyArray<LspOperation>, options: DerivationOptions): DerivationPlan {
  const enabled = options.derive !== false
  const missing = options.missingProviders ?? {}
  const buildable = (op: LspOperation) => isDerivable(op) && derivedOperations[op].every((from) => native.includes(from))
  for (const [languageId, ops] of Object.entries(missing)) {
    for (const op of ops) {
      if (!enabled || !buildable(op)) {
        throw new LspError(
          'INVALID_PROVIDER',
          enabled
            ? `missingProviders.${languageId} lists ${JSON.stringify(op)}, which cannot be derived from the operations offered (${native.join(', ')})`
            : 'missingProviders needs derivation: drop `derive: false`',
        )
      }
    }
  }
  const outright = enabled ? lspOperations.filter((op) => canDerive(op, native)) : []
  const operations = [...native, ...outright]
  // VS Code first, then derivation: a prepare that finds nothing, and the follow-ups of the items it derives.
  const fallback = enabled && native.includes('prepareTypeHierarchy') && buildable('prepareTypeHierarchy')
  const listed = new Set(Object.values(missing).flat())
  const derived = lspOperations.filter(
    (op) =>
      operations.includes(op) &&
      buildable(op) &&
      (outright.includes(op) || listed.has(op as LspDerivableOperation) || (fallback && typeHierarchy.includes(op))),
  )
  return {
    operations,
    derivedOperations: derived,
    route(request) {
      const op = request.operation
      if (!enabled || !isDerivable(op)) return 'native'
      // An item a derivation made has no VS Code item behind it: its follow-ups are derived too.
      if ('item' in request && isDerivedItem(request.item)) return 'derive'
      if (!native.includes(op)) return buildable(op) ? 'derive' : 'native'
      if (missing[request.languageId]?.includes(op)) return 'derive'
      return op === 'prepareTypeHierarchy' && fallback ? 'nativeThenDerive' : 'native'
    },
  }
}

/**
 * What the adapter lends a derivation: `ask` is the adapter's own native path (never derived again), within
 * the operation's one deadline; `read` is the document as VS Code holds it (the buffer when open, else disk).
 */
export function derivationHost(
  providerId: string,
  extensions: Readonly<Record<string, string>>,
  request: LspProviderRequest,
  root: string,
  deadline: Deadline,
  native: (asked: LspProviderRequest) => Promise<LspQueryResult>,
): LspDerivationHost {
  return providerDerivationHost({ id: providerId, extensions }, request, native, (path) =>
    readDocumentText(containedPath(root, path), deadline),
  )
}

/** Derives the request's operation (which must be derivable) through `host`. */
export function derive(request: LspProviderRequest, host: LspDerivationHost): Promise<LspQueryResult> {
  const operation = request.operation as LspDerivableOperation
  return deriveOperation(operation, request as unknown as LspRequestFor<typeof operation>, host)
}
