import { statSync } from 'node:fs'
import * as nodePath from 'node:path'

import {
  LspError,
  extensionOf,
  isWithin,
  normalizeExtension,
  pathToUri,
  type LspProviderStatus,
  type LspSearchCoverage,
} from '@codeseam/lsp'
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol/node'

import type { ResolvedHostConfig, TrustLevel } from '../policy/config.js'
import type { LanguageServer } from '../server/language-server.js'
import type { ServerProfile } from '../policy/profiles.js'
import { DiskWatch } from '../workspace/disk-watch.js'
import { MemoryWatcher, chooseReclaim } from '../policy/limits.js'
import { nestedProjects } from '../workspace/nested-projects.js'
import { inScope, pyrightScope } from '../workspace/pyright-projects.js'
import { ServerSlot, type SlotHooks } from './slot.js'
import { discoverTsProjects, isTsConfigName, planProjectLoad, type TsProjectGraph } from '../workspace/ts-projects.js'
import { watchdogIdle } from '../server/watchdog.js'
import { listFiles } from '../workspace/files.js'
import type { LocalWorkspace } from '../workspace/workspace.js'

/**
 * The shared state of a host: open workspaces, one server slot per (project root, profile), status
 * listeners. Providers and workspaces reach servers only through it.
 */
export class HostCore {
  readonly workspaces = new Map<string, LocalWorkspace>()
  private readonly slots = new Map<string, ServerSlot>()
  private readonly listeners = new Map<string, Set<(status: LspProviderStatus) => void>>()
  /** Per server: the project graph its pinned files were chosen from, and what opening them covered. */
  private readonly loaded = new WeakMap<LanguageServer, ProjectLoad>()
  /** Per pyright server: the files outside every configuration's program that were opened, and the coverage. */
  private readonly pythonLoads = new WeakMap<LanguageServer, { opened: string[]; coverage: Promise<LspSearchCoverage> }>()
  /** Servers that saw files created or deleted since their projects were loaded (loose files to re-plan). */
  private readonly replan = new WeakSet<LanguageServer>()
  /** Per (server folder, profile): the TypeScript project graph, until one of its config files changes. */
  private readonly graphs = new Map<string, CachedGraph>()
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
      nested: (slot) => nestedProjects(slot.root, slot.profile),
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
      throw new LspError(
        'UNAVAILABLE',
        `${this.config.limits.maxServers} language servers are already busy (limits.maxServers): retry when one finishes, or raise maxServers`,
        {
          data: { maxServers: this.config.limits.maxServers },
        },
      )
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
      throw new LspError(
        'UNAVAILABLE',
        `no workspace is open at ${root} in this lsp-local host: open it with host.openWorkspace(root) or host.attach(lsp, [root])`,
        {
          data: { open: [...this.workspaces.keys()] },
        },
      )
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
      const events = await disk.take()
      if (events.some((e) => e.type !== FileChangeType.Changed)) this.replan.add(server)
      server.notifyFiles(events)
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
    if (events.some((e) => e.type !== FileChangeType.Changed)) this.replan.add(server)
    server.notifyFiles(events)
  }

  /** Starts watching a server's folder once (at its first query). */
  baseline(server: LanguageServer, profile: ServerProfile): Promise<DiskWatch> {
    let disk = this.watches.get(server)
    if (disk === undefined) {
      const graphKey = this.graphKey(server.spec.root, profile)
      const config =
        profile.loadAllProjects === 'tsconfig'
          ? {
              // A project config (or the target of an `extends`) created, changed or deleted: read the graph again.
              isConfig: (path: string) =>
                isTsConfigName(nodePath.basename(path)) || this.graphs.get(graphKey)?.configFiles.has(path) === true,
              onConfigChange: () => this.graphs.delete(graphKey),
            }
          : undefined
      disk = DiskWatch.start(server.spec.root, extensionSet(profile), undefined, config)
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
      await server.documents.sync(first, profile.extensions[extensionOf(first) ?? ''] ?? '', { pin: true })
    }
  }

  /**
   * Servers that search only loaded projects (the native TypeScript 7 server) need every project loaded
   * before a workspace-wide query: one file of each project in the graph is opened and pinned (so the LRU
   * never closes it), and so are the source files of no project (inferred projects), within the
   * open-document limit. Returns the coverage that gives; undefined for profiles without a project model.
   */
  async loadProjects(
    server: LanguageServer,
    workspace: LocalWorkspace,
    profile: ServerProfile,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<LspSearchCoverage | undefined> {
    if (profile.loadAllProjects === 'pyright') return this.loadPyrightFiles(server, workspace, profile)
    if (profile.loadAllProjects !== 'tsconfig') return undefined
    const graph = await this.projectGraph(server.spec.root, profile, deadline, signal)
    let load = this.loaded.get(server)
    const dirty = this.replan.has(server)
    if (load === undefined || load.graph !== graph || dirty || !load.opened.every((file) => server.documents.get(file) !== undefined)) {
      this.replan.delete(server)
      const next: ProjectLoad = {
        graph,
        opened: [],
        coverage: this.openProjects(server, workspace, profile, graph).then((result) => {
          next.opened = result.opened
          next.settled = result.coverage
          return result.coverage
        }),
      }
      load = next
      this.loaded.set(server, next)
      next.coverage.catch(() => this.loaded.get(server) === next && this.loaded.delete(server))
    }
    return load.coverage
  }

  /**
   * pyright searches only its program: the files its configuration includes, and the open ones. The files of
   * the root (and of nested folders) that no configuration includes are opened and pinned, within the
   * open-document limit, like TypeScript's files of no project.
   */
  private loadPyrightFiles(server: LanguageServer, workspace: LocalWorkspace, profile: ServerProfile): Promise<LspSearchCoverage> {
    const previous = this.pythonLoads.get(server)
    if (previous !== undefined && !this.replan.has(server) && previous.opened.every((file) => server.documents.get(file) !== undefined))
      return previous.coverage
    this.replan.delete(server)
    const load: { opened: string[]; coverage: Promise<LspSearchCoverage> } = {
      opened: [],
      coverage: Promise.resolve({ projectsSearched: 0, projectsFound: 0, complete: false }),
    }
    load.coverage = (async () => {
      const projects = server.projectCount
      const scopes = [server.spec.root, ...(server.spec.folders ?? [])].map((folder) => pyrightScope(folder))
      const sources = await listFiles(server.spec.root, { extensions: extensionSet(profile) }, 20_000)
      const loose = sources.files.filter((file) => !scopes.some((scope) => inScope(scope, file)) && workspace.containment.contains(file))
      const budget = this.pinBudget()
      const { opened, failed } = await this.openPinned(server, profile, loose.slice(0, budget))
      load.opened = opened
      const missed = Math.max(0, loose.length - budget) + (sources.complete ? 0 : 1) + failed
      return {
        projectsSearched: projects,
        projectsFound: projects,
        ...(missed > 0 ? { filesNotSearched: missed } : {}),
        complete: missed === 0,
      }
    })()
    this.pythonLoads.set(server, load)
    load.coverage.catch(() => this.pythonLoads.get(server) === load && this.pythonLoads.delete(server))
    return load.coverage
  }

  private async openProjects(
    server: LanguageServer,
    workspace: LocalWorkspace,
    profile: ServerProfile,
    graph: TsProjectGraph,
  ): Promise<{ opened: string[]; coverage: LspSearchCoverage }> {
    const sources = await listFiles(server.spec.root, { extensions: extensionSet(profile) }, 20_000)
    const accept = (file: string) => workspace.containment.contains(file)
    const projectFiles = planProjectLoad(graph, sources.files, 0, accept).projectFiles.length
    const plan = planProjectLoad(graph, sources.files, this.pinBudget() - projectFiles, accept)
    const projects = await this.openPinned(server, profile, plan.projectFiles)
    const loose = await this.openPinned(server, profile, plan.looseFiles)
    const looseMissed = plan.looseNotOpened + (sources.complete ? 0 : 1) + loose.failed
    const projectsSearched = projects.opened.length
    const coverage: LspSearchCoverage = {
      projectsSearched,
      projectsFound: plan.projectsFound,
      ...(looseMissed > 0 ? { filesNotSearched: looseMissed } : {}),
      complete: projectsSearched === plan.projectsFound && looseMissed === 0,
    }
    return { opened: [...projects.opened, ...loose.opened], coverage }
  }

  /** How many documents a server may keep pinned: the open-document limit less room for the queries' own (never pinned, closed least recently used first). */
  private pinBudget(): number {
    const limit = this.config.limits.maxOpenDocuments
    return Math.max(0, limit - Math.max(8, Math.floor(limit / 4)))
  }

  /** Opens and pins files; one deleted since the walk, or refused (a symlink out of the workspace), is counted as failed. */
  private async openPinned(
    server: LanguageServer,
    profile: ServerProfile,
    files: ReadonlyArray<string>,
  ): Promise<{ opened: string[]; failed: number }> {
    const opened: string[] = []
    let failed = 0
    for (const file of files) {
      try {
        await server.documents.sync(file, profile.extensions[extensionOf(file) ?? ''] ?? '', { pin: true })
        opened.push(file)
      } catch (error) {
        if (error instanceof LspError && (error.code === 'CANCELLED' || error.code === 'DISPOSED' || error.code === 'SERVER_CRASHED'))
          throw error
        failed++
      }
    }
    return { opened, failed }
  }

  private graphKey(root: string, profile: ServerProfile): string {
    return `${root}\0${profile.id}`
  }

  /** The project graph of a folder, read once and kept until a config file in it changes. */
  private async projectGraph(root: string, profile: ServerProfile, deadline: number, signal?: AbortSignal): Promise<TsProjectGraph> {
    const key = this.graphKey(root, profile)
    let cached = this.graphs.get(key)
    // A config edited in a tree too large to watch, or before the watcher saw it: its stat tells.
    if (cached?.settled === true && [...cached.configFiles].some((file) => statSignature(file) !== cached?.signatures.get(file))) {
      this.graphs.delete(key)
      cached = undefined
    }
    if (cached === undefined) {
      const configFiles = new Set<string>()
      const signatures = new Map<string, string | undefined>()
      const entry: CachedGraph = {
        configFiles,
        signatures,
        settled: false,
        graph: Promise.resolve({ projects: [], configFiles: [], errors: [] }),
      }
      entry.graph = (async () => {
        const configs = await listFiles(root, { names: new Set(['tsconfig.json', 'jsconfig.json']) }, 2_000)
        const graph = await discoverTsProjects(root, configs.files, {
          timeoutMs: Math.max(1, deadline - Date.now()),
          ...(signal === undefined ? {} : { signal }),
        })
        for (const file of [...configs.files, ...graph.configFiles]) {
          configFiles.add(file)
          signatures.set(file, statSignature(file))
        }
        entry.settled = true
        return graph
      })()
      cached = entry
      this.graphs.set(key, entry)
      entry.graph.catch(() => this.graphs.get(key) === entry && this.graphs.delete(key))
    }
    return cached.graph
  }

  /** Projects a server has loaded, of those found, once its projects were loaded (for status). */
  projectsOf(server: LanguageServer): { loaded: number; found: number } | undefined {
    const coverage = this.loaded.get(server)?.settled
    return coverage === undefined ? undefined : { loaded: coverage.projectsSearched, found: coverage.projectsFound }
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
    const statuses = [...this.slots.values()].filter((s) => s.profile.id === profile.id).map((s) => this.withProjects(s, s.statusSync()))
    if (profile.unavailable !== undefined)
      statuses.push({ providerId: `local:${profile.id}`, server: profile.id, state: 'unavailable', reason: profile.unavailable })
    return statuses
  }

  async statusWithMemory(): Promise<LspProviderStatus[]> {
    return Promise.all([...this.slots.values()].map(async (slot) => this.withProjects(slot, await slot.status())))
  }

  private withProjects(slot: ServerSlot, status: LspProviderStatus): LspProviderStatus {
    const live = slot.live
    if (live !== undefined && slot.profile.projectRoot === 'workspaceFolders') {
      const folders = live.projectCount
      return { ...status, projects: { loaded: folders, found: folders } }
    }
    const projects = live === undefined ? undefined : this.projectsOf(live)
    return projects === undefined ? status : { ...status, projects }
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

/** What opening a server's projects covered. */
interface ProjectLoad {
  readonly graph: TsProjectGraph
  /** Files opened and pinned for it (checked before reuse: a closed one means load again). */
  opened: string[]
  readonly coverage: Promise<LspSearchCoverage>
  settled?: LspSearchCoverage
}

interface CachedGraph {
  graph: Promise<TsProjectGraph>
  /** Config files read for it (configs, `extends` targets) and their stat signature when read. */
  readonly configFiles: Set<string>
  readonly signatures: Map<string, string | undefined>
  settled: boolean
}

function statSignature(file: string): string | undefined {
  const info = statSync(file, { throwIfNoEntry: false })
  return info === undefined ? undefined : `${info.mtimeMs}:${info.ctimeMs}:${info.size}:${info.ino}`
}
