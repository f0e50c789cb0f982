import { readFile } from 'node:fs/promises'

import { LspError, contentHash, isLspError, pathToUri, type LspDocumentSnapshot } from '@codeseam/lsp'
import { TextDocumentSyncKind } from 'vscode-languageserver-protocol/node'

import { contentBreach, fileLimitError, noFileLimits, sizeBreach, type FileLimits } from './file-limits.js'
import { rememberVersion, type DocumentChannel, type OpenDocument, type SyncOptions } from './open-document.js'
import { changedAt, minimalChange, sizeOf, statKey } from './stat-key.js'

export type { DocumentChannel, OpenDocument, SyncOptions } from './open-document.js'

/** A stat key no file has: a masked document is always checked again. */
const maskedKey = 'masked'

/** A snapshot that can stand for the disk at `path`: of that path, with the stat key of its read. */
function usable(path: string, snapshot: LspDocumentSnapshot | undefined): (LspDocumentSnapshot & { revision: string }) | undefined {
  return snapshot !== undefined && snapshot.path === path && snapshot.revision !== undefined
    ? (snapshot as LspDocumentSnapshot & { revision: string })
    : undefined
}

/**
 * The documents one server has open: opened from disk on demand, re-synced (full or incremental, per the
 * server's sync kind) when the file changed on disk, closed least-recently-used beyond `maxOpen` — except
 * pinned documents, which keep projects loaded.
 */
export class DocumentSync {
  private readonly open = new Map<string, OpenDocument>()
  /** Syncs in progress per path: concurrent queries on one file sync it one at a time (one didOpen, not two). */
  private readonly syncing = new Map<string, Promise<OpenDocument>>()
  /** Set while a speculative check holds the documents: every other sync waits for it to end. */
  private held: Promise<void> | undefined

  /**
   * @param checkRead called before each read from disk; throws to refuse it (a file that became a
   * symbolic link pointing out of the workspace).
   * @param fileLimits what a file read from disk must be to be sent at all (RFC 0013): a file over them is
   * never opened (or, when it grew past them, closed) and the sync fails with the typed error.
   */
  constructor(
    private readonly channel: DocumentChannel,
    private readonly maxOpen: number,
    private readonly checkRead: (path: string) => void = () => {},
    private readonly fileLimits: FileLimits = noFileLimits,
  ) {}

  get openDocuments(): ReadonlyArray<OpenDocument> {
    return [...this.open.values()]
  }

  /** How many documents are open (the documents-open gauge). */
  get openCount(): number {
    return this.open.size
  }

  get(path: string): OpenDocument | undefined {
    return this.open.get(path)
  }

  /**
   * Makes the server's copy of `path` match the disk. NOT_FOUND when the file does not exist. `snapshot`, the
   * file as the seam read it in this same call (with its `revision`, the stat key of the read), stands for
   * the disk: it is neither stat'ed nor read again (and its positions are the ones the caller computed).
   */
  sync(path: string, languageId: string, options: SyncOptions = {}): Promise<OpenDocument> {
    // A speculative text must never be synced over (nor served) midway: wait until the disk text is back.
    const held = this.held
    if (held !== undefined && options.holder !== true) return held.then(() => this.sync(path, languageId, options))
    const previous = this.syncing.get(path)
    if (previous === undefined) {
      // The common case, kept cheap: open, nobody syncing it, unchanged on disk since the last sync.
      const existing = this.open.get(path)
      if (existing !== undefined && (usable(path, options.snapshot)?.revision ?? statKey(path)) === existing.statKey) {
        existing.lastUsed = performance.now()
        if (options.pin === true) existing.pinned = true
        return Promise.resolve(existing)
      }
    }
    const run =
      previous === undefined
        ? this.syncOnce(path, languageId, options)
        : previous.catch(() => undefined).then(() => this.syncOnce(path, languageId, options))
    const tracked = run.finally(() => {
      if (this.syncing.get(path) === tracked) this.syncing.delete(path)
    })
    this.syncing.set(path, tracked)
    return tracked
  }

  private async syncOnce(path: string, languageId: string, options: SyncOptions): Promise<OpenDocument> {
    const existing = this.open.get(path)
    // A snapshot read before another query synced a newer version is not the disk any more: never go back.
    const given = usable(path, options.snapshot)
    const snapshot =
      given !== undefined && existing !== undefined && changedAt(given.revision) < changedAt(existing.statKey) ? undefined : given
    const key = snapshot === undefined ? statKey(path) : snapshot.revision
    if (key === undefined) {
      if (existing !== undefined) this.close(path)
      throw new LspError('NOT_FOUND', `${path} does not exist (or is not a file)`, { data: { path } })
    }
    if (existing !== undefined) {
      existing.lastUsed = performance.now()
      if (options.pin === true) existing.pinned = true
      if (existing.statKey === key) return existing
    }
    let text: string
    let hash: string
    if (snapshot !== undefined) {
      // Read (and contained, symlinks included) by the seam moments ago, in this call.
      text = snapshot.text
      hash = snapshot.hash
    } else {
      try {
        this.checkRead(path)
        // Limits before work: the size from the stat just taken, before a byte is read.
        const oversized = sizeBreach(sizeOf(key), this.fileLimits)
        if (oversized !== undefined) throw fileLimitError(path, oversized)
      } catch (error) {
        if (isLspError(error, 'OUTSIDE_WORKSPACE')) this.mask(path, languageId)
        else if (existing !== undefined) this.close(path)
        throw error
      }
      const bytes = await readFile(path).catch((error: unknown) => {
        throw new LspError('NOT_FOUND', `cannot read ${path}: ${(error as Error).message}`, { cause: error })
      })
      text = bytes.toString('utf8')
      const breach = sizeBreach(bytes.length, this.fileLimits) ?? contentBreach(bytes, text, this.fileLimits)
      if (breach !== undefined) {
        if (existing !== undefined) this.close(path)
        throw fileLimitError(path, breach)
      }
      hash = contentHash(text)
    }
    if (existing !== undefined) {
      existing.statKey = key
      if (existing.masked !== undefined) {
        existing.pinned = existing.masked.pinned || options.pin === true
        delete existing.masked
      }
      if (existing.hash === hash) return existing
      const change =
        this.channel.syncKind() === TextDocumentSyncKind.Incremental ? minimalChange(existing.text, existing.hash, text) : { text }
      rememberVersion(existing)
      existing.version++
      existing.text = text
      existing.hash = hash
      existing.syncSeq = this.channel.diagnosticsSeq()
      this.channel.change(existing.uri, existing.version, [change])
      return existing
    }
    const document: OpenDocument = {
      uri: pathToUri(path),
      path,
      languageId,
      version: 1,
      hash,
      text,
      statKey: key,
      syncSeq: this.channel.diagnosticsSeq(),
      lastUsed: performance.now(),
      pinned: options.pin === true,
    }
    this.open.set(path, document)
    this.channel.open({ uri: document.uri, languageId, version: 1, text })
    this.evict()
    return document
  }

  /**
   * Empty text on the server for a file that resolves out of the root now (a symbolic link swapped in): open
   * and pinned, since a closed document is one the server reads from disk, through the link. The next sync
   * that finds the file back inside restores its text.
   */
  mask(path: string, languageId: string): void {
    const existing = this.open.get(path)
    if (existing !== undefined) {
      existing.statKey = maskedKey
      if (existing.masked !== undefined) {
        existing.masked = { ...existing.masked, at: statKey(path) }
        return
      }
      existing.masked = { pinned: existing.pinned, at: statKey(path) }
      existing.pinned = true
      if (existing.text === '') return
      rememberVersion(existing)
      existing.version++
      existing.text = ''
      existing.hash = contentHash('')
      existing.syncSeq = this.channel.diagnosticsSeq()
      this.channel.change(existing.uri, existing.version, [{ text: '' }]) // no range: the whole text, either sync kind
      return
    }
    const uri = pathToUri(path)
    const [hash, syncSeq, lastUsed] = [contentHash(''), this.channel.diagnosticsSeq(), performance.now()]
    this.open.set(path, {
      uri,
      path,
      languageId,
      version: 1,
      hash,
      text: '',
      statKey: maskedKey,
      syncSeq,
      lastUsed,
      pinned: true,
      masked: { pinned: false, at: statKey(path) },
    })
    this.channel.open({ uri, languageId, version: 1, text: '' })
  }

  /** Masks `path` (see {@link mask}) when it resolves out of the root now; true when it does. */
  maskIfEscaped(path: string, languageId: string): boolean {
    try {
      this.checkRead(path)
      return false
    } catch (error) {
      if (!isLspError(error, 'OUTSIDE_WORKSPACE')) return false
      this.mask(path, languageId)
      return true
    }
  }

  /**
   * Documents masked because their file resolved out of the root (see {@link mask}) whose file changed since
   * (swapped back, retargeted, removed): the ones worth syncing again. One stat each; a link that stays
   * costs nothing more.
   */
  get changedMasks(): ReadonlyArray<OpenDocument> {
    return [...this.open.values()].filter((d) => d.masked !== undefined && statKey(d.path) !== d.masked.at)
  }

  /** Holds the documents for a speculative check (RFC 0018) until the returned function is called. */
  hold(): () => void {
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    this.held = held
    return () => {
      if (this.held === held) this.held = undefined
      release()
    }
  }

  /**
   * Sends `text` as the content of `path` (version + 1, the stat key kept): a speculative text, or the disk text
   * back. A document not open is opened with it, in memory only (a file the edit creates: no stat key).
   */
  setText(path: string, languageId: string, text: string): OpenDocument {
    const existing = this.open.get(path)
    if (existing === undefined) {
      const uri = pathToUri(path)
      const document: OpenDocument = {
        uri,
        path,
        languageId,
        version: 1,
        hash: contentHash(text),
        text,
        statKey: maskedKey,
        syncSeq: this.channel.diagnosticsSeq(),
        lastUsed: performance.now(),
        pinned: true,
      }
      this.open.set(path, document)
      this.channel.open({ uri, languageId, version: 1, text })
      return document
    }
    const change =
      this.channel.syncKind() === TextDocumentSyncKind.Incremental ? minimalChange(existing.text, existing.hash, text) : { text }
    rememberVersion(existing)
    existing.version++
    existing.text = text
    existing.hash = contentHash(text)
    existing.syncSeq = this.channel.diagnosticsSeq()
    this.channel.change(existing.uri, existing.version, [change])
    return existing
  }

  close(path: string): void {
    const document = this.open.get(path)
    if (document === undefined) return
    this.open.delete(path)
    this.channel.close(document.uri)
  }

  private evict(): void {
    if (this.open.size <= this.maxOpen) return
    const candidates = [...this.open.values()].filter((d) => !d.pinned).sort((a, b) => a.lastUsed - b.lastUsed)
    for (const document of candidates) {
      if (this.open.size <= this.maxOpen) break
      this.close(document.path)
    }
  }
}
