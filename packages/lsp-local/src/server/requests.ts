import { LspError, TelemetryAttr, TelemetrySpan, inSpan, isLspError, telemetryId } from '@codeseam/lsp'
import type { Span } from '@opentelemetry/api'
import {
  CancellationTokenSource,
  ConnectionError,
  LSPErrorCodes,
  ResponseError,
  type MessageConnection,
  type ProtocolConnection,
  type ProtocolNotificationType,
  type ProtocolRequestType,
} from 'vscode-languageserver-protocol/node'

import type { CrashSignal } from './crash.js'
import type { Deadlines } from './deadlines.js'
import { formatBytes } from '../documents/file-limits.js'
import { droppedAnswerCode, droppedAnswerMarker } from './guarded-stream.js'
import { endRequestSpan } from './telemetry.js'

/** What a request needs of the server it goes to. */
export interface RequestChannel {
  readonly connection: MessageConnection
  /** Every request's deadline, on one timer. */
  readonly deadlines: Deadlines
  readonly profileId: string
  /** The server's crash: a pending request settles with it. */
  readonly crash: CrashSignal
  /** A request got no answer within its deadline (the server checks it is still alive). */
  timedOut(): void
}

/**
 * Sends one request with a deadline, in a `codeseam.lsp.request` span (method, profile, outcome). On timeout
 * or abort the request is cancelled ($/cancelRequest) and fails with TIMEOUT / CANCELLED (a timeout is also
 * reported to the channel). Server errors → SERVER_ERROR.
 */
export function sendRequest<P, R, PR, E, RO>(
  channel: RequestChannel,
  type: ProtocolRequestType<P, R, PR, E, RO>,
  params: P,
  options: { timeoutMs: number; signal?: AbortSignal; what?: string },
): Promise<R> {
  return inSpan(
    TelemetrySpan.request,
    () => ({ [TelemetryAttr.method]: type.method, [TelemetryAttr.profile]: telemetryId(channel.profileId) }),
    (span) => send(channel, type, params, options, span),
  )
}

function send<P, R, PR, E, RO>(
  channel: RequestChannel,
  type: ProtocolRequestType<P, R, PR, E, RO>,
  params: P,
  options: { timeoutMs: number; signal?: AbortSignal; what?: string },
  span: Span,
): Promise<R> {
  const what = options.what ?? type.method
  const { signal } = options
  if (signal?.aborted === true) {
    const error = new LspError('CANCELLED', `${what} was cancelled`)
    endRequestSpan(span, error)
    return Promise.reject(error)
  }
  // One promise settled by whichever comes first: the answer, the deadline, an abort or a crash.
  return new Promise<R>((resolve, reject) => {
    const source = new CancellationTokenSource()
    let settled = false
    // `cancel`: tell the server ($/cancelRequest) after settling; the token's emitter catches a send that
    // fails on a connection closed by now.
    const settle = (error: unknown, value?: R, cancel = false) => {
      if (settled) return
      settled = true
      deadline.cancel()
      signal?.removeEventListener('abort', onAbort)
      channel.crash.listeners.delete(onCrash)
      endRequestSpan(span, error)
      if (error === undefined) resolve(value as R)
      else reject(error)
      if (cancel) source.cancel()
      source.dispose()
    }
    const onCrash = (error: LspError) => settle(error)
    const onAbort = () => settle(new LspError('CANCELLED', `${what} was cancelled`), undefined, true)
    const deadline = channel.deadlines.add(options.timeoutMs, () => {
      settle(
        new LspError(
          'TIMEOUT',
          `the ${channel.profileId} server did not answer ${what} within ${options.timeoutMs} ms; the request was cancelled (raise requestTimeoutMs for slow projects)`,
          { data: { profile: channel.profileId } },
        ),
        undefined,
        true,
      )
      channel.timedOut()
    })
    signal?.addEventListener('abort', onAbort, { once: true })
    channel.crash.listeners.add(onCrash)
    // The message connection is the protocol connection at run time; the cast picks its typed overloads.
    try {
      ;(channel.connection as unknown as ProtocolConnection).sendRequest(type, params as never, source.token).then(
        (value) => settle(undefined, value),
        (error: unknown) => settle(requestError(channel, error, what)),
      )
    } catch (error) {
      // A connection that closed a moment ago refuses to send at once.
      settle(requestError(channel, error, what))
    }
  })
}

/**
 * The server dropped an answer because its view changed while it computed it ("content modified", LSP -32801, as
 * {@link requestError} reports it): the protocol says to ask again.
 */
export function isContentModified(error: unknown): boolean {
  return (
    isLspError(error, 'STALE_VERSION') && (error.data as { serverCode?: number } | undefined)?.serverCode === LSPErrorCodes.ContentModified
  )
}

/** A failed request as an LspError: the crash when there was one, the server's own error otherwise. */
function requestError(channel: RequestChannel, error: unknown, what: string): LspError {
  if (error instanceof LspError) return error
  const crash = channel.crash.error
  if (crash !== undefined) return crash
  if (error instanceof ConnectionError) {
    // Closed under us before the close event marked the crash: it is one (the crash error follows).
    return new LspError('SERVER_CRASHED', `the ${channel.profileId} server's connection closed before ${what} was answered`, {
      cause: error,
      data: { profile: channel.profileId },
    })
  }
  if (error instanceof ResponseError && error.code === droppedAnswerCode && isDroppedAnswer(error.data)) {
    return droppedAnswer(channel.profileId, what, error.data)
  }
  if (error instanceof ResponseError) {
    const code = error.code === LSPErrorCodes.ContentModified ? 'STALE_VERSION' : 'SERVER_ERROR'
    return new LspError(code, `the ${channel.profileId} server answered ${what} with error ${error.code}: ${error.message}`, {
      cause: error,
      data: { profile: channel.profileId, serverCode: error.code },
    })
  }
  return new LspError('SERVER_ERROR', `${what} to the ${channel.profileId} server failed: ${(error as Error).message}`, {
    cause: error,
  })
}

function isDroppedAnswer(data: unknown): data is { bytes: number; limit: number } {
  if (typeof data !== 'object' || data === null) return false
  const { codeseam, bytes, limit } = data as { codeseam?: unknown; bytes?: unknown; limit?: unknown }
  return codeseam === droppedAnswerMarker && typeof bytes === 'number' && typeof limit === 'number'
}

/**
 * An answer over maxMessageBytes, dropped unread by the stdout guard: the server is fine and keeps running;
 * this request is refused. UNAVAILABLE like the per-file limits (RFC 0013): do not retry as is.
 */
function droppedAnswer(profileId: string, what: string, data: { bytes: number; limit: number }): LspError {
  return new LspError(
    'UNAVAILABLE',
    `the ${profileId} server's answer to ${what} was ${formatBytes(data.bytes)}, over the ${formatBytes(data.limit)} limit on one message (maxMessageBytes); it was dropped unread and the server keeps running. Ask for less (a narrower query, a smaller file) or raise maxMessageBytes in the config`,
    {
      data: {
        profile: profileId,
        limit: 'maxMessageBytes',
        value: data.bytes,
        ceiling: data.limit,
        raise: 'raise maxMessageBytes (bytes) in the config',
      },
    },
  )
}

/**
 * Sends a notification, fire and forget. A connection closed by a crash refuses it, at once (a synchronous
 * throw) or later (a rejection); either way the crash is what the caller's next request reports.
 */
export function notify<P, RO>(connection: MessageConnection, type: ProtocolNotificationType<P, RO>, params: P): void {
  try {
    connection.sendNotification(type, params as never).catch(() => {})
  } catch {
    // Closed or disposed: see above.
  }
}
