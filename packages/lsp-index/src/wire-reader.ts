// The protocol buffer wire format, as wire.ts reads SCIP: a cursor that reads varints, lengths, strings and tags
// and skips a field by its wire type, checking the framing as it goes.
//
// Why not `BinaryReader` from `@bufbuild/protobuf/wire` (already a dependency, for the generated bindings): it has
// no bound but the whole buffer, its `tag()` returns a new `[field, wireType]` array per field, its `skip()` returns
// a subarray, and its buffer is private, so a symbol can be had only as a decoded string: no hashing or interning
// from the bytes. Measured on codeseam's own index (25 MB, 270,887 occurrences, 868 documents), 5 alternating
// passes: a BinaryReader walk that only decodes each occurrence's symbol and range took
// 567–1,670 ms per pass, wire.ts's whole scan (every field checked, symbols hashed) 368–1,171 ms, in the same
// process, on a loaded 2-CPU machine: 1.5–2.8× in this reader's favour, and the allocations are what the first
// answer's garbage collection was spent on.

/** The bytes were not a protocol buffer of this shape (truncated, a bad tag or wire type). */
export class WireError extends Error {}

export const VARINT = 0
const FIXED64 = 1
export const LENGTH = 2
const START_GROUP = 3
const END_GROUP = 4
const FIXED32 = 5

/** A cursor over a protocol buffer, bounded to the message it is in. */
export class Reader {
  pos: number

  constructor(
    readonly buf: Buffer,
    start: number,
    public end: number,
    /** Symbol strings seen, each kept once. */
    private readonly interned: Map<string, string>,
  ) {
    this.pos = start
  }

  /** A varint's low 32 bits (int32 and enum semantics: `| 0`); `nonzero` says whether any of its 64 bits was set. */
  varint(): number {
    const { buf } = this
    let result = 0
    let shift = 0
    this.nonzero = false
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new WireError('premature end of a varint')
      const byte = buf[this.pos++] ?? 0
      if ((byte & 0x7f) !== 0) this.nonzero = true
      if (shift < 32) result |= (byte & 0x7f) << shift
      shift += 7
      if ((byte & 0x80) === 0) return result | 0
    }
    throw new WireError('a varint longer than 10 bytes')
  }

  nonzero = false

  bool(): boolean {
    this.varint()
    return this.nonzero
  }

  /** A length-delimited field's end offset (the reader is at its first byte). */
  length(): number {
    const length = this.varint() >>> 0
    if (length > this.end - this.pos) throw new WireError('a length beyond the end of its message')
    return this.pos + length
  }

  string(): string {
    const end = this.length()
    const text = this.buf.toString('utf8', this.pos, end)
    this.pos = end
    return text
  }

  symbol(): string {
    return this.symbolAt(this.length())
  }

  /** The symbol string from here to `end` (its length read), interned. */
  symbolAt(end: number): string {
    const text = this.buf.toString('utf8', this.pos, end)
    this.pos = end
    const held = this.interned.get(text)
    if (held !== undefined) return held
    this.interned.set(text, text)
    return text
  }

  /** The next tag (field number `<< 3 |` wire type), or -1 at the end of the current message. */
  tag(): number {
    if (this.pos >= this.end) return -1
    const tag = this.varint() >>> 0
    if (tag >>> 3 === 0) throw new WireError('a field number 0')
    return tag
  }

  skip(wire: number, field: number): void {
    switch (wire) {
      case VARINT:
        this.varint()
        return
      case FIXED64:
        this.advance(8)
        return
      case LENGTH:
        this.pos = this.length()
        return
      case FIXED32:
        this.advance(4)
        return
      case START_GROUP:
        for (;;) {
          const next = this.tag()
          if (next < 0) throw new WireError('a group without its end')
          if ((next & 7) === END_GROUP) {
            if (next >>> 3 !== field) throw new WireError('a group ended by another field')
            return
          }
          this.skip(next & 7, next >>> 3)
        }
      default:
        throw new WireError(`wire type ${wire}`)
    }
  }

  private advance(n: number): void {
    if (n > this.end - this.pos) throw new WireError('premature end of a fixed-width field')
    this.pos += n
  }

  /** Enters a nested message (the reader is bounded to it); returns the outer end, for {@link leave}. */
  enter(): number {
    const end = this.length()
    const outer = this.end
    this.end = end
    return outer
  }

  /** Leaves a nested message entered with {@link enter}. */
  leave(outer: number): void {
    this.pos = this.end
    this.end = outer
  }

  /** Reads a nested message: `body` sees the reader bounded to it. */
  message(body: () => void): void {
    const outer = this.enter()
    body()
    this.leave(outer)
  }

  /** A `repeated int32`, packed or not, appended to `into`. */
  int32s(wire: number, into: number[]): void {
    if (wire === VARINT) {
      into.push(this.varint())
      return
    }
    if (wire !== LENGTH) throw new WireError(`wire type ${wire} for a repeated int32`)
    const end = this.length()
    while (this.pos < end) into.push(this.varint())
    if (this.pos !== end) throw new WireError('a packed field overran its length')
  }
}
