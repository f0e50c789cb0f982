import { Context, Effect, Layer } from 'effect'

import { LspError, toLspError } from './errors.js'
import type { LspProvider, LspWorkspace } from './provider.js'
import { createLsp, type LspService } from './service.js'
import type { LspQueryRequest, LspResultFor } from './vocabulary.js'

/** `ctx.lsp` as an Effect service. Its layer creates a service and disposes it when the layer's scope closes. */
export class Lsp extends Context.Service<Lsp, LspService>()('@codeseam/lsp/Lsp') {
  /** A fresh service, disposed with the layer. */
  static readonly layer: Layer.Layer<Lsp> = Layer.effect(
    Lsp,
    Effect.acquireRelease(
      Effect.sync(() => createLsp()),
      (lsp) => Effect.promise(() => lsp.dispose()),
    ),
  )
}

/** Registers a provider for the lifetime of the calling scope. Fails with the registry's LspError. */
export const registerProviderScoped = (provider: LspProvider) =>
  Effect.gen(function* () {
    const lsp = yield* Lsp
    yield* Effect.acquireRelease(
      Effect.try({ try: () => lsp.registerProvider(provider), catch: (e) => toLspError(e, 'INVALID_PROVIDER', 'registerProvider') }),
      (release) => Effect.promise(() => release()),
    )
  })

/** Opens a workspace for the lifetime of the calling scope. */
export const registerWorkspaceScoped = (workspace: LspWorkspace) =>
  Effect.gen(function* () {
    const lsp = yield* Lsp
    yield* Effect.acquireRelease(
      Effect.try({ try: () => lsp.registerWorkspace(workspace), catch: (e) => toLspError(e, 'INVALID_ARGUMENT', 'registerWorkspace') }),
      (release) => Effect.promise(() => release()),
    )
  })

/** Runs a query as an interruptible Effect: interruption aborts the provider's request. */
export const query = <R extends LspQueryRequest>(request: R): Effect.Effect<LspResultFor<R['operation']>, LspError, Lsp> =>
  Effect.gen(function* () {
    const lsp = yield* Lsp
    return yield* Effect.tryPromise({
      try: (signal) => lsp.query(request, signal),
      catch: (e) => toLspError(e, 'SERVER_ERROR', request.operation),
    })
  })
