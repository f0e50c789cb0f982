// Size: the workspace reader and the atomic applier (containment, hash and version checks, journaled apply, rollback) are one flow.
import { existsSync, statSync } from 'node:fs'
import { lstat, mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { randomUUID } from 'node:crypto'

import {
  LspError,
  applyTextEdits,
  contentHash,
  isWorkspacePath,
  pathToUri,
  type Containment,
  type LspApplyEditOptions,
  type LspApplyEditResult,
  type LspDocumentSnapshot,
  type LspWorkspace,
  type LspWorkspaceEdit,
  type WorkspacePath,
} from '@codeseam/lsp'
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol/node'

import type { TrustLevel } from '../policy/config.js'
import type { LanguageServer } from '../server/language-server.js'
import { pathExists, replacedError, writeAtomically } from './atomic-write.js'
import { statKeyOf } from '../documents/stat-key.js'
import { breachOf, contentBreach, fileLimitError, noFileLimits, sizeBreach, type FileLimits } from '../documents/file-limits.js'
import { sameTextAs } from '../documents/open-document.js' // versions a speculative check moved on, same text
import { ReadCache } from './read-cache.js'

/** What a workspace needs of the host: the running servers under a root, to check and tell them about edits. */
export interface LiveServers {
  liveServersUnder(root: string): ReadonlyArray<LanguageServer>
}

/**
 * One workspace root served by the host: contained reads, and an edit applier that writes every file or
 * none (temp file + rename, rollback), re-checks hashes and versions first, and tells the servers after.
 */
export class LocalWorkspace implements LspWorkspace {
  /** Files read, served again while their stat key holds; one synchronous stat per check (see {@link ReadCache}). */
  private readonly reads = new ReadCache()
  private changeCount = 0
  private readonly profileChanges = new Map<string, number>()

  /** @param fileLimits the per-file ceilings every read for a server or a tool is held to (RFC 0013) */
  constructor(
    readonly id: string,
    readonly containment: Containment,
    public trust: TrustLevel,
    private readonly host: LiveServers,
    readonly fileLimits: FileLimits = noFileLimits,
  ) {}

  get root(): string {
    return this.containment.root
  }

  /**
   * Changes under the root since the workspace opened, as far as the host noticed (RFC 0026): its own writes,
   * and each catch-up with the disk of a server of one of `profileIds` that found any (a server stopping counts
   * too: its watch ends). Never a speculative check. A provider's change mark: counted per profile, so that one
   * provider's mark moves only with what its own servers took in.
   */
  changesFor(profileIds: Iterable<string>): number {
    let count = this.changeCount
    for (const id of profileIds) count += this.profileChanges.get(id) ?? 0
    return count
  }

  /** Counts a change under the root: taken in by a server of `profileId`, or (none) written by the host itself. */
  noteChange(profileId?: string): void {
    if (profileId === undefined) this.changeCount++
    else this.profileChanges.set(profileId, (this.profileChanges.get(profileId) ?? 0) + 1)
  }

  existsSync(path: string): boolean {
    return existsSync(path)
  }

  async readFile(path: string, signal?: AbortSignal): Promise<LspDocumentSnapshot> {
    // Contained uncached: a file may have become a symbolic link pointing out since it was checked.
    return this.read(this.containment.fresh(path).path, path, signal)
  }

  /** A path the seam resolved (and contained, symlinks included) for this root in this call: read as is. */
  async readResolved(file: WorkspacePath, signal?: AbortSignal): Promise<LspDocumentSnapshot> {
    if (!isWorkspacePath(file, this.root)) return this.readFile((file as WorkspacePath).lexical, signal)
    return this.read(file.path, file.relative, signal)
  }

  /**
   * One synchronous stat when the file is unchanged since it was last read (its snapshot is served again);
   * else one open, the stat taken from the open file (the snapshot's `revision`), so document sync need not
   * stat or read the file again. Containment was checked by the caller, at this moment.
   */
  private async read(absolute: string, shown: string, signal: AbortSignal | undefined): Promise<LspDocumentSnapshot> {
    const known = this.reads.get(absolute)
    if (known !== undefined) {
      if (signal?.aborted) throw new LspError('CANCELLED', `reading ${shown} was cancelled`)
      return known
    }
    const startedAt = Date.now()
    let text: string
    let revision: string
    try {
      const handle = await open(absolute, 'r')
      try {
        const stats = await handle.stat()
        if (!stats.isFile()) throw new Error(`${absolute} is not a file`)
        // Limits before work: a file over the size ceiling is not read at all.
        const oversized = sizeBreach(stats.size, this.fileLimits)
        if (oversized !== undefined) throw fileLimitError(shown, oversized)
        revision = statKeyOf(stats)
        const bytes = await handle.readFile(signal === undefined ? {} : { signal })
        text = bytes.toString('utf8')
        const breach = sizeBreach(bytes.length, this.fileLimits) ?? contentBreach(bytes, text, this.fileLimits)
        if (breach !== undefined) throw fileLimitError(shown, breach)
      } finally {
        await handle.close()
      }
    } catch (error) {
      if (breachOf(error) !== undefined) {
        // Grown past a limit since a server opened it: its copy is closed rather than left stale.
        for (const server of this.host.liveServersUnder(this.root)) server.documents.close(absolute)
        throw error
      }
      if (signal?.aborted) throw new LspError('CANCELLED', `reading ${shown} was cancelled`)
      throw new LspError('NOT_FOUND', `${shown} does not exist in ${this.root} (or cannot be read): ${(error as Error).message}`, {
        cause: error,
        data: { path: shown },
      })
    }
    const snapshot = { path: absolute, uri: pathToUri(absolute), text, hash: contentHash(text), revision }
    this.reads.remember(snapshot, startedAt)
    return snapshot
  }

  async exists(path: string): Promise<boolean> {
    try {
      const absolute = this.containment.input(path)
      return statSync(absolute, { throwIfNoEntry: false })?.isFile() === true
    } catch {
      return false
    }
  }

  async applyEdit(edit: LspWorkspaceEdit, options: LspApplyEditOptions = {}): Promise<LspApplyEditResult> {
    if (edit === null || typeof edit !== 'object' || !Array.isArray(edit.operations)) {
      throw new LspError('INVALID_ARGUMENT', 'applyEdit needs a workspace edit with an operations array')
    }
    // 1. Containment of every path, before anything is touched.
    const resolved = edit.operations.map((op) =>
      op.type === 'rename'
        ? { op, path: this.containment.fresh(op.oldPath).path, newPath: this.containment.fresh(op.newPath).path }
        : { op, path: this.containment.fresh(op.path).path, newPath: undefined },
    )
    // 2. Hashes and versions re-checked: nothing is written when one is stale.
    const expected = new Map(Object.entries(options.expectedHashes ?? {}).map(([path, hash]) => [this.containment.fresh(path).path, hash]))
    await this.assertCurrent(resolved, expected)
    // 3. Apply in order, journaling how to undo each step.
    const undo: Array<() => Promise<void>> = []
    const files = new Map<string, { path: string; hashBefore?: string; hashAfter?: string; editCount: number; saved: boolean }>()
    const resourceOperations: Array<{ type: 'create' | 'rename' | 'delete'; path: string; newPath?: string }> = []
    const events: FileEvent[] = []
    const trash: string[] = []
    try {
      for (const { op, path, newPath } of resolved) {
        if (op.type === 'edit') {
          // What the edit was computed for must still be there, checked again at the write: between the
          // checks above and here another writer may have changed the file or swapped it for a link.
          const identity = await lstat(path).catch((error: unknown) => {
            throw new LspError('NOT_FOUND', `cannot edit ${path}: ${(error as Error).message}`, { cause: error })
          })
          if (!identity.isFile()) throw replacedError(path, identity)
          const before = await readFile(path, 'utf8').catch((error: unknown) => {
            throw new LspError('NOT_FOUND', `cannot edit ${path}: ${(error as Error).message}`, { cause: error })
          })
          // The expected hash is of the file before this change: checked at its first edit, not at a later
          // one of the same change (which sees the earlier one's result).
          let entry = files.get(path)
          if (entry === undefined) {
            const hashBefore = contentHash(before)
            const hash = expected.get(path)
            if (hash !== undefined && hashBefore !== hash) {
              throw new LspError('STALE_VERSION', `${path} changed while the edit was being applied; compute it again`, { data: { path } })
            }
            entry = { path, hashBefore, editCount: 0, saved: true }
          }
          const after = applyTextEdits(before, op.edits, op.path)
          await writeAtomically(path, after, identity)
          undo.push(() => writeAtomically(path, before))
          files.set(path, { ...entry, hashAfter: contentHash(after), editCount: entry.editCount + op.edits.length })
          events.push({ uri: pathToUri(path), type: FileChangeType.Changed })
        } else if (op.type === 'create') {
          const exists = await pathExists(path)
          if (exists && op.options?.overwrite !== true) {
            if (op.options?.ignoreIfExists === true) continue
            throw new LspError(
              'INVALID_ARGUMENT',
              `cannot create ${path}: it already exists (and neither overwrite nor ignoreIfExists was set)`,
            )
          }
          const previous = exists ? await readFile(path, 'utf8') : undefined
          await mkdir(nodePath.dirname(path), { recursive: true })
          await writeAtomically(path, '')
          undo.push(() => (previous === undefined ? rm(path, { force: true }) : writeAtomically(path, previous)))
          files.set(path, {
            path,
            ...(previous === undefined ? {} : { hashBefore: contentHash(previous) }),
            hashAfter: contentHash(''),
            editCount: 0,
            saved: true,
          })
          resourceOperations.push({ type: 'create', path })
          events.push({ uri: pathToUri(path), type: previous === undefined ? FileChangeType.Created : FileChangeType.Changed })
        } else if (op.type === 'rename') {
          const target = newPath as string
          if (!(await pathExists(path))) throw new LspError('NOT_FOUND', `cannot rename ${path}: it does not exist`)
          let displaced: string | undefined
          if (await pathExists(target)) {
            if (op.options?.overwrite !== true) {
              if (op.options?.ignoreIfExists === true) continue
              throw new LspError(
                'INVALID_ARGUMENT',
                `cannot rename to ${target}: it already exists (and neither overwrite nor ignoreIfExists was set)`,
              )
            }
            displaced = `${target}.codeseam-${randomUUID()}.bak`
            await rename(target, displaced)
            trash.push(displaced)
          }
          await mkdir(nodePath.dirname(target), { recursive: true })
          await rename(path, target)
          undo.push(async () => {
            await rename(target, path)
            if (displaced !== undefined) await rename(displaced, target)
          })
          resourceOperations.push({ type: 'rename', path, newPath: target })
          events.push({ uri: pathToUri(path), type: FileChangeType.Deleted }, { uri: pathToUri(target), type: FileChangeType.Created })
        } else {
          if (!(await pathExists(path))) {
            if (op.options?.ignoreIfNotExists === true) continue
            throw new LspError('NOT_FOUND', `cannot delete ${path}: it does not exist`)
          }
          const info = await lstat(path)
          if (info.isDirectory() && op.options?.recursive !== true) {
            const { readdir } = await import('node:fs/promises')
            if ((await readdir(path)).length > 0)
              throw new LspError('INVALID_ARGUMENT', `cannot delete the folder ${path}: it is not empty and recursive was not set`)
          }
          // Moved aside, removed only once the whole edit succeeded, so a rollback can restore it.
          const aside = `${path}.codeseam-${randomUUID()}.deleted`
          await rename(path, aside)
          trash.push(aside)
          undo.push(() => rename(aside, path))
          const before = info.isFile() ? await readFile(aside, 'utf8').then(contentHash, () => undefined) : undefined
          if (info.isFile()) files.set(path, { path, ...(before === undefined ? {} : { hashBefore: before }), editCount: 0, saved: true })
          resourceOperations.push({ type: 'delete', path })
          events.push({ uri: pathToUri(path), type: FileChangeType.Deleted })
        }
      }
    } catch (error) {
      // Written and restored is still a change: answers computed before it are not kept past it (RFC 0026).
      this.noteChange()
      const rollbackFailures: string[] = []
      for (const step of undo.reverse()) {
        await step().catch((e: unknown) => rollbackFailures.push((e as Error).message))
      }
      this.containment.invalidate()
      this.reads.clear()
      if (error instanceof LspError && undo.length === 0) throw error
      const detail = error instanceof Error ? error.message : String(error)
      throw new LspError(
        error instanceof LspError && error.code !== 'WRITE_FAILED' && rollbackFailures.length === 0 ? error.code : 'WRITE_FAILED',
        `applying the edit failed (${detail}); ${rollbackFailures.length === 0 ? 'every file already written was restored' : `rolling back also failed: ${rollbackFailures.join('; ')}`}`,
        { cause: error },
      )
    }
    this.noteChange()
    await Promise.all(trash.map((path) => rm(path, { recursive: true, force: true }).catch(() => {})))
    this.containment.invalidate()
    this.reads.clear()
    await this.notifyServers(events)
    return { files: [...files.values()], resourceOperations }
  }

  /**
   * Every expected hash still matches the disk, and every edit computed for a document version still matches
   * the servers' documents and the disk: STALE_VERSION otherwise, before anything is written.
   */
  private async assertCurrent(
    resolved: ReadonlyArray<{ op: LspWorkspaceEdit['operations'][number]; path: string }>,
    expected: ReadonlyMap<string, string>,
  ): Promise<void> {
    for (const [path, hash] of expected) {
      const current = await readFile(path, 'utf8').then(contentHash, () => undefined)
      if (current !== hash)
        throw new LspError(
          'STALE_VERSION',
          `${path} changed since the edit was computed (its content hash differs); compute the edit again`,
          { data: { path } },
        )
    }
    for (const { op, path } of resolved) {
      if (op.type !== 'edit' || op.version === null) continue
      for (const server of this.host.liveServersUnder(this.root)) {
        const document = server.documents.get(path)
        if (document === undefined) continue
        const onDisk = await readFile(path, 'utf8').then(contentHash, () => undefined)
        if (!sameTextAs(document, op.version) || document.hash !== onDisk) {
          throw new LspError(
            'STALE_VERSION',
            `${path} is at version ${document.version}${document.hash !== onDisk ? ' and changed on disk since' : ''}, but the edit was computed for version ${op.version}; compute it again`,
            { data: { path } },
          )
        }
      }
    }
  }

  /** Tells every running server under this root what changed: open documents are re-synced, the rest announced. */
  async notifyServers(events: ReadonlyArray<FileEvent>): Promise<void> {
    if (events.length === 0) return
    for (const server of this.host.liveServersUnder(this.root)) {
      for (const event of events) {
        const path = this.containment.output(event.uri)
        const document = path === undefined ? undefined : server.documents.get(path)
        if (document === undefined || path === undefined) continue
        if (event.type === FileChangeType.Deleted) server.documents.close(path)
        else await server.documents.sync(path, document.languageId).catch(() => server.documents.close(path))
      }
      server.notifyFiles([...events])
    }
  }
}
