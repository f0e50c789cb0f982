import { statSync } from 'node:fs'

import { pathToUri, uriToPath } from '@codeseam/lsp'
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol/node'

import type { ServerProfile } from '../profile/profiles.js'
import type { LanguageServer } from '../server/language-server.js'
import { statKey } from '../documents/stat-key.js'
import { serverFolders } from '../server/spec.js'
import { combinedWatch, DiskWatch, type ConfigWatch } from './disk-watch.js'
import { languageIdOf, listFiles, profileExtensions, profileFileNames } from '../profile/files.js'

/** What disk sync tells, and asks, the project loader. */
export interface DiskSyncHooks {
  /** Files were created or deleted under the server's folder (not only changed). */
  filesAddedOrRemoved(server: LanguageServer): void
  /** Project config files to report besides the languages' files, for a server's folder. */
  configWatch(root: string, profile: ServerProfile): ConfigWatch | undefined
}

/** What one catch-up with the disk did before a question (see {@link DiskSync.catchUp}). */
export interface CatchUp {
  /** Files found created, changed or deleted since the last question, told to the server. */
  readonly files: number
  /** Some were created or deleted (not only changed): servers that plan their files late re-plan. */
  readonly addedOrRemoved: boolean
  /** How the changes were found: the folder's watch, or (a tree too large to watch) a scan of its files. */
  readonly method: 'watch' | 'scan'
}

/**
 * Files created, changed or deleted on disk by someone else (an agent's own file tools, a shell, `git
 * checkout`) are invisible to servers that rely on the client: an open document wins over the disk, and a
 * server that watches nothing itself never hears of the rest. Each server's folder is watched from its first
 * query ({@link DiskWatch}); before every question ({@link catchUp}) the changes seen are taken in as one
 * batch: open documents re-checked by stat (the watch's events arrive after the write, asynchronously) and
 * updated or closed, the rest announced with didChangeWatchedFiles. Trees too large to watch are compared by
 * a snapshot scan instead (said in status).
 */
export class DiskSync {
  /** Per server: mtime + size of every file of its languages, when its tree is too large to watch. */
  private readonly snapshots = new WeakMap<LanguageServer, Map<string, string>>()
  private readonly watches = new WeakMap<LanguageServer, Promise<DiskWatch>>()
  private readonly modes = new WeakMap<LanguageServer, 'watched' | 'scanned'>()
  /** Per server: the catch-up running now; the next one starts after it (the watch's events are taken once). */
  private readonly running = new WeakMap<LanguageServer, Promise<CatchUp>>()

  constructor(private readonly hooks: DiskSyncHooks) {}

  /**
   * Brings the server up to the disk as it is now: every change since the last call, one batch. Concurrent
   * callers run one after another, so none answers before the changes taken by another were sent.
   */
  catchUp(server: LanguageServer, profile: ServerProfile): Promise<CatchUp> {
    const previous = this.running.get(server)
    const run =
      previous === undefined
        ? this.catchUpOnce(server, profile)
        : previous.catch(() => undefined).then(() => this.catchUpOnce(server, profile))
    const tracked = run.finally(() => {
      if (this.running.get(server) === tracked) this.running.delete(server)
    })
    this.running.set(server, tracked)
    return tracked
  }

  /** How changes reach the server: its folder watched, or scanned (too many folders); undefined before its first query. */
  modeOf(server: LanguageServer): 'watched' | 'scanned' | undefined {
    return this.modes.get(server)
  }

  private async catchUpOnce(server: LanguageServer, profile: ServerProfile): Promise<CatchUp> {
    const disk = await this.baseline(server, profile)
    const method = disk.complete ? 'watch' : 'scan'
    const seen = disk.complete ? await disk.take() : await this.scan(server, profile)
    const events = await guardLinks(server, profile, seen ?? [])
    // Open documents first: the server reads them from the client, never from the disk, whatever it is told.
    const announced = new Map(events.map((event) => [event.uri, event]))
    let resynced = 0
    for (const document of server.documents.openDocuments) {
      if (document.masked !== undefined || !document.statKey.includes(':')) continue
      const key = statKey(document.path)
      if (key === document.statKey) continue
      resynced++
      if (key === undefined) {
        if (profile.changesThroughDocuments === true) server.documents.setText(document.path, document.languageId, '')
        server.documents.close(document.path)
        if (!announced.has(document.uri)) announced.set(document.uri, { uri: document.uri, type: FileChangeType.Deleted })
        continue
      }
      await server.documents.sync(document.path, document.languageId).catch(() => server.documents.close(document.path))
      if (!announced.has(document.uri)) announced.set(document.uri, { uri: document.uri, type: FileChangeType.Changed })
    }
    const batch = [...announced.values()]
    if (profile.changesThroughDocuments === true) await throughDocuments(server, profile, events)
    const addedOrRemoved = batch.some((e) => e.type !== FileChangeType.Changed)
    if (addedOrRemoved) this.hooks.filesAddedOrRemoved(server)
    server.notifyFiles(batch)
    return { files: Math.max(batch.length, resynced), addedOrRemoved, method }
  }

  /** The changes since the last scan of a tree too large to watch (undefined the first time: the baseline). */
  private async scan(server: LanguageServer, profile: ServerProfile): Promise<FileEvent[] | undefined> {
    const next = new Map<string, string>()
    for (const file of await filesUnder(serverFolders(server.spec), profile)) {
      const info = statSync(file, { throwIfNoEntry: false })
      if (info !== undefined) next.set(file, `${info.mtimeMs}:${info.size}`)
    }
    const previous = this.snapshots.get(server)
    this.snapshots.set(server, next)
    if (previous === undefined) return undefined
    const events: FileEvent[] = []
    for (const [file, key] of next) {
      const before = previous.get(file)
      if (before === undefined) events.push({ uri: pathToUri(file), type: FileChangeType.Created })
      else if (before !== key) events.push({ uri: pathToUri(file), type: FileChangeType.Changed })
    }
    for (const file of previous.keys()) if (!next.has(file)) events.push({ uri: pathToUri(file), type: FileChangeType.Deleted })
    return events
  }

  /** Starts watching a server's folder once (at its first query); the watch closes when the server stops. */
  baseline(server: LanguageServer, profile: ServerProfile): Promise<DiskWatch> {
    let disk = this.watches.get(server)
    if (disk === undefined) {
      const folders = serverFolders(server.spec)
      const config = combinedWatch(folders.map((folder) => this.hooks.configWatch(folder, profile)))
      // Before the server's first file is opened (and its project read from disk): links out of the root masked.
      disk = DiskWatch.start(folders, new Set([...profileExtensions(profile), ...profileFileNames(profile)]), undefined, config).then(
        (watch) => {
          for (const link of watch.links) server.documents.maskIfEscaped(link, languageIdOf(profile, link))
          this.modes.set(server, watch.complete ? 'watched' : 'scanned')
          return watch
        },
      )
      this.watches.set(server, disk)
      void disk.then((watch) => {
        const close = () => watch.close()
        server.on('state', (state) => (state === 'stopped' || state === 'crashed') && close())
        if (server.state === 'stopped' || server.state === 'crashed') close()
      })
    }
    return disk
  }
}

/** The files of a profile's languages under each folder (each listing bounded as one folder's is). */
async function filesUnder(folders: ReadonlyArray<string>, profile: ServerProfile): Promise<string[]> {
  const lists = await Promise.all(folders.map((folder) => listFiles(folder, { extensions: profileExtensions(profile) }, 20_000)))
  return lists.flatMap((list) => list.files)
}

/**
 * The changes of files not open, as document content, for a server that reads what it is told changed on disk
 * after the next request may have run (the profile's `changesThroughDocuments`): a file changed or created is
 * opened with its text from disk (the open-document limit closes the least recently used later); a deleted one
 * is opened empty and closed, so that until its loader has found it gone the server holds no text of it.
 */
async function throughDocuments(server: LanguageServer, profile: ServerProfile, events: ReadonlyArray<FileEvent>): Promise<void> {
  for (const event of events) {
    const path = uriToPath(event.uri)
    if (path === undefined || server.documents.get(path) !== undefined) continue
    const languageId = languageIdOf(profile, path)
    if (languageId === '') continue
    if (event.type === FileChangeType.Deleted) {
      server.documents.setText(path, languageId, '')
      server.documents.close(path)
    } else {
      await server.documents.sync(path, languageId).catch(() => undefined)
    }
  }
}

/**
 * A file that now resolves out of the root (a symbolic link swapped in) is not announced — the server would
 * read the outside file through the link — but masked: open on the server with empty text. Masked files that
 * are back inside get their text again, whether or not a change was seen (one may predate the watch);
 * those unchanged since they were masked are not checked again (each check clears the containment caches).
 */
async function guardLinks(server: LanguageServer, profile: ServerProfile, events: FileEvent[]): Promise<FileEvent[]> {
  const kept: FileEvent[] = []
  for (const event of events) {
    const path = uriToPath(event.uri)
    if (event.type !== FileChangeType.Deleted && path !== undefined && server.documents.maskIfEscaped(path, languageIdOf(profile, path)))
      continue
    kept.push(event)
  }
  for (const document of server.documents.changedMasks) {
    // Still outside: masked again (and refused); gone: reported as such by the sync. Either way not announced.
    await server.documents.sync(document.path, document.languageId).catch(() => undefined)
  }
  return kept
}
