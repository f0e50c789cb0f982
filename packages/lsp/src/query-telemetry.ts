import * as nodePath from 'node:path'

import type { Attributes } from '@opentelemetry/api'

import { normalizeRoot } from './paths.js'
import { operationSet } from './provider-validation.js'
import type { OperationRollup } from './rollup.js'
import {
  activeQuerySpanOwner,
  errorCodeOf,
  fileAttributes,
  inSpan,
  rootAttributes,
  TelemetryAttr,
  TelemetrySpan,
  telemetryId,
  telemetryInstruments,
  type QuerySpanOwner,
} from './telemetry.js'
import type { LspQueryRequest, LspQueryResult } from './vocabulary.js'

/*
 * The query-telemetry stage: every query wrapped in its span (or its caller's), its duration, errors and
 * marked answers counted, and the rollup `code_status` shows fed.
 */

/** Where a query's result attributes go: its span, or the span of the caller that owns it. */
type AttributeSink = Pick<QuerySpanOwner, 'setAttributes'>

/** What the telemetry stage needs from the service: the id of the workspace open at a normalized root. */
export interface QueryTelemetryContext {
  readonly rollup: OperationRollup
  readonly workspaceIdAt: (root: string) => string | undefined
}

/** A query's operation as telemetry records it: an unknown one is the caller's text, recorded as "invalid". */
function operationOf(request: LspQueryRequest): string {
  return request !== null && typeof request === 'object' && operationSet.has(request.operation) ? request.operation : 'invalid'
}

/** The span attributes of a query: its operation, and its root and file when it names an absolute root. */
function queryAttributes(context: QueryTelemetryContext, request: LspQueryRequest, operation: string): Attributes {
  const root = (request as { root?: unknown } | null)?.root
  const path = (request as { path?: unknown } | null)?.path
  if (typeof root !== 'string' || !nodePath.isAbsolute(root)) return { [TelemetryAttr.operation]: operation }
  return {
    [TelemetryAttr.operation]: operation,
    ...rootAttributes(normalizeRoot(root), context.workspaceIdAt(normalizeRoot(root)) ?? nodePath.basename(root)),
    ...(typeof path === 'string' ? fileAttributes(nodePath.resolve(root, path), root) : {}),
  }
}

/** Records a finished query: the rollup, the duration and error metrics, and the marks and attributes of its answer. */
function recordOutcome(
  rollup: OperationRollup,
  operation: string,
  elapsedMs: number,
  outcome: { readonly result?: LspQueryResult; readonly error?: unknown },
  span: AttributeSink | undefined,
): void {
  const { result, error } = outcome
  rollup.record(operation, elapsedMs, error)
  const instruments = telemetryInstruments()
  const provider = telemetryId(result?.meta.providerId ?? 'none')
  if (error === undefined)
    instruments.operationDuration.record(elapsedMs, { [TelemetryAttr.operation]: operation, [TelemetryAttr.provider]: provider })
  else {
    const code = errorCodeOf(error)
    instruments.operationDuration.record(elapsedMs, { [TelemetryAttr.operation]: operation, [TelemetryAttr.errorCode]: code })
    instruments.errors.add(1, { [TelemetryAttr.operation]: operation, [TelemetryAttr.errorCode]: code })
    return
  }
  const meta = result?.meta
  if (meta === undefined) return
  const incomplete = meta.coverage !== undefined && !meta.coverage.complete
  const derived = meta.derived !== undefined
  for (const [mark, on] of [
    ['incomplete', incomplete],
    ['derived', derived],
    ['truncated', meta.truncated],
  ] as const) {
    if (on) instruments.answersMarked.add(1, { [TelemetryAttr.operation]: operation, [TelemetryAttr.mark]: mark })
  }
  span?.setAttributes({
    [TelemetryAttr.provider]: provider,
    [TelemetryAttr.incomplete]: incomplete,
    [TelemetryAttr.derived]: derived,
    [TelemetryAttr.truncated]: meta.truncated,
    [TelemetryAttr.resultStatus]: meta.status,
    [TelemetryAttr.warm]: meta.warm,
  })
}

/** Runs a query (`run`) inside its span, recording its outcome; resolves or rejects as `run` does. */
export function observeQuery(
  context: QueryTelemetryContext,
  request: LspQueryRequest,
  run: () => Promise<LspQueryResult>,
): Promise<LspQueryResult> {
  const operation = operationOf(request)
  const started = performance.now()
  const attributes = (): Attributes => queryAttributes(context, request, operation)
  const observed = async (span: AttributeSink | undefined): Promise<LspQueryResult> => {
    try {
      const result = await run()
      recordOutcome(context.rollup, operation, performance.now() - started, { result }, span)
      return result
    } catch (error) {
      recordOutcome(context.rollup, operation, performance.now() - started, { error }, span)
      throw error
    }
  }
  // Inside the Effect API's span: its attributes go there too; when it is an OpenTelemetry span it is the
  // query's span, and no second one opens.
  const owner = activeQuerySpanOwner()
  owner?.setAttributes(attributes())
  if (owner?.ownsSpan === true) return observed(owner)
  return inSpan(TelemetrySpan.query, attributes, (span) =>
    observed(
      owner === undefined
        ? span.isRecording()
          ? span
          : undefined
        : {
            setAttributes: (a) => {
              owner.setAttributes(a)
              if (span.isRecording()) span.setAttributes(a)
            },
          },
    ),
  )
}
