import { Transform, type TransformCallback } from 'node:stream'

/** Why the guard stopped a server's output. Treated as a crash by the caller. */
export class ProtocolViolation extends Error {
  override readonly name = 'ProtocolViolation'
}

const maxHeaderBytes = 8 * 1024
const headerLine = /^[A-Za-z][A-Za-z0-9-]*: ?.*$/

/**
 * Sits between a server's stdout and the JSON-RPC reader. The reader buffers a message of any announced
 * size and waits forever for a header that never completes; this guard passes bytes through unchanged
 * while tracking the framing, and fails the stream on a message larger than `maxMessageBytes`, on a
 * header block that is not `Name: value` lines with a Content-Length, or on a header that never ends.
 * It is the only framing-level code in the host.
 */
export class StdoutGuard extends Transform {
  private header: Buffer[] = []
  private headerBytes = 0
  /** Body bytes still expected for the current message; 0 while reading a header. */
  private remaining = 0

  constructor(private readonly maxMessageBytes: number) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.track(chunk)
    } catch (error) {
      callback(error as Error)
      return
    }
    callback(null, chunk)
  }

  private track(chunk: Buffer): void {
    let offset = 0
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - offset)
        this.remaining -= take
        offset += take
        continue
      }
      // Headers are small: search the buffered header plus the start of this chunk for the terminator.
      const window = chunk.subarray(offset, offset + maxHeaderBytes + 4)
      const combined = this.header.length === 0 ? window : Buffer.concat([...this.header, window])
      const terminator = combined.indexOf('\r\n\r\n')
      if (terminator === -1) {
        this.pushHeader(chunk.subarray(offset))
        return
      }
      const fromChunk = terminator + 4 - this.headerBytes
      this.pushHeader(chunk.subarray(offset, offset + fromChunk))
      this.remaining = this.parseHeader()
      offset += fromChunk
    }
  }

  private pushHeader(part: Buffer): void {
    if (part.length === 0) return
    this.headerBytes += part.length
    this.header.push(part)
    if (this.headerBytes > maxHeaderBytes) {
      throw new ProtocolViolation(`the server wrote ${this.headerBytes} bytes without completing a message header: ${preview(Buffer.concat(this.header))}`)
    }
    // Non-protocol text (a log line on stdout) shows in the first line long before any terminator.
    const text = Buffer.concat(this.header).toString('latin1')
    const firstBreak = text.indexOf('\r\n')
    const first = firstBreak === -1 ? text : text.slice(0, firstBreak)
    if (first.length > 0 && !/^[A-Za-z][A-Za-z0-9-]*(:[^\r\n]*)?\r?$/.test(first)) {
      throw new ProtocolViolation(`the server wrote text that is not a protocol header on stdout: ${preview(Buffer.concat(this.header))}`)
    }
  }

  private parseHeader(): number {
    const text = Buffer.concat(this.header).toString('latin1')
    this.header = []
    this.headerBytes = 0
    let length: number | undefined
    for (const line of text.split('\r\n')) {
      if (line === '') continue
      if (!headerLine.test(line)) throw new ProtocolViolation(`the server wrote a malformed header line: ${JSON.stringify(line.slice(0, 200))}`)
      const colon = line.indexOf(':')
      if (line.slice(0, colon).toLowerCase() === 'content-length') {
        const value = line.slice(colon + 1).trim()
        if (!/^\d+$/.test(value)) throw new ProtocolViolation(`the server sent Content-Length ${JSON.stringify(value)}`)
        length = Number(value)
      }
    }
    if (length === undefined) throw new ProtocolViolation(`the server sent a header without Content-Length: ${JSON.stringify(text.slice(0, 200))}`)
    if (length > this.maxMessageBytes) {
      throw new ProtocolViolation(`the server announced a ${length}-byte message; the limit is ${this.maxMessageBytes} bytes (maxMessageBytes)`)
    }
    return length
  }
}

function preview(buffer: Buffer): string {
  return JSON.stringify(buffer.subarray(0, 200).toString('utf8'))
}
