import { Transform, type TransformCallback } from 'node:stream'

import { AnswerSkip, type DroppedAnswer } from './dropped-answer.js'
import { ProtocolViolation } from './protocol-violation.js'

export { ProtocolViolation }

const maxHeaderBytes = 8 * 1024
const headerLine = /^[A-Za-z][A-Za-z0-9-]*: ?.*$/
const partialFirstLine = /^[A-Za-z][A-Za-z0-9-]*(:[^\r\n]*)?\r?$/
const digits = /^\d+$/
const contentLength = 'Content-Length: '
const blankLine = Buffer.from('\r\n\r\n', 'latin1')

/** What {@link FrameGuard.check} lets through, in order: bytes for the reader, and answers it dropped. */
export type GuardOutput = Buffer | DroppedAnswer

/** Past this many times the limit, an announced length is garbage, not an answer worth streaming past. */
const dropCeilingFactor = 16

/**
 * Tracks the framing of a server's output without copying it. The JSON-RPC reader buffers a message of
 * any announced size and waits forever for a header that never completes; {@link FrameGuard.check}
 * throws a {@link ProtocolViolation} on a header block that is not `Name: value` lines with a
 * Content-Length, and on a header that never ends. A message larger than `maxMessageBytes`:
 * - with `dropAnswers`, when it is an answer (see {@link AnswerSkip}) of at most 16 times the limit, is
 *   skipped as it streams past — never buffered, never seen by the reader — and reported as a
 *   {@link DroppedAnswer} in its place, so the request fails and the server lives on; a header split across
 *   chunks is then held back until it ends, so the reader sees none of a dropped message;
 * - otherwise (a request, a notification, no id where an answer has one, a larger length, or no
 *   `dropAnswers`) is a violation.
 * It is the only framing-level code in the host; the reader still does the framing itself.
 */
export class FrameGuard {
  /** Bytes of a header split across chunks (rare: headers are a few dozen bytes). */
  private header: Buffer[] = []
  private headerBytes = 0
  /** Body bytes still expected for the current message; 0 while reading a header. */
  private remaining = 0
  private skip: AnswerSkip | undefined
  /** Messages let through whole so far. */
  private passed = 0

  constructor(
    private readonly maxMessageBytes: number,
    private readonly dropAnswers = false,
  ) {}

  /** True while an oversized answer is streaming past. */
  get skipping(): boolean {
    return this.skip !== undefined
  }

  /** Checks one chunk; returns what the reader gets (usually the chunk itself). */
  check(chunk: Buffer): GuardOutput[] {
    const out: GuardOutput[] = []
    /** Start of the run of bytes in this chunk that pass to the reader, or -1. */
    let pass = -1
    const flush = (end: number) => {
      if (pass !== -1 && end > pass) out.push(pass === 0 && end === chunk.length ? chunk : chunk.subarray(pass, end))
      pass = -1
    }
    let offset = 0
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - offset)
        if (pass === -1) pass = offset
        this.remaining -= take
        offset += take
        if (this.remaining === 0) this.passed++
        continue
      }
      if (this.skip !== undefined) {
        const { taken, answer } = this.skip.take(chunk, offset, this.passed)
        offset += taken
        if (answer !== undefined) {
          this.skip = undefined
          out.push(answer)
        }
        continue
      }
      const held = this.headerBytes > 0 ? Buffer.concat(this.header) : undefined
      const header = this.readHeader(chunk, offset)
      if (header === undefined) {
        // Dropping answers, held back until it ends (the reader must see none of a dropped message);
        // otherwise passed on at once, unchanged.
        if (this.dropAnswers) flush(offset)
        else if (pass === -1) pass = offset
        this.pushHeader(chunk.subarray(offset))
        break
      }
      if (header.length <= this.maxMessageBytes) {
        if (held !== undefined && this.dropAnswers) {
          flush(offset)
          out.push(held)
        }
        if (pass === -1) pass = offset
        this.remaining = header.length
        if (header.length === 0) this.passed++
      } else {
        const droppable = this.dropAnswers && header.length <= dropCeilingFactor * this.maxMessageBytes
        if (!droppable) throw new ProtocolViolation(this.overLimit(header.length))
        flush(offset)
        this.skip = new AnswerSkip(header.length, this.overLimit(header.length))
      }
      offset = header.end
    }
    flush(chunk.length)
    return out
  }

  /** A complete header from `offset` (with what is held from earlier chunks): its length and where the body starts. */
  private readHeader(chunk: Buffer, offset: number): { length: number; end: number } | undefined {
    if (this.headerBytes === 0) {
      // The usual case: the whole header is in this chunk. Search a bounded window, copy nothing.
      const end = chunk.subarray(offset, offset + maxHeaderBytes + 4).indexOf(blankLine)
      if (end === -1) return undefined
      return { length: this.parseHeader(chunk.toString('latin1', offset, offset + end)), end: offset + end + 4 }
    }
    const combined = Buffer.concat([...this.header, chunk.subarray(offset, offset + maxHeaderBytes + 4)])
    const terminator = combined.indexOf(blankLine)
    if (terminator === -1) return undefined
    const end = offset + terminator + 4 - this.headerBytes
    const text = combined.toString('latin1', 0, terminator)
    this.header = []
    this.headerBytes = 0
    return { length: this.parseHeader(text), end }
  }

  private overLimit(bytes: number): string {
    return `the server announced a ${bytes}-byte message; the limit is ${this.maxMessageBytes} bytes (maxMessageBytes)`
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
    const length = Number(value)
    if (!digits.test(value) || !Number.isSafeInteger(length))
      throw new ProtocolViolation(`the server sent Content-Length ${JSON.stringify(value)}`)
    return length
  }
}

/**
 * The same checks as a stream stage, for callers that want a Node `Transform`: bytes pass through
 * unchanged; a violation, including any message over the limit, fails the stream with a
 * {@link ProtocolViolation}.
 */
export class StdoutGuard extends Transform {
  private readonly guard: FrameGuard

  constructor(maxMessageBytes: number) {
    super()
    this.guard = new FrameGuard(maxMessageBytes)
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let output: GuardOutput[]
    try {
      output = this.guard.check(chunk)
    } catch (error) {
      callback(error as Error)
      return
    }
    // Without dropAnswers the guard only holds back a header split across chunks: the output is bytes.
    for (const piece of output) if (Buffer.isBuffer(piece)) this.push(piece)
    callback()
  }
}

function preview(buffer: Buffer): string {
  return JSON.stringify(buffer.subarray(0, 200).toString('utf8'))
}
