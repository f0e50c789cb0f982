import { LspError, type LspFilesSkipped } from '@codeseam/lsp'

/**
 * Limits before work (RFC 0013): what a file must be for its text to be sent to a language server, or read
 * for a tool, at all. Checked before didOpen/didChange and before each read: the size from a stat (nothing
 * read), binary content from the first block, the longest line from the text. Pure pieces; the workspace's
 * reads and document sync apply them.
 */

/** The ceilings (`limits.maxFileBytes`, `limits.maxLineLength`; 0 disables one). */
export interface FileLimits {
  /** Bytes on disk. */
  readonly maxFileBytes: number
  /** UTF-16 code units of the longest line (a minified bundle is one long line). */
  readonly maxLineLength: number
}

/** No ceilings (binary content is still refused). */
export const noFileLimits: FileLimits = { maxFileBytes: 0, maxLineLength: 0 }

/** How much of a file's start is probed for binary content. */
export const binaryProbeBytes = 8192

/** Which limit a file breaks. */
export type FileLimitName = LspFilesSkipped['limit']

/** A file over a limit: which, by how much, and the ceiling in force. */
export interface FileLimitBreach {
  readonly limit: FileLimitName
  /** Bytes (maxFileBytes) or the length of the first line over the ceiling (maxLineLength). */
  readonly value?: number
  readonly ceiling?: number
}

const MiB = 1024 * 1024

/** A byte count as people read it: "4 MB" for 4 MiB, "46.2 MB", "512 KB". */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MB`
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`
  return `${bytes} bytes`
}

/** The size check, from a stat: nothing is read. */
export function sizeBreach(size: number, limits: FileLimits): FileLimitBreach | undefined {
  return limits.maxFileBytes > 0 && size > limits.maxFileBytes
    ? { limit: 'maxFileBytes', value: size, ceiling: limits.maxFileBytes }
    : undefined
}

/**
 * A NUL byte in the first {@link binaryProbeBytes} (binary content), or bytes there that are not UTF-8 (text in an
 * 8-bit encoding such as Latin-1: `notUtf8`; a sequence cut by the probe's end is not counted).
 */
export function binaryBreach(bytes: Uint8Array): FileLimitBreach | undefined {
  const probe = bytes.subarray(0, binaryProbeBytes)
  if (probe.includes(0)) return { limit: 'binary' }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(probe, { stream: probe.length < bytes.length })
  } catch {
    return { limit: 'notUtf8' }
  }
  return undefined
}

/** The first line longer than the ceiling, if any (one pass of indexOf over the text). */
export function lineBreach(text: string, limits: FileLimits): FileLimitBreach | undefined {
  const ceiling = limits.maxLineLength
  if (ceiling <= 0 || text.length <= ceiling) return undefined
  let start = 0
  while (start <= text.length) {
    const end = text.indexOf('\n', start)
    const stop = end === -1 ? text.length : end
    if (stop - start > ceiling) return { limit: 'maxLineLength', value: stop - start, ceiling }
    if (end === -1) break
    start = end + 1
  }
  return undefined
}

/** Every content check on bytes read from disk (the size was checked before reading). */
export function contentBreach(bytes: Uint8Array, text: string, limits: FileLimits): FileLimitBreach | undefined {
  return binaryBreach(bytes) ?? lineBreach(text, limits)
}

/** What the breach is, in a few words: "over 4 MB", "a line over 10000 characters", "binary content". */
export function breachReason(breach: Pick<FileLimitBreach, 'limit' | 'ceiling'>): string {
  switch (breach.limit) {
    case 'maxFileBytes':
      return `over ${formatBytes(breach.ceiling ?? 0)}`
    case 'maxLineLength':
      return `a line over ${breach.ceiling ?? 0} characters (minified?)`
    case 'binary':
      return 'binary content (NUL bytes)'
    case 'notUtf8':
      return 'text that is not UTF-8 (an 8-bit encoding such as Latin-1?)'
  }
}

/** How to raise the limit, or why it cannot be. */
export function breachRemedy(limit: FileLimitName): string {
  switch (limit) {
    case 'maxFileBytes':
      return 'raise limits.maxFileBytes in the config or pass --max-file-bytes N (0: no ceiling)'
    case 'maxLineLength':
      return 'raise limits.maxLineLength in the config or pass --max-line-length N (0: no ceiling)'
    case 'binary':
      return 'a binary file is never sent to a language server'
    case 'notUtf8':
      return 'language servers read UTF-8: convert the file (for Latin-1: iconv -f latin1 -t utf-8 FILE > FILE.utf8) to have it analysed'
  }
}

/**
 * The typed error of a file query on a file over a limit: UNAVAILABLE (no server will be given this file
 * under the limits in force; RFC 0013 says why not a new code), naming the limit and how to raise it.
 */
export function fileLimitError(shown: string, breach: FileLimitBreach): LspError {
  const size = breach.limit === 'maxFileBytes' && breach.value !== undefined ? ` (${formatBytes(breach.value)})` : ''
  return new LspError(
    'UNAVAILABLE',
    `${shown} is not sent to a language server: ${breachReason(breach)}${size}; ${breachRemedy(breach.limit)}`,
    {
      data: {
        path: shown,
        limit: breach.limit,
        ...(breach.value === undefined ? {} : { value: breach.value }),
        ...(breach.ceiling === undefined ? {} : { ceiling: breach.ceiling }),
        raise: breachRemedy(breach.limit),
      },
    },
  )
}

/** The breach an error reports, when it is a {@link fileLimitError}. */
export function breachOf(error: unknown): FileLimitBreach | undefined {
  if (!(error instanceof LspError) || error.code !== 'UNAVAILABLE') return undefined
  const data = error.data as { limit?: unknown; value?: number; ceiling?: number } | undefined
  const limit = data?.limit
  if (limit !== 'maxFileBytes' && limit !== 'maxLineLength' && limit !== 'binary') return undefined
  return {
    limit,
    ...(data?.value === undefined ? {} : { value: data.value }),
    ...(data?.ceiling === undefined ? {} : { ceiling: data.ceiling }),
  }
}

/** Counts of skipped files by limit (for a workspace-wide answer's coverage). */
export class SkippedFiles {
  private readonly counts = new Map<FileLimitName, LspFilesSkipped>()

  add(breach: Pick<FileLimitBreach, 'limit' | 'ceiling'>, count = 1): void {
    const previous = this.counts.get(breach.limit)
    this.counts.set(breach.limit, {
      limit: breach.limit,
      count: (previous?.count ?? 0) + count,
      ...(breach.ceiling === undefined ? {} : { ceiling: breach.ceiling }),
    })
  }

  addAll(entries: ReadonlyArray<LspFilesSkipped> | undefined): void {
    for (const entry of entries ?? []) this.add(entry, entry.count)
  }

  get total(): number {
    let sum = 0
    for (const entry of this.counts.values()) sum += entry.count
    return sum
  }

  /** `{ filesSkipped }` for a coverage object, or nothing when no file was skipped. */
  field(): { filesSkipped?: ReadonlyArray<LspFilesSkipped> } {
    return this.counts.size === 0 ? {} : { filesSkipped: [...this.counts.values()] }
  }
}
