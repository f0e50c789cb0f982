import { statSync, type Stats } from 'node:fs'

import type { LspDiskCatchUp, LspQueryResult } from '@codeseam/lsp'

import type { HostCore } from '../pool/host-core.js'
import type { ServerProfile } from '../profile/profiles.js'
import type { LanguageServer } from '../server/language-server.js'
import type { LocalWorkspace } from '../workspace/workspace.js'
import type { CatchUp } from '../workspace/disk-sync.js'
import type { Serving } from './serving.js'

/**
 * How long a server that plans its files late (pyright: on a timer 250 ms after the last request) is left
 * alone after being told of files created or deleted, before it is asked: four times its timer, for a loaded
 * machine. The same window tells a settled server apart on its first answer (file-query.ts).
 */
export const settleQuietMs = 1_000

/**
 * The disk as it is at the question: every change since the server's last question taken in (open documents
 * updated or closed, the rest announced, see DiskSync.catchUp), and for a server that takes created and deleted
 * files in on a timer of its own (the profile's `deferredDiscovery`), the wait until it has.
 */
export async function takeInDisk(
  serving: Serving,
  workspace: LocalWorkspace,
  server: LanguageServer,
  deadline: number,
  signal: AbortSignal,
): Promise<CatchUp> {
  const fresh = await counted(serving.host, serving.profile, workspace, server)
  const caught = joined(owed.get(server), fresh)
  owed.delete(server)
  if (caught.addedOrRemoved && serving.profile.deferredDiscovery === true) {
    server.analysis.filesChanged()
    await server.analysis.waitQuiet(Math.min(deadline, Date.now() + 10_000), settleQuietMs, signal)
  }
  return caught
}

/** What a change mark's catch-up took in for a server, owed to its next question (its meta and its settle wait). */
const owed = new WeakMap<LanguageServer, CatchUp>()
/** Servers whose stop is counted as a change of their workspace (their watch ends with them). */
const followed = new WeakSet<LanguageServer>()

/**
 * A change mark's catch-up (RFC 0026): every change the server's watch and open documents show by now taken in
 * and counted; what it found is reported, and waited for, by the server's next question as if that had found it.
 */
export async function takeInForMark(
  host: HostCore,
  profile: ServerProfile,
  workspace: LocalWorkspace,
  server: LanguageServer,
): Promise<void> {
  const caught = await counted(host, profile, workspace, server)
  if (caught.files > 0) owed.set(server, joined(owed.get(server), caught))
}

/** One catch-up, counted in the workspace's changes when it found any. */
async function counted(host: HostCore, profile: ServerProfile, workspace: LocalWorkspace, server: LanguageServer): Promise<CatchUp> {
  if (!followed.has(server)) {
    followed.add(server)
    // A stopped server's watch is gone: what changes next is seen by no one until another starts.
    server.on('state', (state) => (state === 'stopped' || state === 'crashed') && workspace.noteChange(profile.id))
  }
  const caught = await host.catchUp(server, profile)
  if (caught.files > 0) workspace.noteChange(profile.id)
  return caught
}

function joined(earlier: CatchUp | undefined, later: CatchUp): CatchUp {
  if (earlier === undefined) return later
  return {
    files: earlier.files + later.files,
    addedOrRemoved: earlier.addedOrRemoved || later.addedOrRemoved,
    method: earlier.method === 'scan' || later.method === 'scan' ? 'scan' : 'watch',
  }
}

/** Every file an answer points into (locations, symbols, hierarchy items and calls). */
function filesOf(result: LspQueryResult): string[] {
  switch (result.kind) {
    case 'locations':
      return result.locations.map((l) => l.path)
    case 'workspaceSymbols':
      return result.symbols.map((s) => s.location.path)
    case 'hierarchyItems':
      return result.items.map((i) => i.path)
    case 'hierarchyCalls':
      return result.calls.map((c) => c.item.path)
    default:
      return []
  }
}

/** A stat per path at most, for one answer: what the answer's files and its document's `stale` check share. */
export type StatOnce = (path: string) => Stats | undefined

/** A fresh {@link StatOnce}: each path stat'ed at its first use, then remembered. */
export function statOnce(): StatOnce {
  const known = new Map<string, Stats | undefined>()
  return (path) => {
    if (!known.has(path)) known.set(path, statSync(path, { throwIfNoEntry: false }))
    return known.get(path)
  }
}

/** The files an answer points into that do not exist on disk now (one stat per file). */
export function goneFiles(result: LspQueryResult, stat: StatOnce = statOnce()): Set<string> {
  const gone = new Set<string>()
  for (const path of new Set(filesOf(result))) if (stat(path) === undefined) gone.add(path)
  return gone
}

/** The answer without what points into `gone`, and how many entries that left out. */
export function withoutGone(result: LspQueryResult, gone: ReadonlySet<string>): { result: LspQueryResult; dropped: number } {
  if (gone.size === 0) return { result, dropped: 0 }
  switch (result.kind) {
    case 'locations': {
      const locations = result.locations.filter((l) => !gone.has(l.path))
      return { result: { ...result, locations }, dropped: result.locations.length - locations.length }
    }
    case 'workspaceSymbols': {
      const symbols = result.symbols.filter((s) => !gone.has(s.location.path))
      return { result: { ...result, symbols }, dropped: result.symbols.length - symbols.length }
    }
    case 'hierarchyItems': {
      const items = result.items.filter((i) => !gone.has(i.path))
      return { result: { ...result, items }, dropped: result.items.length - items.length }
    }
    case 'hierarchyCalls': {
      const calls = result.calls.filter((c) => !gone.has(c.item.path))
      return { result: { ...result, calls }, dropped: result.calls.length - calls.length }
    }
    default:
      return { result, dropped: 0 }
  }
}

/** What an answer's meta says of the disk: present when files changed since the last question, or locations were left out. */
export function diskMeta(caught: ReadonlyArray<CatchUp>, locationsDropped: number): { disk?: LspDiskCatchUp } {
  const filesChanged = caught.reduce((sum, c) => sum + c.files, 0)
  if (filesChanged === 0 && locationsDropped === 0) return {}
  return {
    disk: {
      filesChanged,
      method: caught.some((c) => c.method === 'scan') ? 'scan' : 'watch',
      ...(locationsDropped > 0 ? { locationsDropped } : {}),
    },
  }
}
