import { BoundedCache } from './bounded-cache.js'
import { LspError } from './errors.js'
import type { LspPosition, LspRange } from './vocabulary.js'

/**
 * A position as models and people see it: 1-based line, 1-based column in UTF-16 code units (what VS Code
 * shows and the protocol counts; a tab is one column).
 */
export interface ModelPosition {
  readonly line: number
  readonly column: number
}

/** A range in model coordinates (end exclusive, like the protocol). */
export interface ModelRange {
  readonly start: ModelPosition
  readonly end: ModelPosition
}

/**
 * Line structure of a text: where each line starts and ends, with `\n`, `\r\n` and `\r` terminators as in
 * the protocol. The one place positions are validated and converted.
 */
export class TextLines {
  readonly text: string
  /** Offset of the first character of each line. */
  private readonly starts: number[]

  constructor(text: string) {
    this.text = text
    this.starts = [0]
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i)
      if (ch === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++
        this.starts.push(i + 1)
      } else if (ch === 10 /* \n */) {
        this.starts.push(i + 1)
      }
    }
  }

  /** Number of lines (a trailing newline starts one more, empty line). */
  get lineCount(): number {
    return this.starts.length
  }

  /** Offset just past the line's content, before its terminator. */
  private contentEnd(line: number): number {
    const next = this.starts[line + 1]
    if (next === undefined) return this.text.length
    let end = next
    if (this.text.charCodeAt(end - 1) === 10) end--
    if (this.text.charCodeAt(end - 1) === 13) end--
    return end
  }

  /** The text of a zero-based line without its terminator. */
  lineText(line: number): string {
    this.checkLine(line)
    return this.text.slice(this.starts[line], this.contentEnd(line))
  }

  /** Length of a zero-based line in UTF-16 code units, without terminator. */
  lineLength(line: number): number {
    this.checkLine(line)
    return this.contentEnd(line) - (this.starts[line] ?? 0)
  }

  private checkLine(line: number): void {
    if (!Number.isInteger(line) || line < 0 || line >= this.starts.length) {
      throw new LspError('INVALID_ARGUMENT', `line ${line + 1} does not exist: the file has ${this.starts.length} lines`)
    }
  }

  /**
   * Validates a seam position: the line exists, the character is within the line (the end of the line is
   * allowed), and it does not split a surrogate pair.
   */
  validate(position: LspPosition): LspPosition {
    const { line, character } = position
    if (!Number.isInteger(line) || !Number.isInteger(character) || line < 0 || character < 0) {
      throw new LspError('INVALID_ARGUMENT', `position ${JSON.stringify(position)} must have non-negative integer line and character`)
    }
    const length = this.lineLength(line)
    if (character > length) {
      throw new LspError(
        'INVALID_ARGUMENT',
        `column ${character + 1} is past the end of line ${line + 1}, which has ${length} columns (text: ${JSON.stringify(this.lineText(line))})`,
      )
    }
    const offset = (this.starts[line] ?? 0) + character
    if (character > 0 && isHighSurrogate(this.text.charCodeAt(offset - 1)) && isLowSurrogate(this.text.charCodeAt(offset))) {
      throw new LspError(
        'INVALID_ARGUMENT',
        `column ${character + 1} of line ${line + 1} falls inside a surrogate pair (one character is two UTF-16 columns)`,
      )
    }
    return position
  }

  /** Offset of a valid position. */
  offsetAt(position: LspPosition): number {
    this.validate(position)
    return (this.starts[position.line] ?? 0) + position.character
  }

  /** Position of an offset (clamped to the text). Offsets inside a line terminator map to the line end. */
  positionAt(offset: number): LspPosition {
    const clamped = Math.max(0, Math.min(offset, this.text.length))
    let low = 0
    let high = this.starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if ((this.starts[mid] ?? 0) <= clamped) low = mid
      else high = mid - 1
    }
    const character = Math.min(clamped - (this.starts[low] ?? 0), this.contentEnd(low) - (this.starts[low] ?? 0))
    return { line: low, character }
  }

  /** Converts a model position (1-based line and column) to a validated seam position. */
  fromModel(position: ModelPosition): LspPosition {
    const { line, column } = position
    if (!Number.isInteger(line) || line < 1) throw new LspError('INVALID_ARGUMENT', `line ${line} is invalid: lines start at 1`)
    if (!Number.isInteger(column) || column < 1) throw new LspError('INVALID_ARGUMENT', `column ${column} is invalid: columns start at 1`)
    return this.validate({ line: line - 1, character: column - 1 })
  }

  /** The first non-blank character of a zero-based line (or its start when blank). */
  firstNonBlank(line: number): LspPosition {
    const text = this.lineText(line)
    const index = text.search(/\S/)
    return { line, character: index < 0 ? 0 : index }
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** Seam position → model position (no validation needed: every seam position has a model form). */
export function toModelPosition(position: LspPosition): ModelPosition {
  return { line: position.line + 1, column: position.character + 1 }
}

/** Seam range → model range. */
export function toModelRange(range: LspRange): ModelRange {
  return { start: toModelPosition(range.start), end: toModelPosition(range.end) }
}

/** Model position → seam position without a document (shape checks only; prefer {@link TextLines.fromModel}). */
export function fromModelPosition(position: ModelPosition): LspPosition {
  if (!Number.isInteger(position.line) || position.line < 1 || !Number.isInteger(position.column) || position.column < 1) {
    throw new LspError('INVALID_ARGUMENT', `position ${JSON.stringify(position)} is invalid: line and column start at 1`)
  }
  return { line: position.line - 1, character: position.column - 1 }
}

/** Compares two positions: negative when a is before b. */
export function comparePositions(a: LspPosition, b: LspPosition): number {
  return a.line - b.line || a.character - b.character
}

/** Whether `position` lies within `range` (start inclusive, end inclusive). */
export function rangeContains(range: LspRange, position: LspPosition): boolean {
  return comparePositions(range.start, position) <= 0 && comparePositions(position, range.end) <= 0
}

/** At most this many tables, holding at most this much text in all: a few large files must not pin memory. */
export const linesCacheLimits = { entries: 512, characters: 32 * 1024 * 1024 } as const
/** Line tables shared across layers (target resolution, document sync, tool rendering), per content hash. */
const linesByHash = new BoundedCache<string, TextLines>({ entries: linesCacheLimits.entries, size: linesCacheLimits.characters })

/**
 * The {@link TextLines} of a text whose content hash is known (a document snapshot, a synced document): one
 * per hash, so the layers a call passes through split a file into lines once. Bounded by count and by total
 * text ({@link linesCacheLimits}), least recently used dropped first; a text larger than the whole budget is
 * not kept.
 */
export function linesFor(document: { readonly text: string; readonly hash: string }): TextLines {
  const hit = linesByHash.get(document.hash)
  if (hit !== undefined) return hit
  const lines = new TextLines(document.text)
  linesByHash.set(document.hash, lines, document.text.length)
  return lines
}
