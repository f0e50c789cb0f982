import { statSync } from 'node:fs'

import { pathToUri, uriToPath } from '@codeseam/lsp'
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol/node'

import type { ServerProfile } from '../policy/profiles.js'
import type { LanguageServer } from '../server/language-server.js'
import { DiskWatch, type ConfigWatch } from './disk-watch.js'
import { languageIdOf, listFiles, profileExtensions, profileFileNames } from './files.js'

/** What disk sync tells, and asks, the project loader. */
export interface DiskSyncHooks {
  /** Files were created or deleted under the server's folder (not only changed). */
  filesAddedOrRemoved(server: LanguageServer): void
  /** Project config files to report besides the languages' files, for a server's folder. */
  configWatch(root: string, profile: ServerProfile): ConfigWatch | undefined
}

/**
 * Files created, changed or deleted on disk by someone else (an agent's own file tools) are invisible to
 * servers that rely on the client to watch files. Each server's folder is watched from its first query
 * ({@link DiskWatch}); before whole-workspace queries the changes seen are sent with
 * didChangeWatchedFiles. Trees too large to watch are compared by a snapshot scan instead.
 */
export class DiskSync {
  /** Per server: mtime + size of every file of its languages, when its tree is too large to watch. */
  private readonly snapshots = new WeakMap<LanguageServer, Map<string, string>>()
  private readonly watches = new WeakMap<LanguageServer, Promise<DiskWatch>>()

  constructor(private readonly hooks: DiskSyncHooks) {}

  /** Sends a server the changes seen since the last call (nothing the first time a snapshot is taken). */
  async announceDiskChanges(server: LanguageServer, profile: ServerProfile): Promise<void> {
    const disk = await this.baseline(server, profile)
    if (disk.complete) {
      const events = await guardLinks(server, profile, await disk.take())
      if (events.some((e) => e.type !== FileChangeType.Changed)) this.hooks.filesAddedOrRemoved(server)
      server.notifyFiles(events)
      return
    }
    const { files } = await listFiles(server.spec.root, { extensions: profileExtensions(profile) }, 20_000)
    const next = new Map<string, string>()
    for (const file of files) {
      const info = statSync(file, { throwIfNoEntry: false })
      if (info !== undefined) next.set(file, `${info.mtimeMs}:${info.size}`)
    }
    const previous = this.snapshots.get(server)
    this.snapshots.set(server, next)
    if (previous === undefined) return
    const events: FileEvent[] = []
    for (const [file, key] of next) {
      const before = previous.get(file)
      if (before === undefined) events.push({ uri: pathToUri(file), type: FileChangeType.Created })
      else if (before !== key) events.push({ uri: pathToUri(file), type: FileChangeType.Changed })
    }
    for (const file of previous.keys()) if (!next.has(file)) events.push({ uri: pathToUri(file), type: FileChangeType.Deleted })
    const kept = await guardLinks(server, profile, events)
    if (kept.some((e) => e.type !== FileChangeType.Changed)) this.hooks.filesAddedOrRemoved(server)
    server.notifyFiles(kept)
  }

  /** Starts watching a server's folder once (at its first query); the watch closes when the server stops. */
  baseline(server: LanguageServer, profile: ServerProfile): Promise<DiskWatch> {
    let disk = this.watches.get(server)
    if (disk === undefined) {
      const config = this.hooks.configWatch(server.spec.root, profile)
      // Before the server's first file is opened (and its project read from disk): links out of the root masked.
      disk = DiskWatch.start(
        server.spec.root,
        new Set([...profileExtensions(profile), ...profileFileNames(profile)]),
        undefined,
        config,
      ).then((watch) => {
        for (const link of watch.links) server.documents.maskIfEscaped(link, languageIdOf(profile, link))
        return watch
      })
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
