import { LspError, type LspProviderStatus, type LspSearchCoverage } from '@codeseam/lsp'

import type { ResolvedHostConfig } from '../policy/config.js'
import type { ServerProfile } from '../policy/profiles.js'
import type { LanguageServer } from '../server/language-server.js'
import { recordFor } from '../languages/index.js'
import type { ConfigWatch, DiskWatch } from '../workspace/disk-watch.js'
import { DiskSync, type CatchUp } from '../workspace/disk-sync.js'
import { listFiles, profileExtensions } from '../policy/files.js'
import { ProjectLoader } from '../workspace/project-loader.js'
import { WorkspaceRegistry } from '../workspace/registry.js'
import type { LiveServers, LocalWorkspace } from '../workspace/workspace.js'
import type { FeatureFacts } from './feature-facts.js'
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
  ) {
    this.projects = new ProjectLoader(config.limits.maxOpenDocuments, config.limits)
    this.disk = new DiskSync({
      filesAddedOrRemoved: (server) => this.projects.filesAddedOrRemoved(server),
      // The project loader's config files (tsconfig graphs) and the files of a record's layout (clangd's databases).
      configWatch: (root, profile) => bothWatches(this.projects.configWatch(root, profile), recordFor(profile)?.layoutWatch?.(root)),
    })
    this.pool = new ServerPool(config, features, {
      escaped: (workspaceRoot) => this.registry.get(workspaceRoot)?.containment.invalidate(),
      projectsOf: (server) => this.projects.projectsOf(server),
      diskChangesOf: (server) => this.disk.modeOf(server),
    })
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
      if (profile.loadAllProjects !== 'tsconfig' || profile.projectRoot !== 'workspace') continue
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

  slotFor(workspace: LocalWorkspace, profile: ServerProfile, path: string): ServerSlot {
    return this.pool.slotFor(workspace, profile, path)
  }

  slotsFor(workspace: LocalWorkspace, profile: ServerProfile): Promise<ServerSlot[]> {
    return this.pool.slotsFor(workspace, profile)
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

  loadProjects(
    server: LanguageServer,
    workspace: LocalWorkspace,
    profile: ServerProfile,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<LspSearchCoverage | undefined> {
    return this.projects.loadProjects(server, workspace, profile, deadline, signal)
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

/** One watch telling both owners of what each watches. */
function bothWatches(first: ConfigWatch | undefined, second: ConfigWatch | undefined): ConfigWatch | undefined {
  if (first === undefined || second === undefined) return first ?? second
  return {
    isConfig: (path) => first.isConfig(path) || second.isConfig(path),
    onConfigChange: () => {
      first.onConfigChange()
      second.onConfigChange()
    },
  }
}
