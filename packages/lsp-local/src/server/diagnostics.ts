import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node'

/** One file's diagnostics as last received, pushed or pulled. */
export interface DiagnosticsEntry {
  readonly uri: string
  /** Document version the server said they were for, when it said. */
  readonly version?: number
  readonly diagnostics: ReadonlyArray<Diagnostic>
  /** Arrival order across the store: compared with a document's sync sequence to tell fresh from stale. */
  readonly seq: number
  readonly source: 'push' | 'pull'
}

/**
 * One versioned store fed by publishDiagnostics (push) and textDocument/diagnostic (pull). Waiting is
 * event-driven: a waiter resolves once a matching entry arrived and nothing newer came for the quiet
 * window, or when its deadline passes.
 */
export class DiagnosticsStore {
  private readonly entries = new Map<string, DiagnosticsEntry>()
  private readonly listeners = new Set<(uri: string) => void>()
  private seq = 0

  /** The sequence number the next entry will be above: taken at document sync. */
  get currentSeq(): number {
    return this.seq
  }

  push(params: PublishDiagnosticsParams): void {
    this.record({
      uri: params.uri,
      diagnostics: params.diagnostics,
      seq: ++this.seq,
      source: 'push',
      ...(params.version === undefined ? {} : { version: params.version }),
    })
  }

  pulled(uri: string, version: number | undefined, diagnostics: ReadonlyArray<Diagnostic>): DiagnosticsEntry {
    const entry: DiagnosticsEntry = { uri, diagnostics, seq: ++this.seq, source: 'pull', ...(version === undefined ? {} : { version }) }
    this.record(entry)
    return entry
  }

  /** A pull answered "unchanged": the previous entry stays valid for the new version. */
  unchanged(uri: string, version: number | undefined): DiagnosticsEntry | undefined {
    const previous = this.entries.get(uri)
    if (previous === undefined) return undefined
    return this.pulled(uri, version, previous.diagnostics)
  }

  get(uri: string): DiagnosticsEntry | undefined {
    return this.entries.get(uri)
  }

  forget(uri: string): void {
    this.entries.delete(uri)
  }

  private record(entry: DiagnosticsEntry): void {
    this.entries.set(entry.uri, entry)
    for (const listener of this.listeners) listener(entry.uri)
  }

  /**
   * Waits for pushed diagnostics of `uri` that arrived after `afterSeq` (and match `version` when the
   * server reports versions), then for `quietMs` without another push for it; gives up at `deadline`
   * (epoch ms) or on abort and returns whatever is there.
   */
  waitForPush(
    uri: string,
    afterSeq: number,
    version: number,
    quietMs: number,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<DiagnosticsEntry | undefined> {
    const matches = (entry: DiagnosticsEntry | undefined) =>
      entry !== undefined && entry.seq > afterSeq && (entry.version === undefined || entry.version === version)
    return new Promise((resolve) => {
      let quietTimer: NodeJS.Timeout | undefined
      const finish = () => {
        clearTimeout(quietTimer)
        clearTimeout(deadlineTimer)
        this.listeners.delete(onEntry)
        signal?.removeEventListener('abort', finish)
        resolve(this.entries.get(uri))
      }
      const onEntry = (changed: string) => {
        if (changed !== uri || !matches(this.entries.get(uri))) return
        clearTimeout(quietTimer)
        quietTimer = setTimeout(finish, Math.max(0, Math.min(quietMs, deadline - Date.now())))
      }
      const deadlineTimer = setTimeout(finish, Math.max(0, deadline - Date.now()))
      // An already-aborted signal never fires 'abort' again: give up now, not at the deadline.
      if (signal?.aborted === true) {
        finish()
        return
      }
      signal?.addEventListener('abort', finish, { once: true })
      this.listeners.add(onEntry)
      if (matches(this.entries.get(uri))) onEntry(uri)
    })
  }
}
