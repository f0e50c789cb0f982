import { Transform, type TransformCallback } from 'node:stream'

import { Disposable, type RAL } from 'vscode-languageserver-protocol/node'

/** Why the guard stopped a server's output. Treated as a crash by the caller. */
export class ProtocolViolation extends Error {
  override readonly name = 'ProtocolViolation'
}

const maxHeaderBytes = 8 * 1024
const headerLine = /^[A-Za-z][A-Za-z0-9-]*: ?.*$/
const partialFirstLine = /^[A-Za-z][A-Za-z0-9-]*(:[^\r\n]*)?\r?$/
const digits = /^\d+$/
const contentLength = 'Content-Length: '
const blankLine = Buffer.from('\r\n\r\n', 'latin1')

/**
 * Tracks the framing of a server's output without copying it. The JSON-RPC reader buffers a message of
 * any announced size and waits forever for a header that never completes; {@link FrameGuard.check} throws
 * a {@link ProtocolViolation} on a message larger than `maxMessageBytes`, on a header block that is not
 * `Name: value` lines with a Content-Length, and on a header that never ends. It is the only
 * framing-level code in the host; the reader still does the framing itself.
 */
export class FrameGuard {
  /** Bytes of a header split across chunks (rare: headers are a few dozen bytes). */
  private header: Buffer[] = []
  private headerBytes = 0
  /** Body bytes still expected for the current message; 0 while reading a header. */
  private remaining = 0

  constructor(private readonly maxMessageBytes: number) {}

  check(chunk: Buffer): void {
    let offset = 0
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - offset)
        this.remaining -= take
        offset += take
        continue
      }
      if (this.headerBytes === 0) {
        // The usual case: the whole header is in this chunk. Search a bounded window, copy nothing.
        const end = chunk.subarray(offset, offset + maxHeaderBytes + 4).indexOf(blankLine)
        if (end !== -1) {
          this.remaining = this.parseHeader(chunk.toString('latin1', offset, offset + end))
          offset += end + 4
          continue
        }
      }
      offset = this.partialHeader(chunk, offset)
    }
  }

  /** A header that started in an earlier chunk, or does not end in this one. Returns the new offset. */
  private partialHeader(chunk: Buffer, offset: number): number {
    const window = chunk.subarray(offset, offset + maxHeaderBytes + 4)
    const combined = Buffer.concat([...this.header, window])
    const terminator = combined.indexOf(blankLine)
    if (terminator === -1) {
      this.pushHeader(chunk.subarray(offset))
      return chunk.length
    }
    const fromChunk = terminator + 4 - this.headerBytes
    const text = combined.toString('latin1', 0, terminator)
    this.header = []
    this.headerBytes = 0
    this.remaining = this.parseHeader(text)
    return offset + fromChunk
  }

  private pushHeader(part: Buffer): void {
    if (part.length === 0) return
    this.headerBytes += part.length
    this.header.push(part)
    const buffered = Buffer.concat(this.header)
    if (this.headerBytes > maxHeaderBytes) {
      throw new ProtocolViolation(`the server wrote ${this.headerBytes} bytes without completing a message header: ${preview(buffered)}`)
    }
    // Non-protocol text (a log line on stdout) shows in the first line long before any terminator.
    const text = buffered.toString('latin1')
    const firstBreak = text.indexOf('\r\n')
    const first = firstBreak === -1 ? text : text.slice(0, firstBreak)
    if (first.length > 0 && !partialFirstLine.test(first)) {
      throw new ProtocolViolation(`the server wrote text that is not a protocol header on stdout: ${preview(buffered)}`)
    }
  }

  /** The body length a header block announces (the block without its final blank line). */
  private parseHeader(text: string): number {
    let length: number | undefined
    if (text.startsWith(contentLength) && !text.includes('\r\n')) {
      // The usual header: one Content-Length line.
      length = this.lengthOf(text.slice(contentLength.length).trim())
    } else {
      for (const line of text.split('\r\n')) {
        if (line === '') continue
        if (!headerLine.test(line))
          throw new ProtocolViolation(`the server wrote a malformed header line: ${JSON.stringify(line.slice(0, 200))}`)
        const colon = line.indexOf(':')
        if (line.slice(0, colon).toLowerCase() === 'content-length') length = this.lengthOf(line.slice(colon + 1).trim())
      }
    }
    if (length === undefined)
      throw new ProtocolViolation(`the server sent a header without Content-Length: ${JSON.stringify(text.slice(0, 200))}`)
    return length
  }

  private lengthOf(value: string): number {
    if (!digits.test(value)) throw new ProtocolViolation(`the server sent Content-Length ${JSON.stringify(value)}`)
    const length = Number(value)
    if (length > this.maxMessageBytes) {
      throw new ProtocolViolation(
        `the server announced a ${length}-byte message; the limit is ${this.maxMessageBytes} bytes (maxMessageBytes)`,
      )
    }
    return length
  }
}

/**
 * The server's stdout as the JSON-RPC reader's stream, with a {@link FrameGuard} checking each chunk before
 * the reader sees it. No stream stage in between: the chunk goes from the pipe to the reader unchanged. On
 * a violation nothing more is passed on, the stream's error listeners get the violation and `onViolation`
 * is called once.
 */
export function guardedStream(
  stream: NodeJS.ReadableStream,
  maxMessageBytes: number,
  onViolation: (error: ProtocolViolation) => void,
): RAL.ReadableStream {
  const guard = new FrameGuard(maxMessageBytes)
  const dataListeners = new Set<(data: Uint8Array) => void>()
  const errorListeners = new Set<(error: unknown) => void>()
  let failed = false
  let listening = false
  const onData = (chunk: Buffer) => {
    if (failed) return
    try {
      guard.check(chunk)
    } catch (error) {
      failed = true
      stream.removeListener('data', onData)
      onViolation(error as ProtocolViolation)
      for (const listener of errorListeners) listener(error)
      return
    }
    for (const listener of dataListeners) listener(chunk)
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
      }
      return Disposable.create(() => void dataListeners.delete(listener))
    },
  }
}

/**
 * The same checks as a stream stage, for callers that want a Node `Transform`: bytes pass through
 * unchanged; a violation fails the stream with a {@link ProtocolViolation}.
 */
export class StdoutGuard extends Transform {
  private readonly guard: FrameGuard

  constructor(maxMessageBytes: number) {
    super()
    this.guard = new FrameGuard(maxMessageBytes)
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.guard.check(chunk)
    } catch (error) {
      callback(error as Error)
      return
    }
    callback(null, chunk)
  }
}

function preview(buffer: Buffer): string {
  return JSON.stringify(buffer.subarray(0, 200).toString('utf8'))
}
