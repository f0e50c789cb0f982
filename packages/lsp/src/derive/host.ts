import * as nodePath from 'node:path'

import { extensionOf } from '../paths.js'
import type { LspProviderRequest } from '../provider.js'
import { resultMeta } from '../service.js'
import type { LspOperation, LspQueryRequest, LspQueryResult, LspResultFor } from '../vocabulary.js'

/**
 * What a provider lends a derivation: its own native answers and the text of files under the root. Any
 * provider can derive (lsp-local, the VS Code adapter, your own) by implementing these two.
 */
export interface LspDerivationHost {
  /**
   * Asks the provider one of the operations a derivation is built from (`documentSymbols`, `definition`,
   * `references`), natively. Throws {@link LspError} as a query does; the derivation never swallows it.
   */
  ask<R extends LspQueryRequest>(request: R): Promise<LspResultFor<R['operation']>>
  /** The text of a file under the root, as the provider's server sees it. */
  read(path: string): Promise<string>
}

/** Operations a provider can derive when its server lacks them, and the native ones each is built from. */
export const derivedOperations = {
  prepareTypeHierarchy: ['documentSymbols', 'definition'],
  supertypes: ['documentSymbols', 'definition'],
  subtypes: ['documentSymbols', 'references'],
  implementation: ['documentSymbols', 'definition', 'references'],
} as const satisfies Partial<Record<LspOperation, ReadonlyArray<LspOperation>>>

/** An operation that can be derived. */
export type LspDerivableOperation = keyof typeof derivedOperations

export function isDerivable(operation: LspOperation): operation is LspDerivableOperation {
  return Object.hasOwn(derivedOperations, operation)
}

/**
 * Whether a provider whose server offers `native` can derive `operation`: it lacks the operation and has
 * every operation the derivation is built from.
 */
export function canDerive(operation: LspOperation, native: ReadonlyArray<LspOperation>): boolean {
  return isDerivable(operation) && !native.includes(operation) && derivedOperations[operation].every((from) => native.includes(from))
}

/**
 * The host a provider lends, from its own native query and file reader: each native question carries the
 * language id of the file it is about (by the provider's extensions; the request's own otherwise), and a file
 * the provider does not serve (a definition landing in JSON or another language) outlines nothing.
 */
export function providerDerivationHost(
  provider: {
    readonly id: string
    readonly extensions: Readonly<Record<string, string>>
    readonly fileNames?: Readonly<Record<string, string>>
  },
  request: { readonly languageId: string },
  native: (asked: LspProviderRequest<LspQueryRequest>) => Promise<LspQueryResult>,
  read: (path: string) => Promise<string>,
): LspDerivationHost {
  return {
    async ask(asked) {
      const path = (asked as { path?: unknown }).path
      const languageId =
        typeof path === 'string'
          ? (provider.fileNames?.[nodePath.basename(path)] ?? provider.extensions[extensionOf(path) ?? ''])
          : undefined
      if (languageId === undefined && asked.operation === 'documentSymbols') {
        return { kind: 'documentSymbols', symbols: [], meta: resultMeta(provider.id) } as never
      }
      return (await native({ ...asked, languageId: languageId ?? request.languageId })) as never
    },
    read,
  }
}
