import { statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { LspError, isWithin, normalizeExtension, pathToUri, type LspProviderStatus } from '@codeseam/lsp'
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol/node'

import type { ResolvedHostConfig, TrustLevel } from './config.js'
import type { LanguageServer } from './language-server.js'
import type { ServerProfile } from './profiles.js'
import { DiskWatch } from './disk-watch.js'
import { MemoryWatcher, chooseReclaim } from './limits.js'
import { ServerSlot, type SlotHooks } from './server-pool.js'
import { watchdogIdle } from './watchdog.js'
import { listFiles } from './workspace-files.js'
import type { LocalWorkspace } from './workspace.js'

/**
 * The shared state of a host: open workspaces, one server slot per (project root, profile), status
 * listeners. Providers and workspaces reach servers only through it.
 */
export class HostCore {
  readonly workspaces = new Map<string, LocalWorkspace>()
  private readonly slots = new Map<string, ServerSlot>()
  private readonly listeners = new Map<string, Set<(status: LspProviderStatus) => void>>()
  /** Servers whose tsconfig projects were all loaded, per project-file set. */
  private readonly loaded = new WeakMap<LanguageServer, Promise<void>>()
  private readonly rootAliases = new Map<string, LocalWorkspace>()
  /** Per server: mtime + size of every file of its languages, when its tree is too large to watch. */
  private readonly snapshots = new WeakMap<LanguageServer, Map<string, string>>()
  private readonly watches = new WeakMap<LanguageServer, Promise<DiskWatch>>()
  disposed = false

  /** Samples every running server's process tree; a breach restarts that server. */
  private readonly memory: MemoryWatcher
  private readonly hooks: SlotHooks

  constructor(readonly config: ResolvedHostConfig) {
    this.memory = new MemoryWatcher((breach) => void this.slots.get(breach.key)?.restartForMemory(breach.reason), {
      intervalMs: config.limits.memoryCheckIntervalMs,
      breachSamples: config.limits.memoryBreachSamples,
    })
    if (config.limits.maxServerMemoryBytes > 0) this.memory.start()
    this.hooks = {
      beforeStart: (slot) => this.makeRoom(slot),
      started: (slot, pid) => {
        if (pid !== undefined) this.memory.watch(this.keyOf(slot), pid, config.limits.maxServerMemoryBytes)
      },
      escaped: (workspaceRoot) => this.workspaces.get(workspaceRoot)?.containment.invalidate(),
    }
  }

  private keyOf(slot: ServerSlot): string {
    return `${slot.root}\0${slot.profile.id}`
  }

  /** Stops least recently used idle servers so one more fits under maxServers. */
  private async makeRoom(starting: ServerSlot): Promise<void> {
    const running = [...this.slots.entries()]
      .filter(([, slot]) => slot !== starting && slot.hasProcess)
      .map(([key, slot]) => ({ key, busy: slot.busy, lastUsed: slot.lastUsed }))
    const { stop, short } = chooseReclaim(running, this.config.limits.maxServers)
    await Promise.all(stop.map((key) => this.slots.get(key)?.stop()))
    if (short > 0) {
      throw new LspError('UNAVAILABLE', `${this.config.limits.maxServers} language servers are already busy (limits.maxServers): retry when one finishes, or raise maxServers`, {
        data: { maxServers: this.config.limits.maxServers },
      })
    }
  }

  /** Memory-restart reasons of a profile's slots under a root, once each. */
  takeNotices(root: string, profileId: string): string[] {
    const notices: string[] = []
    for (const slot of this.slots.values()) {
      if (!slot.hasNotice || slot.profile.id !== profileId || !isWithin(root, slot.root)) continue
      const notice = slot.takeNotice()
      if (notice !== undefined) notices.push(notice)
    }
    return notices
  }

  /** The open workspace a request's root names (as given, or canonical). */
  workspaceFor(root: string): LocalWorkspace {
    if (this.disposed) throw new LspError('DISPOSED', 'the lsp-local host was disposed')
    const normalized = nodePath.normalize(root)
    const workspace = this.workspaces.get(normalized) ?? this.rootAliases.get(normalized)
    if (workspace === undefined) {
      throw new LspError('UNAVAILABLE', `no workspace is open at ${root} in this lsp-local host: open it with host.openWorkspace(root) or host.attach(lsp, [root])`, {
        data: { open: [...this.workspaces.keys()] },
      })
    }
    return workspace
  }

  addWorkspace(workspace: LocalWorkspace, givenRoot: string): void {
    this.workspaces.set(workspace.root, workspace)
    this.rootAliases.set(nodePath.normalize(givenRoot), workspace)
  }

  /** The project root a file belongs to for a profile: the workspace root, or the nearest marker folder. */
  projectRootFor(workspace: LocalWorkspace, profile: ServerProfile, path: string): string {
    if (profile.projectRoot !== 'nearest' || (profile.rootMarkers ?? []).length === 0) return workspace.root
    let dir = nodePath.dirname(path)
    while (isWithin(workspace.root, dir)) {
      for (const marker of profile.rootMarkers ?? []) {
        if (workspace.existsSync(nodePath.join(dir, marker))) return dir
      }
      if (dir === workspace.root) break
      dir = nodePath.dirname(dir)
    }
    return workspace.root
  }

  slotFor(workspace: LocalWorkspace, profile: ServerProfile, path: string): ServerSlot {
    return this.slot(this.projectRootFor(workspace, profile, path), profile, workspace.trust, workspace.root)
  }

  private slot(root: string, profile: ServerProfile, trust: TrustLevel, workspaceRoot: string): ServerSlot {
    const key = `${root}\0${profile.id}`
    let slot = this.slots.get(key)
    if (slot === undefined || slot.trust !== trust) {
      // A server started under another trust level keeps that level's settings: replace it.
      if (slot !== undefined) void slot.dispose()
      slot = new ServerSlot(root, profile, trust, this.config, (status) => this.emit(profile.id, status), workspaceRoot, this.hooks)
      this.slots.set(key, slot)
    }
    return slot
  }

  /** Every project root of a profile in a workspace (workspace-scoped queries start them all). */
  async slotsFor(workspace: LocalWorkspace, profile: ServerProfile): Promise<ServerSlot[]> {
    if (profile.projectRoot !== 'nearest') return [this.slot(workspace.root, profile, workspace.trust, workspace.root)]
    const markers = await listFiles(workspace.root, { names: new Set(profile.rootMarkers ?? []) }, 200)
    const roots = new Set(markers.files.map((file) => nodePath.dirname(file)))
    const sourceFiles = await listFiles(workspace.root, { extensions: extensionSet(profile) }, 2_000)
    const used = new Set(sourceFiles.files.map((file) => this.projectRootFor(workspace, profile, file)))
    const chosen = [...roots].filter((root) => used.has(root))
    if (used.has(workspace.root) || chosen.length === 0) chosen.unshift(workspace.root)
    return [...new Set(chosen)].map((root) => this.slot(root, profile, workspace.trust, workspace.root))
  }

  /**
   * Files created, changed or deleted on disk by someone else (an agent's own file tools) are invisible to
   * servers that rely on the client to watch files. Each server's folder is watched from its first query
   * ({@link DiskWatch}); before whole-workspace queries the changes seen are sent with
   * didChangeWatchedFiles. Trees too large to watch are compared by a snapshot scan instead.
   */
  async announceDiskChanges(server: LanguageServer, profile: ServerProfile): Promise<void> {
    const disk = await this.baseline(server, profile)
    if (disk.complete) {
      server.notifyFiles(await disk.take())
      return
    }
    const { files } = await listFiles(server.spec.root, { extensions: extensionSet(profile) }, 20_000)
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
    server.notifyFiles(events)
  }

  /** Starts watching a server's folder once (at its first query). */
  baseline(server: LanguageServer, profile: ServerProfile): Promise<DiskWatch> {
    let disk = this.watches.get(server)
    if (disk === undefined) {
      disk = DiskWatch.start(server.spec.root, extensionSet(profile))
      this.watches.set(server, disk)
      void disk.then((watch) => {
        const close = () => watch.close()
        server.on('state', (state) => (state === 'stopped' || state === 'crashed') && close())
        if (server.state === 'stopped' || server.state === 'crashed') close()
      })
    }
    return disk
  }

  /** Whether the root holds at least one file of the profile's languages. */
  async hasEligibleFiles(workspace: LocalWorkspace, profile: ServerProfile): Promise<boolean> {
    return (await listFiles(workspace.root, { extensions: extensionSet(profile) }, 1)).files.length > 0
  }

  async eligibleFiles(workspace: LocalWorkspace, profile: ServerProfile): Promise<{ files: string[]; complete: boolean }> {
    return listFiles(workspace.root, { extensions: extensionSet(profile) }, 10_000)
  }

  /** Opens one source file so servers that answer only about open documents have a project loaded. */
  async openAnyFile(server: LanguageServer, workspace: LocalWorkspace, profile: ServerProfile): Promise<void> {
    const { files } = await listFiles(server.spec.root, { extensions: extensionSet(profile) }, 1)
    const first = files[0]
    if (first !== undefined && workspace.containment.contains(first)) {
      await server.documents.sync(first, profile.extensions[nodePath.extname(first).toLowerCase()] ?? '', { pin: true })
    }
  }

  /**
   * Servers that search only loaded projects (the native TypeScript 7 server) need every tsconfig project
   * loaded before a workspace-wide query: open one source file of each, pinned so the LRU never closes it.
   */
  loadProjects(server: LanguageServer, workspace: LocalWorkspace, profile: ServerProfile): Promise<void> {
    if (profile.loadAllProjects !== 'tsconfig') return Promise.resolve()
    let loading = this.loaded.get(server)
    if (loading === undefined) {
      loading = this.loadTsconfigProjects(server, workspace, profile)
      this.loaded.set(server, loading)
      loading.catch(() => this.loaded.delete(server))
    }
    return loading
  }

  private async loadTsconfigProjects(server: LanguageServer, workspace: LocalWorkspace, profile: ServerProfile): Promise<void> {
    const configs = await listFiles(server.spec.root, { names: new Set(['tsconfig.json', 'jsconfig.json']) }, 500)
    const sources = await listFiles(server.spec.root, { extensions: extensionSet(profile) }, 20_000)
    const configDirs = configs.files.map((file) => nodePath.dirname(file))
    for (const config of configs.files) {
      const dir = nodePath.dirname(config)
      // A solution-style config (files: [] with references) owns no sources of its own.
      if (await isSolutionConfig(config)) continue
      // The first source in this config's folder that no deeper config claims.
      const owned = sources.files.find((file) => {
        if (!isWithin(dir, file) || file.endsWith('.d.ts')) return false
        return !configDirs.some((other) => other !== dir && isWithin(dir, other) && isWithin(other, file))
      })
      if (owned !== undefined && workspace.containment.contains(owned)) {
        await server.documents.sync(owned, profile.extensions[nodePath.extname(owned).toLowerCase()] ?? '', { pin: true })
      }
    }
  }

  /** Running servers under a workspace (to tell them about changed files). */
  liveServersUnder(root: string): LanguageServer[] {
    return [...this.slots.values()].flatMap((slot) => (isWithin(root, slot.root) && slot.live !== undefined ? [slot.live] : []))
  }

  async stopSlotsUnder(root: string): Promise<void> {
    const matching = [...this.slots.entries()].filter(([, slot]) => isWithin(root, slot.root))
    for (const [key] of matching) this.slots.delete(key)
    await Promise.all(matching.map(([, slot]) => slot.dispose()))
  }

  statusOf(profile: ServerProfile): LspProviderStatus[] {
    const statuses = [...this.slots.values()].filter((s) => s.profile.id === profile.id).map((s) => s.statusSync())
    if (profile.unavailable !== undefined) statuses.push({ providerId: `local:${profile.id}`, server: profile.id, state: 'unavailable', reason: profile.unavailable })
    return statuses
  }

  async statusWithMemory(): Promise<LspProviderStatus[]> {
    return Promise.all([...this.slots.values()].map((slot) => slot.status()))
  }

  onStatus(profileId: string, listener: (status: LspProviderStatus) => void): () => void {
    let set = this.listeners.get(profileId)
    if (set === undefined) this.listeners.set(profileId, (set = new Set()))
    set.add(listener)
    return () => set.delete(listener)
  }

  private emit(profileId: string, status: LspProviderStatus): void {
    for (const listener of this.listeners.get(profileId) ?? []) listener(status)
  }

  async dispose(): Promise<void> {
    this.disposed = true
    this.memory.stop()
    const slots = [...this.slots.values()]
    this.slots.clear()
    await Promise.all(slots.map((slot) => slot.dispose()))
    await watchdogIdle()
  }
}

function extensionSet(profile: ServerProfile): Set<string> {
  return new Set(Object.keys(profile.extensions).flatMap((e) => normalizeExtension(e) ?? []))
}

async function isSolutionConfig(file: string): Promise<boolean> {
  try {
    const text = await readFile(file, 'utf8')
    // tsconfig is JSONC: strip comments and trailing commas before parsing.
    const json = JSON.parse(text.replace(/\/\*[\s\S]*?\*\/|(^|[^:"\\])\/\/.*$/gm, '$1').replace(/,(\s*[}\]])/g, '$1')) as { files?: unknown[]; include?: unknown[] }
    return Array.isArray(json.files) && json.files.length === 0 && json.include === undefined
  } catch {
    return false
  }
}
