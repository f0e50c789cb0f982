import { LspError, sumCoverage, type LspOperation, type LspProviderStatus, type LspSearchCoverage } from '@codeseam/lsp'

import type { ResolvedHostConfig } from '../policy/config.js'
import type { ServerProfile } from '../profile/profiles.js'
import type { LanguageServer } from '../server/language-server.js'
import { recordFor } from '../languages/index.js'
import { combinedWatch, type DiskWatch } from '../workspace/disk-watch.js'
import { DiskSync, type CatchUp } from '../workspace/disk-sync.js'
import { listFiles, profileExtensions } from '../profile/files.js'
import { ProjectLoader } from '../workspace/project-loader.js'
import { WorkspaceRegistry } from '../workspace/registry.js'
import type { LiveServers, LocalWorkspace } from '../workspace/workspace.js'
import type { DeclaredIn } from '../languages/project-model.js'
import type { FeatureFacts } from './feature-facts.js'
import type { MemoryBudget } from './budget.js'
import { ServerPool } from './pool.js'
import type { ServerSlot } from './slot.js'

/**
 * The shared state of a host, composed of its parts: the open workspaces ({@link WorkspaceRegistry}), the
 * server slots ({@link ServerPool}), the project loading of servers that search only what they loaded
 * ({@link ProjectLoader}) and the disk changes they are told about ({@link DiskSync}). Providers and
 * workspaces reach servers only through it; each method hands over to the part that owns it.
 */
export class HostCore implements LiveServers {
  private readonly registry = new WorkspaceRegistry()
  private readonly pool: ServerPool
  private readonly projects: ProjectLoader
  private readonly disk: DiskSync
  disposed = false
  /** Aborted on dispose: work started ahead of queries (project prefetch) stops with the host. */
  private readonly lifetime = new AbortController()

  /** `features`: what the feature records tell the pool (the host's wiring hands them in). */
  constructor(
    readonly config: ResolvedHostConfig,
    features: FeatureFacts,
    /** A budget shared with other hosts (a daemon's, RFC 0033); without it the host keeps its own. */
    budget?: MemoryBudget,
  ) {
    this.projects = new ProjectLoader(config.limits.maxOpenDocuments, config.limits, (server) => this.pool.announceLoading(server))
    this.disk = new DiskSync({
      filesAddedOrRemoved: (server) => this.projects.filesAddedOrRemoved(server),
      // The project loader's config files (tsconfig graphs) and the files of a record's layout (clangd's databases).
      configWatch: (root, profile) => combinedWatch([this.projects.configWatch(root, profile), recordFor(profile)?.layoutWatch?.(root)]),
    })
    this.pool = new ServerPool(
      config,
      features,
      {
        escaped: (workspaceRoot) => this.registry.get(workspaceRoot)?.containment.invalidate(),
        projectsOf: (server) => this.projects.projectsOf(server),
        loadingOf: (server) => this.projects.loadingOf(server),
        diskChangesOf: (server) => this.disk.modeOf(server),
      },
      budget,
    )
  }

  /** The open workspace at a canonical root, if any. */
  openAt(root: string): LocalWorkspace | undefined {
    return this.registry.get(root)
  }

  /** The open workspace a request's root names (as given, or canonical). */
  workspaceFor(root: string): LocalWorkspace {
    if (this.disposed) throw new LspError('DISPOSED', 'the lsp-local host was disposed')
    return this.registry.resolve(root)
  }

  addWorkspace(workspace: LocalWorkspace, givenRoot: string): void {
    this.registry.add(workspace, givenRoot)
  }

  /**
   * A workspace was just opened: for each profile that loads every TypeScript project before a
   * workspace-wide query, and whose languages the root holds, start reading its project graph now. The
   * first query then finds it read, or in flight beside its server's start, instead of waiting for both in turn.
   */
  prefetchProjects(workspace: LocalWorkspace): void {
    for (const profile of this.config.profiles) {
      if (!this.projects.prefetches(profile) || profile.projectRoot !== 'workspace') continue
      void this.hasEligibleFiles(workspace, profile).then(
        (eligible) => {
          if (eligible && !this.disposed)
            this.projects.prefetch(workspace.root, profile, this.config.requestTimeoutMs, this.lifetime.signal)
        },
        () => {},
      )
    }
  }

  takeNotices(root: string, profileId: string): string[] {
    return this.pool.takeNotices(root, profileId)
  }

  /**
   * The other open workspaces of a request's workspace (RFC 0025): the roots the seam named beside the request's
   * own, those open in this host. A root not open here is no part of what this host serves.
   */
  groupOf(workspace: LocalWorkspace, workspaceRoots: ReadonlyArray<string> | undefined): LocalWorkspace[] {
    if (workspaceRoots === undefined || workspaceRoots.length < 2) return []
    return workspaceRoots.flatMap((root) => {
      const other = this.registry.get(root)
      return other === undefined || other === workspace ? [] : [other]
    })
  }

  /**
   * The other open roots of a request's workspace a profile's server may serve with the workspace's own: those
   * holding files of its languages (a Python server takes no folder of TypeScript alone). Whether a root holds any
   * is asked once per root and profile for the host's life.
   */
  async sharingGroup(
    workspace: LocalWorkspace,
    workspaceRoots: ReadonlyArray<string> | undefined,
    profile: ServerProfile,
  ): Promise<LocalWorkspace[]> {
    const others = this.groupOf(workspace, workspaceRoots)
    if (others.length === 0) return []
    const eligible = await Promise.all(others.map((other) => this.holdsLanguages(other, profile)))
    return others.filter((_, index) => eligible[index] === true)
  }

  private readonly holding = new Map<string, Promise<boolean>>()

  private holdsLanguages(workspace: LocalWorkspace, profile: ServerProfile): Promise<boolean> {
    const key = `${workspace.root}\0${profile.id}`
    let known = this.holding.get(key)
    if (known === undefined) {
      known = this.hasEligibleFiles(workspace, profile).catch(() => false)
      this.holding.set(key, known)
    }
    return known
  }

  slotFor(workspace: LocalWorkspace, profile: ServerProfile, path: string, group: ReadonlyArray<LocalWorkspace> = []): ServerSlot {
    return this.pool.slotFor(workspace, profile, path, group)
  }

  slotsFor(workspace: LocalWorkspace, profile: ServerProfile, group: ReadonlyArray<LocalWorkspace> = []): Promise<ServerSlot[]> {
    return this.pool.slotsFor(workspace, profile, group)
  }

  /** Takes in every change on disk under the server's folder since its last question (see DiskSync.catchUp). */
  catchUp(server: LanguageServer, profile: ServerProfile): Promise<CatchUp> {
    return this.disk.catchUp(server, profile)
  }

  baseline(server: LanguageServer, profile: ServerProfile): Promise<DiskWatch> {
    return this.disk.baseline(server, profile)
  }

  /** Whether the root holds at least one file of the profile's languages. */
  async hasEligibleFiles(workspace: LocalWorkspace, profile: ServerProfile): Promise<boolean> {
    return (await listFiles(workspace.root, { extensions: profileExtensions(profile) }, 1)).files.length > 0
  }

  eligibleFiles(workspace: LocalWorkspace, profile: ServerProfile): Promise<{ files: string[]; complete: boolean }> {
    return listFiles(workspace.root, { extensions: profileExtensions(profile) }, 10_000)
  }

  openAnyFile(server: LanguageServer, workspace: LocalWorkspace, profile: ServerProfile): Promise<void> {
    return this.projects.openAnyFile(server, workspace, profile)
  }

  /**
   * Loads the projects of every root the server serves among the workspace and its group (RFC 0025): a
   * reference in another root is found only when that root's projects are loaded too. The coverage sums them.
   */
  async loadProjects(
    server: LanguageServer,
    workspace: LocalWorkspace,
    profile: ServerProfile,
    deadline: number,
    signal?: AbortSignal,
    group: ReadonlyArray<LocalWorkspace> = [],
    target?: string,
    declaredIn?: DeclaredIn,
  ): Promise<LspSearchCoverage | undefined> {
    const shared = server.spec.sharedRoots ?? []
    const served = new Set([workspace, ...group.filter((other) => shared.includes(other.root) || other.root === server.spec.root)])
    // What can reach one file is worked out within one root (RFC 0035); a server serving several loads them all.
    const first = served.size === 1 ? target : undefined
    const parts: LspSearchCoverage[] = []
    for (const each of served) {
      const coverage = await this.projects.loadProjects(
        server,
        each,
        profile,
        deadline,
        signal,
        first,
        first === undefined ? undefined : declaredIn,
      )
      if (coverage !== undefined) parts.push(coverage)
    }
    return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : sumCoverage(parts)
  }

  /** Whether a question about one file of `operation` loads the server's projects first (see ProjectModel.loadsBefore). */
  loadsBefore(profile: ServerProfile, operation: LspOperation): boolean {
    return this.projects.loadsBefore(profile, operation)
  }

  /** Pauses a server's background project loading while a question is in flight (RFC 0035); call the result to resume. */
  pauseLoading(server: LanguageServer): () => void {
    return this.projects.pause(server)
  }

  liveServersUnder(root: string): LanguageServer[] {
    return this.pool.liveServersUnder(root)
  }

  stopSlotsUnder(root: string): Promise<void> {
    return this.pool.stopSlotsUnder(root)
  }

  statusOf(profile: ServerProfile): LspProviderStatus[] {
    return this.pool.statusOf(profile)
  }

  statusWithMemory(): Promise<LspProviderStatus[]> {
    return this.pool.statusWithMemory()
  }

  onStatus(profileId: string, listener: (status: LspProviderStatus) => void): () => void {
    return this.pool.onStatus(profileId, listener)
  }

  async dispose(): Promise<void> {
    this.disposed = true
    this.lifetime.abort()
    await this.pool.dispose()
  }
}
