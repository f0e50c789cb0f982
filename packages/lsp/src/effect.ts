import * as otel from '@opentelemetry/api'
import { Context, Effect, Layer } from 'effect'

import { LspError, toLspError } from './errors.js'
import type { LspProvider, LspWorkspace } from './provider.js'
import { createLsp, type LspService } from './service.js'
import { TelemetryAttr, TelemetrySpan, telemetryEnabled, withQuerySpanOwner, type QuerySpanOwner } from './telemetry.js'
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

/** The query inside its span: the seam's attributes go to the current Effect span (see {@link query}). */
const runQuery = <R extends LspQueryRequest>(request: R): Effect.Effect<LspResultFor<R['operation']>, LspError, Lsp> =>
  Effect.gen(function* () {
    const lsp = yield* Lsp
    const span = yield* Effect.currentSpan.pipe(Effect.orElseSucceed(() => undefined))
    const otelSpan = openTelemetrySpanOf(span)
    const owner: QuerySpanOwner = {
      ownsSpan: otelSpan !== undefined,
      setAttributes: (attributes) => {
        for (const [key, value] of Object.entries(attributes)) if (value !== undefined) span?.attribute(key, value)
      },
    }
    const active = otelSpan === undefined ? otel.context.active() : otel.trace.setSpan(otel.context.active(), otelSpan)
    const scope = span === undefined ? active : withQuerySpanOwner(active, owner)
    return yield* Effect.tryPromise({
      try: (signal) => otel.context.with(scope, () => lsp.query(request, signal)),
      catch: (e) => toLspError(e, 'SERVER_ERROR', request.operation),
    })
  })

/**
 * What the query's Effect span sees of a failure: its code. A tracer records an Effect span's failure as an
 * exception with its message and stack, and an LspError's message quotes paths and names; the caller still
 * gets the LspError itself.
 */
class QueryFailure extends Error {
  constructor(readonly failure: LspError) {
    super(failure.code)
    this.name = 'LspError'
    this.stack = `LspError: ${failure.code}`
  }
}

/**
 * Runs a query as an interruptible Effect: interruption aborts the provider's request. It runs in an Effect span
 * (`codeseam.query`) carrying the seam's attributes and, on failure, the error's code only; when the Effect
 * tracer is backed by OpenTelemetry, that span is the query's span and the seam's own spans (server, requests)
 * nest under it, once. With telemetry off (`configureTelemetry({ enabled: false })`) there is no span.
 */
export const query = <R extends LspQueryRequest>(request: R): Effect.Effect<LspResultFor<R['operation']>, LspError, Lsp> =>
  telemetryEnabled()
    ? runQuery(request).pipe(
        Effect.tapError((error) => Effect.annotateCurrentSpan(TelemetryAttr.errorCode, error.code)),
        Effect.mapError((error) => new QueryFailure(error)),
        Effect.withSpan(TelemetrySpan.query),
        Effect.mapError((failure) => failure.failure),
      )
    : runQuery(request)

/** The OpenTelemetry span behind an Effect span, when the Effect tracer is @effect/opentelemetry's. */
function openTelemetrySpanOf(span: unknown): otel.Span | undefined {
  const inner = (span as { span?: unknown } | undefined)?.span
  return inner !== null && typeof inner === 'object' && typeof (inner as otel.Span).spanContext === 'function'
    ? (inner as otel.Span)
    : undefined
}
