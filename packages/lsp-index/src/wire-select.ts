// Reading some of a document's occurrences (issue 52): the others' bytes are passed over, nothing made for them.

import { LENGTH, Reader, VARINT } from './wire-reader.js'
import { isLocal, readOccurrence, type WireDocument, type WireOccurrence, type WireSource } from './wire.js'

/** Where an occurrence's symbol lies in the index's bytes (`start` −1: none) and its roles, the last of each as read. */
interface OccurrencePeek {
  start: number
  end: number
  roles: number
}

function peekOccurrence(reader: Reader, peek: OccurrencePeek): void {
  peek.start = -1
  peek.end = -1
  peek.roles = 0
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    const field = next >>> 3
    const wire = next & 7
    if (field === 2 && wire === LENGTH) {
      const end = reader.length()
      peek.start = reader.pos
      peek.end = end
      reader.pos = end
    } else if (field === 3 && wire === VARINT) peek.roles = reader.varint()
    else reader.skip(wire, field)
  }
}

/**
 * The occurrences of a scanned document that `accept` takes, given each one's symbol bytes (`buf[start, end)`) and
 * roles, read in full; the others are passed over without a string or an object made for them (issue 52: a
 * references question on a widely used symbol read every occurrence of hundreds of documents, and the garbage
 * collector took most of its time).
 */
export function readOccurrencesWhere(
  source: WireSource,
  document: Pick<WireDocument, 'start' | 'end'>,
  accept: (buf: Buffer, start: number, end: number, roles: number) => boolean,
): WireOccurrence[] {
  const reader = new Reader(source.buf, document.start, document.end, source.interned)
  const out: WireOccurrence[] = []
  const peek: OccurrencePeek = { start: -1, end: -1, roles: 0 }
  for (let next = reader.tag(); next >= 0; next = reader.tag()) {
    if (next === ((2 << 3) | LENGTH)) {
      const outer = reader.enter()
      const at = reader.pos
      peekOccurrence(reader, peek)
      if (peek.start >= 0 && accept(reader.buf, peek.start, peek.end, peek.roles)) {
        reader.pos = at
        out.push(readOccurrence(reader))
      }
      reader.leave(outer)
    } else reader.skip(next & 7, next >>> 3)
  }
  return out
}

/** A predicate for {@link readOccurrencesWhere}: the symbol's bytes are `symbol`'s (as decoded, when not ASCII). */
export function symbolBytesAre(symbol: string): (buf: Buffer, start: number, end: number) => boolean {
  const bytes = Buffer.from(symbol, 'utf8')
  return (buf, start, end) => {
    if (end - start === bytes.length && bytes.compare(buf, start, end) === 0) return true
    // Invalid UTF-8 in the index decodes to replacement characters: compare as the full read would.
    for (let i = start; i < end; i++) if ((buf[i] ?? 0) >= 0x80) return buf.toString('utf8', start, end) === symbol
    return false
  }
}

/** A predicate for {@link readOccurrencesWhere}: a definition (`roles` bit 1) of a global symbol (not `local …`). */
export function isGlobalDefinition(buf: Buffer, start: number, end: number, roles: number): boolean {
  return (roles & 1) !== 0 && end > start && !isLocal(buf, start, end)
}
