import type { LspOperation, LspProviderRequest, LspRequestFor, LspResultFor, operationInfo } from '@codeseam/lsp'
import type { ClientCapabilities, ServerCapabilities } from 'vscode-languageserver-protocol/node'

import type { OperationContext } from './context.js'

/** A server capability, and the method a dynamic registration of it names. */
export interface Enabler {
  readonly capability: keyof ServerCapabilities
  readonly method: string
}

/** Sends an operation's request to the server and translates the answer into the seam's result. */
export type Run<O extends LspOperation> = (
  request: LspProviderRequest<LspRequestFor<O>>,
  context: OperationContext,
) => Promise<LspResultFor<O>>

/**
 * Answered by the profile's own language server: the capability check, the client capabilities it needs, and
 * the request (or, for an operation spanning several servers or waiting on pushes, the provider's own code).
 */
export interface ServerSource<O extends LspOperation> {
  /** The server offers the operation when any of these is advertised or registered; `always`: every server does. */
  readonly enabledBy: ReadonlyArray<Enabler> | 'always'
  /** What the host must tell the server it understands for this operation; the host sends the union of all records. */
  readonly client: ClientCapabilities
  /** The request and its translation, or why the provider answers it itself. */
  readonly run: Run<O> | { readonly byProvider: string }
}

/**
 * What the server needs loaded before it answers. `document`: the document synced (its own project loads
 * with it). `everyProject`: every project under the root loaded first; the answer carries coverage, and a
 * server's first such answer is confirmed by asking again. An operation the seam says covers every project
 * must be `everyProject` (checked by the type of {@link Feature.scope}).
 */
export type FeatureScope<O extends LspOperation> = (typeof operationInfo)[O]['coversEveryProject'] extends true
  ? 'everyProject'
  : 'document' | 'everyProject'

/** Everything lsp-local knows about one operation. */
export interface Feature<O extends LspOperation> {
  readonly scope: FeatureScope<O>
  /** An empty answer while the server is still indexing is asked again (within the deadline) once it is quiet. */
  readonly retryWhenEmpty: boolean
  /**
   * Who answers: the profile's own server. A companion answering beside it (ruff beside pyright) is the
   * profile's choice, not the operation's: `ServerProfile.companions`, composed in companions/compose.ts. An
   * operation the server lacks may be derived from others ({@link Feature.whenMissing}).
   */
  readonly source: ServerSource<O>
  /**
   * When the running server does not offer the operation: `derived` — built from the operations the seam's
   * `derivedOperations` table names, if the server offers those (RFC 0010, features/derived.ts).
   */
  readonly whenMissing?: 'derived'
}

/** The table type: one record per operation, so a new operation is a compile error until it has one. */
export type FeatureTable = { readonly [O in LspOperation]: Feature<O> }
