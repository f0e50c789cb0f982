import { ProtocolViolation } from './protocol-violation.js'

/** An answer the guard dropped because it was over the limit: which request it answered, and its size. */
export interface DroppedAnswer {
  readonly id: number | string
  readonly bytes: number
  /** How many messages the guard let through before it: the reader delivers those first. */
  readonly after: number
}

/** How much of an oversized body's start is kept to tell an answer from the rest, and of its end. */
const headWindow = 256
const tailWindow = 96
const jsonrpc = String.raw`"jsonrpc"\s*:\s*"2\.0"\s*`
const id = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`
/**
 * The start of an answer with its id first: `{"jsonrpc":"2.0","id":7,"result":` (vscode-jsonrpc, the native
 * TypeScript server) or `{"id":7,"jsonrpc":"2.0","result":` (clangd sorts its keys).
 */
const idFirst = new RegExp(String.raw`^\s*\{\s*(?:${jsonrpc},\s*)?"id"\s*:\s*${id}\s*,\s*(?:${jsonrpc},\s*)?"(?:result|error)"\s*:`)
/**
 * The start of an answer with its id last: `{"jsonrpc":"2.0","result":…,"id":7}` (gopls) or
 * `{"error":…,"id":7,"jsonrpc":"2.0"}` (clangd's sorted error answers).
 */
const idLast = new RegExp(String.raw`^\s*\{\s*(?:${jsonrpc},\s*)?"(?:result|error)"\s*:`)
/** …and its end: the id, maybe the version, and the closing brace. */
const idAtEnd = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${id}\s*(?:,\s*${jsonrpc})?\}\s*$`)

/**
 * An oversized message streaming past unread. Only an answer can be dropped alone (its request fails, the
 * server lives on): its first bytes must be an answer's, and its id is read there or from its last bytes.
 * A request or notification — `method` where an answer has `result` — has nobody to tell, and dropping a
 * server's request would leave it waiting for ours: a {@link ProtocolViolation}, like a body that is not one
 * JSON object.
 */
export class AnswerSkip {
  private remaining: number
  private head = Buffer.alloc(0)
  private tail = Buffer.alloc(0)
  private id: number | string | undefined
  private idLast = false

  constructor(
    private readonly bytes: number,
    private readonly overLimit: string,
  ) {
    this.remaining = bytes
  }

  /** Consumes this message's bytes from `chunk` at `offset`; returns how many, and the answer once it has ended. */
  take(chunk: Buffer, offset: number, passed: number): { taken: number; answer?: DroppedAnswer } {
    const taken = Math.min(this.remaining, chunk.length - offset)
    const part = chunk.subarray(offset, offset + taken)
    if (this.head.length < headWindow) this.head = Buffer.concat([this.head, part.subarray(0, headWindow - this.head.length)])
    // A copy of the last bytes only (concat copies): the chunk itself is not kept.
    this.tail = Buffer.concat([this.tail.subarray(-tailWindow), part.subarray(-tailWindow)]).subarray(-tailWindow)
    this.remaining -= taken
    if (this.id === undefined && !this.idLast && (this.head.length >= headWindow || this.remaining === 0)) this.readHead()
    if (this.remaining > 0) return { taken }
    const tail = this.tail.toString('utf8')
    if (!/\}\s*$/.test(tail)) {
      throw new ProtocolViolation(`${this.overLimit}; it does not end like a JSON object (it ends ${JSON.stringify(tail.slice(-60))})`)
    }
    return { taken, answer: { id: this.id ?? this.readTail(tail), bytes: this.bytes, after: passed } }
  }

  private readHead(): void {
    const head = this.head.toString('utf8')
    const first = idFirst.exec(head)
    if (first !== null) this.id = parseId(first[1]!, this.overLimit)
    else if (idLast.test(head)) this.idLast = true
    else {
      throw new ProtocolViolation(
        `${this.overLimit}; it is not an answer to a request (it begins ${JSON.stringify(head.slice(0, 80))}), so it cannot be dropped alone`,
      )
    }
  }

  private readTail(tail: string): number | string {
    const last = idAtEnd.exec(tail)
    if (last === null) {
      throw new ProtocolViolation(
        `${this.overLimit}; it has no request id where an answer ends (it ends ${JSON.stringify(tail.slice(-60))}), so it cannot be dropped alone`,
      )
    }
    return parseId(last[1]!, this.overLimit)
  }
}

function parseId(text: string, overLimit: string): number | string {
  try {
    return JSON.parse(text) as number | string
  } catch {
    throw new ProtocolViolation(`${overLimit}; its request id ${text.slice(0, 60)} is not valid JSON`)
  }
}
