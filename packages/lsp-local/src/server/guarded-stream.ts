import {
  AbstractMessageReader,
  Disposable,
  ReadableStreamMessageReader,
  type DataCallback,
  type Message,
  type MessageReader,
  type RAL,
  type ResponseMessage,
} from 'vscode-languageserver-protocol/node'

import type { DroppedAnswer } from './dropped-answer.js'
import { FrameGuard, ProtocolViolation, type GuardOutput } from './stdout-guard.js'

/** What {@link guardedStream} reports besides the bytes. */
export interface GuardEvents {
  /** The guard refused the output: nothing more is passed on. Called once. */
  readonly violation: (error: ProtocolViolation) => void
  /**
   * An answer over the limit was dropped; the caller fails its request. Without this, such an answer is a
   * violation like any oversized message.
   */
  readonly droppedAnswer?: (answer: DroppedAnswer) => void
  /** Silence in the middle of a dropped answer longer than this is a violation, ms (default 10 000). */
  readonly stallMs?: number
}

/**
 * The server's stdout as the JSON-RPC reader's stream, with a {@link FrameGuard} checking each chunk before
 * the reader sees it. No stream stage in between: a chunk goes from the pipe to the reader unchanged unless
 * part of it is an answer being dropped. On a violation nothing more is passed on, the stream's error
 * listeners get the violation and `events.violation` is called once. A server that stops writing halfway
 * through an answer being dropped (a header that promised more than it sends) is a violation after
 * `stallMs`: the reader cannot tell it from a slow answer, but nothing else can arrive before it ends.
 */
export function guardedStream(stream: NodeJS.ReadableStream, maxMessageBytes: number, events: GuardEvents): RAL.ReadableStream {
  const guard = new FrameGuard(maxMessageBytes, events.droppedAnswer !== undefined)
  const dataListeners = new Set<(data: Uint8Array) => void>()
  const errorListeners = new Set<(error: unknown) => void>()
  let failed = false
  let listening = false
  let stall: NodeJS.Timeout | undefined
  let lastData = 0
  const stallMs = events.stallMs ?? 10_000
  const armStall = (delay: number) => {
    stall = setTimeout(() => {
      // Timers run before waiting input is read: after the event loop was blocked, data may be there. Look
      // again once it has been read.
      setImmediate(() => {
        stall = undefined
        if (failed || !guard.skipping) return
        const quiet = performance.now() - lastData
        if (quiet < stallMs) armStall(stallMs - quiet)
        else fail(new ProtocolViolation(`the server stopped writing for ${stallMs} ms in the middle of an answer over maxMessageBytes`))
      })
    }, delay)
    stall.unref()
  }
  const fail = (error: ProtocolViolation) => {
    failed = true
    clearTimeout(stall)
    stream.removeListener('data', onData)
    events.violation(error)
    for (const listener of errorListeners) listener(error)
  }
  const onData = (chunk: Buffer) => {
    if (failed) return
    let output: GuardOutput[]
    try {
      output = guard.check(chunk)
    } catch (error) {
      fail(error instanceof ProtocolViolation ? error : new ProtocolViolation(String(error)))
      return
    }
    for (const piece of output) {
      if (Buffer.isBuffer(piece)) for (const listener of dataListeners) listener(piece)
      else events.droppedAnswer?.(piece)
    }
    lastData = performance.now()
    if (!guard.skipping) {
      clearTimeout(stall)
      stall = undefined
    } else if (stall === undefined) armStall(stallMs)
  }
  const on = (event: string, listener: (...args: any[]) => void) => {
    stream.on(event, listener)
    return Disposable.create(() => void stream.removeListener(event, listener))
  }
  return {
    onClose: (listener) => on('close', listener),
    onEnd: (listener) => on('end', listener),
    onError: (listener) => {
      errorListeners.add(listener)
      const registered = on('error', listener)
      return Disposable.create(() => {
        errorListeners.delete(listener)
        registered.dispose()
      })
    },
    onData: (listener) => {
      dataListeners.add(listener)
      // Attached with the first reader, so nothing flows before someone reads it.
      if (!listening) {
        listening = true
        stream.on('data', onData)
        // Output that ends mid-answer is the process's exit, reported as such; the stall deadline is moot.
        stream.once('close', () => clearTimeout(stall))
      }
      return Disposable.create(() => void dataListeners.delete(listener))
    },
  }
}

/**
 * The JSON-RPC error code of the answer the host puts in place of a dropped one (in JSON-RPC's range for
 * implementation-defined errors); `data.codeseam` tells it from a server's own error with the same code.
 */
export const droppedAnswerCode = -32099
export const droppedAnswerMarker = 'answer-over-limit'

/** The error answer that stands in for a dropped one. */
export function droppedAnswerError(answer: DroppedAnswer, maxMessageBytes: number): ResponseMessage {
  return {
    jsonrpc: '2.0',
    id: answer.id,
    error: {
      code: droppedAnswerCode,
      message: `the answer was ${answer.bytes} bytes, over maxMessageBytes (${maxMessageBytes})`,
      data: { codeseam: droppedAnswerMarker, bytes: answer.bytes, limit: maxMessageBytes },
    },
  }
}

/**
 * vscode-jsonrpc's stream reader, plus messages the host inserts in the stream's order: the error answer
 * in place of a dropped one is delivered after the messages the guard let through before it (the reader
 * decodes asynchronously, one message at a time, so delivering it at once could overtake them).
 */
export class GuardedMessageReader extends AbstractMessageReader implements MessageReader {
  private readonly inner: ReadableStreamMessageReader
  private callback: DataCallback | undefined
  private delivered = 0
  private readonly waiting: Array<{ readonly after: number; readonly message: Message }> = []

  constructor(readable: RAL.ReadableStream) {
    super()
    this.inner = new ReadableStreamMessageReader(readable)
    this.inner.onError((error) => this.fireError(error))
    this.inner.onClose(() => this.fireClose())
    this.inner.onPartialMessage((info) => this.firePartialMessage(info))
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback
    return this.inner.listen((message) => {
      this.delivered++
      callback(message)
      this.release()
    })
  }

  /** Delivers `message` once `after` messages from the stream have been delivered. */
  insert(message: Message, after: number): void {
    this.waiting.push({ after, message })
    this.release()
  }

  override dispose(): void {
    super.dispose()
    this.inner.dispose()
  }

  private release(): void {
    while (this.callback !== undefined && this.waiting.length > 0 && this.waiting[0]!.after <= this.delivered) {
      this.callback(this.waiting.shift()!.message)
    }
  }
}
