import {
  displayPath,
  isLspError,
  isWithin,
  rootHolding,
  linesFor,
  type LspDocumentSnapshot,
  type LspFilesSkipped,
  type LspService,
  type TextLines,
} from '@codeseam/lsp'

import { mapBounded } from './budget.js'
import type { ToolContext } from './definition.js'
import { skippedFilesNote } from './targeting.js'

/**
 * Reads source text for snippets, bodies and enclosing symbols: through the workspace's own reader (so a
 * VS Code backend shows unsaved buffers and nothing outside the root is ever read), with bounded
 * concurrency, each file once per call, and line tables shared per content hash (the seam's `linesFor`).
 */

/** Files read at once when a result spans many files. */
export const snippetReadConcurrency = 8

/** A read file: its snapshot and line table. */
export interface SourceFile {
  readonly document: LspDocumentSnapshot
  readonly lines: TextLines
}

/** Reads files of one workspace for one tool call. */
export class SourceReader {
  private readonly files = new Map<string, Promise<SourceFile | undefined>>()
  private readonly failed = new Set<string>()
  /** Files a per-file limit (RFC 0013) kept from being read, with the limit. */
  private readonly limited = new Map<string, LspFilesSkipped>()

  constructor(
    private readonly lsp: LspService,
    private readonly root: string,
    private readonly signal: AbortSignal,
  ) {}

  /** Seeds the reader with a document already read (the target's), so it is not read twice. */
  seed(document: LspDocumentSnapshot, lines?: TextLines): void {
    this.files.set(document.path, Promise.resolve({ document, lines: lines ?? linesFor(document) }))
  }

  /**
   * The file at an absolute path, or undefined when it cannot be read (deleted since the server answered,
   * unreadable): a snippet is decoration, so its absence does not fail the answer, but the file is counted
   * in {@link unreadable} for the notice. Cancellation, disposal and a path escaping the root (a server or
   * symbolic link pointing outside) end the call instead.
   */
  read(path: string): Promise<SourceFile | undefined> {
    let pending = this.files.get(path)
    if (pending === undefined) {
      // A file in another open root of the workspace (RFC 0025) is read through that root's own reader.
      const workspace = this.lsp.workspace(
        isWithin(this.root, path) ? this.root : (rootHolding(this.lsp.workspaces(), path)?.root ?? this.root),
      )
      pending =
        workspace === undefined
          ? Promise.resolve(this.skip(path))
          : workspace.readFile(path, this.signal).then(
              (document) => ({ document, lines: linesFor(document) }),
              (error: unknown) => {
                if (isLspError(error, 'CANCELLED', 'DISPOSED', 'OUTSIDE_WORKSPACE')) throw error
                const { limit, ceiling } = (isLspError(error, 'UNAVAILABLE') ? error.data : undefined) ?? {}
                if (limit === 'maxFileBytes' || limit === 'maxLineLength' || limit === 'binary' || limit === 'notUtf8') {
                  this.limited.set(path, { limit, count: 1, ...(ceiling === undefined ? {} : { ceiling }) })
                  return undefined
                }
                return this.skip(path)
              },
            )
      this.files.set(path, pending)
    }
    return pending
  }

  private skip(path: string): undefined {
    this.failed.add(path)
    return undefined
  }

  /** Absolute paths of the files that could not be read so far in this call. */
  get unreadable(): ReadonlyArray<string> {
    return [...this.failed]
  }

  /**
   * The notice for files without snippets, or undefined when every file was read: those that could not be
   * read, and those a per-file limit kept from being read ("1 file skipped: over 4 MB
   * (limits.maxFileBytes), so its snippets are empty (gen/huge.ts)").
   */
  unreadableNotice(): string | undefined {
    const notes: string[] = []
    const count = this.failed.size
    if (count > 0) {
      notes.push(
        `${count} ${count === 1 ? 'file' : 'files'} could not be read, so ${count === 1 ? 'its' : 'their'} snippets are empty (${this.named(this.failed)})`,
      )
    }
    const limited = this.limited.size
    if (limited > 0) {
      notes.push(
        `${skippedFilesNote([...this.limited.values()])}, so ${limited === 1 ? 'its' : 'their'} snippets are empty (${this.named(this.limited.keys())})`,
      )
    }
    return notes.length === 0 ? undefined : notes.join('; ')
  }

  private named(paths: Iterable<string>): string {
    const all = [...paths]
    const named = all.slice(0, 5).map((path) => displayPath(this.root, path))
    return `${named.join(', ')}${all.length > named.length ? ', …' : ''}`
  }

  /** Reads many files with bounded concurrency. */
  async readAll(paths: ReadonlyArray<string>): Promise<Map<string, SourceFile | undefined>> {
    const unique = [...new Set(paths)]
    const read = await mapBounded(unique, snippetReadConcurrency, (path) => this.read(path), this.signal)
    return new Map(unique.map((path, index) => [path, read[index]]))
  }
}

/** A reader for the workspace at `root`, bound to the call's signal. */
export function sourceReader(context: ToolContext, root: string): SourceReader {
  return new SourceReader(context.lsp, root, context.signal)
}

/** Longest snippet line kept; longer lines are cut around the point of interest. */
export const maxSnippetLineChars = 200

/** One line of source trimmed for display: leading indentation removed, long lines cut around `column0`. */
export function snippetLine(lines: TextLines, line: number, column0 = 0): string {
  if (line < 0 || line >= lines.lineCount) return ''
  const text = lines.lineText(line)
  const trimmedStart = text.length - text.trimStart().length
  const body = text.slice(trimmedStart).trimEnd()
  if (body.length <= maxSnippetLineChars) return body
  const focus = Math.max(0, column0 - trimmedStart)
  const start = Math.max(0, Math.min(focus - 60, body.length - maxSnippetLineChars))
  return `${start > 0 ? '…' : ''}${body.slice(start, start + maxSnippetLineChars)}…`
}

/** `context` lines either side of `line`, numbered 1-based, as one block ("12| code"). */
export function snippetWindow(lines: TextLines, line: number, context: number): string {
  const from = Math.max(0, line - context)
  const to = Math.min(lines.lineCount - 1, line + context)
  const out: string[] = []
  for (let l = from; l <= to; l++) {
    const text = lines.lineText(l)
    out.push(`${l + 1}${l === line ? '>' : '|'} ${text.length > maxSnippetLineChars ? `${text.slice(0, maxSnippetLineChars)}…` : text}`)
  }
  return out.join('\n')
}
