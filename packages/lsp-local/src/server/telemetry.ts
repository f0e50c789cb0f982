import { TelemetryAttr, TelemetrySpan, errorCodeOf, inSpan, telemetryId } from '@codeseam/lsp'
import type { Span } from '@opentelemetry/api'

/**
 * A wait for a server to finish its work-done progress (indexing, loading) — the readiness rule at start, and a
 * query whose answer came back empty while the server was busy — as a `codeseam.server.ready` span with
 * `codeseam.outcome` ready | not_ready (deadline or abort first).
 */
export function readyWait(profileId: string, wait: () => Promise<boolean>): Promise<boolean> {
  return inSpan(
    TelemetrySpan.ready,
    () => ({ [TelemetryAttr.profile]: telemetryId(profileId) }),
    async (span) => {
      const quiet = await wait()
      if (span.isRecording()) span.setAttribute(TelemetryAttr.outcome, quiet ? 'ready' : 'not_ready')
      return quiet
    },
  )
}

/** How a request ended, for its span: `codeseam.outcome`. */
export type RequestOutcome = 'ok' | 'cancelled' | 'timeout' | 'error' | 'crashed'

function outcomeOf(error: unknown): RequestOutcome {
  switch (errorCodeOf(error)) {
    case 'CANCELLED':
      return 'cancelled'
    case 'TIMEOUT':
      return 'timeout'
    case 'SERVER_CRASHED':
      return 'crashed'
    default:
      return 'error'
  }
}

/** Marks a request span with how it ended (inSpan adds a failure's error code and status). */
export function endRequestSpan(span: Span, error: unknown): void {
  if (span.isRecording()) span.setAttribute(TelemetryAttr.outcome, error === undefined ? 'ok' : outcomeOf(error))
}
