import * as nodePath from 'node:path'

import { LspError, TelemetryAttr, isWithin, observeTelemetry, telemetryId, type LspProviderStatus } from '@codeseam/lsp'
import type { Attributes } from '@opentelemetry/api'

import type { ResolvedHostConfig, TrustLevel } from '../policy/config.js'
import type { ServerProfile } from '../profile/profiles.js'
import type { LanguageServer } from '../server/language-server.js'
import { watchdogIdle } from '../server/watchdog.js'
import { listFiles, profileExtensions } from '../profile/files.js'
import { layoutEnvironment, nestedProjectsOf } from '../workspace/nested-projects.js'
import type { LocalWorkspace } from '../workspace/workspace.js'
import type { FeatureFacts } from './feature-facts.js'
import { MemoryBudget } from './budget.js'
import { budgetServersOf } from './budget-servers.js'
import { MemoryWatcher } from './memory.js'
import { chooseReclaim } from './reclaim.js'
import { sharedGroup } from './shared-group.js'
import { ServerSlot, type SlotHooks } from './slot.js'

/** What the pool asks of the rest of the host. */
export interface PoolHooks {
  /** A file under a workspace turned out to resolve outside it when read: forget its cached resolutions. */
  escaped(workspaceRoot: string): void
  /** Projects a server has loaded, of those found (for status); undefined before its projects were loaded. */
  projectsOf(server: LanguageServer): { loaded: number; found: number } | undefined
  /** What a server's project loads in flight have loaded so far (for status, RFC 0032); undefined when none runs. */
  loadingOf(server: LanguageServer): LspProviderStatus['loading']
  /** How disk changes reach a server (for status); undefined before its folder's watch started. */
  diskChangesOf(server: LanguageServer): 'watched' | 'scanned' | undefined
}

/**
 * The server slots of a host, one per (project root, profile): which slot serves a file, room under
 * maxServers (least recently used idle servers stop first), the memory ceiling, status and its listeners.
 */
export class ServerPool {
  private readonly slots = new Map<string, ServerSlot>()
  private readonly listeners = new Map<string, Set<(status: LspProviderStatus) => void>>()
  /** Samples every running server's process tree (for status, RFC 0030); a breach of the ceiling restarts that server. */
  private readonly memory: MemoryWatcher
  private readonly slotHooks: SlotHooks
  /** Removes the pool's metric observations (memory per server, documents open per profile) and its place in the budget. */
  private readonly unobserve: ReadonlyArray<() => void>
  /** The memory budget this pool's servers count against (RFC 0033): the host's own, or one shared with other hosts. */
  readonly budget: MemoryBudget

  constructor(
    private readonly config: ResolvedHostConfig,
    private readonly features: FeatureFacts,
    private readonly hooks: PoolHooks,
    budget?: MemoryBudget,
  ) {
    this.budget = budget ?? new MemoryBudget()
    this.memory = new MemoryWatcher((breach) => void this.slots.get(breach.key)?.restartForMemory(breach.reason), {
      intervalMs: config.limits.memoryCheckIntervalMs,
      breachSamples: config.limits.memoryBreachSamples,
      sampled: () => void this.budget.enforce(),
    })
    this.slotHooks = {
      beforeStart: (slot) => this.makeRoom(slot),
      // Sampled for status from its spawn (a server indexing for minutes is when memory grows); the ceiling armed once it is up.
      spawned: (slot, pid) => {
        if (pid !== undefined) this.memory.watch(keyOf(slot.root, slot.profile), pid, 0)
      },
      started: (slot, pid) => {
        if (pid !== undefined) this.memory.watch(keyOf(slot.root, slot.profile), pid, config.limits.maxServerMemoryBytes)
      },
      escaped: (workspaceRoot) => hooks.escaped(workspaceRoot),
      nested: (slot) => nestedProjectsOf([slot.root, ...slot.sharedRoots], slot.profile),
      layout: (slot) => layoutEnvironment(slot.root, slot.profile),
    }
    this.unobserve = [
      observeTelemetry('serverMemory', () => this.memoryObservations()),
      observeTelemetry('documentsOpen', () => this.documentObservations()),
      this.budget.join(() => budgetServersOf(this.slots, this.memory), config.limits.memoryBudgetBytes),
    ]
  }

  /** The last sampled RSS of each live server's process tree, by profile and root hash. */
  private memoryObservations(): Array<{ value: number; attributes: Attributes }> {
    const observed: Array<{ value: number; attributes: Attributes }> = []
    for (const [key, slot] of this.slots) {
      const rss = slot.live === undefined ? undefined : this.memory.lastRss(key)
      if (rss !== undefined) observed.push({ value: rss, attributes: slot.telemetryAttributes() })
    }
    return observed
  }

  /** A slot's last memory sample (RFC 0030), when it is of the process the slot runs now; and the per-server ceiling. */
  private withMemory(key: string, slot: ServerSlot, given: LspProviderStatus): LspProviderStatus {
    const ceiling = this.config.limits.maxServerMemoryBytes
    const budget = this.budget.usage()
    const status =
      slot.pid === undefined
        ? given
        : {
            ...given,
            ...(ceiling > 0 ? { memoryCeilingBytes: ceiling } : {}),
            ...(budget.budgetBytes > 0 ? { memoryBudget: budget } : {}),
          }
    if (given.rssBytes !== undefined) return status
    const sample = this.memory.lastSample(key)
    if (sample === undefined || slot.pid === undefined || sample.pid !== slot.pid) return status
    return { ...status, rssBytes: sample.rssBytes, rssSampledAt: sample.sampledAt }
  }

  /** Documents open in live servers, per profile. */
  private documentObservations(): Array<{ value: number; attributes: Attributes }> {
    const perProfile = new Map<string, number>()
    for (const slot of this.slots.values()) {
      const live = slot.live
      if (live !== undefined) perProfile.set(slot.profile.id, (perProfile.get(slot.profile.id) ?? 0) + live.documents.openCount)
    }
    return [...perProfile].map(([profile, value]) => ({ value, attributes: { [TelemetryAttr.profile]: telemetryId(profile) } }))
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
      if (!slot.hasNotice || slot.profile.id !== profileId || !servesUnder(slot, root)) continue
      const notice = slot.takeNotice()
      if (notice !== undefined) notices.push(notice)
    }
    return notices
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

  /**
   * The slot serving a file. `group`: the other open roots of the request's workspace (RFC 0025); a profile
   * whose record shares roots serves the whole group with one server, keyed by the group's roots, so sessions
   * with other root sets never share it.
   */
  slotFor(workspace: LocalWorkspace, profile: ServerProfile, path: string, group: ReadonlyArray<LocalWorkspace> = []): ServerSlot {
    const shared = sharedGroup(workspace, profile, group)
    if (shared !== undefined)
      return this.slot(shared[0] ?? workspace.root, profile, workspace.trust, shared[0] ?? workspace.root, shared.slice(1))
    return this.slot(this.projectRootFor(workspace, profile, path), profile, workspace.trust, workspace.root)
  }

  private slot(
    root: string,
    profile: ServerProfile,
    trust: TrustLevel,
    workspaceRoot: string,
    sharedRoots: ReadonlyArray<string> = [],
  ): ServerSlot {
    const key = keyOf([root, ...sharedRoots].join('\0'), profile)
    let slot = this.slots.get(key)
    if (slot === undefined || slot.trust !== trust) {
      // A server started under another trust level keeps that level's settings: replace it.
      if (slot !== undefined) void slot.dispose()
      slot = new ServerSlot(
        root,
        profile,
        trust,
        this.config,
        this.features,
        (status) => this.emit(profile.id, slot === undefined ? status : this.withProjects(slot, status)),
        workspaceRoot,
        this.slotHooks,
        sharedRoots,
      )
      this.slots.set(key, slot)
    }
    return slot
  }

  /** Every project root of a profile in a workspace (workspace-scoped queries start them all). */
  async slotsFor(workspace: LocalWorkspace, profile: ServerProfile, group: ReadonlyArray<LocalWorkspace> = []): Promise<ServerSlot[]> {
    const shared = sharedGroup(workspace, profile, group)
    if (shared !== undefined) return [this.slotFor(workspace, profile, workspace.root, group)]
    if (profile.projectRoot !== 'nearest') return [this.slot(workspace.root, profile, workspace.trust, workspace.root)]
    const markers = await listFiles(workspace.root, { names: new Set(profile.rootMarkers ?? []) }, 200)
    const roots = new Set(markers.files.map((file) => nodePath.dirname(file)))
    const sourceFiles = await listFiles(workspace.root, { extensions: profileExtensions(profile) }, 2_000)
    const used = new Set(sourceFiles.files.map((file) => this.projectRootFor(workspace, profile, file)))
    const chosen = [...roots].filter((root) => used.has(root))
    if (used.has(workspace.root) || chosen.length === 0) chosen.unshift(workspace.root)
    return [...new Set(chosen)].map((root) => this.slot(root, profile, workspace.trust, workspace.root))
  }

  /** Running servers under a workspace (to tell them about changed files). */
  liveServersUnder(root: string): LanguageServer[] {
    return [...this.slots.values()].flatMap((slot) => (servesUnder(slot, root) && slot.live !== undefined ? [slot.live] : []))
  }

  async stopSlotsUnder(root: string): Promise<void> {
    const matching = [...this.slots.entries()].filter(([, slot]) => servesUnder(slot, root))
    for (const [key] of matching) this.slots.delete(key)
    await Promise.all(matching.map(([, slot]) => slot.dispose()))
  }

  statusOf(profile: ServerProfile): LspProviderStatus[] {
    const statuses = [...this.slots.entries()]
      .filter(([, s]) => s.profile.id === profile.id)
      .map(([key, s]) => this.withMemory(key, s, this.withProjects(s, s.statusSync())))
    if (profile.unavailable !== undefined)
      statuses.push({
        providerId: `local:${profile.id}`,
        server: profile.id,
        state: 'unavailable',
        reason: profile.unavailable,
        ...(profile.install === undefined ? {} : { install: profile.install }),
      })
    return statuses
  }

  async statusWithMemory(): Promise<LspProviderStatus[]> {
    return Promise.all(
      [...this.slots.entries()].map(async ([key, slot]) => this.withMemory(key, slot, this.withProjects(slot, await slot.status()))),
    )
  }

  private withProjects(slot: ServerSlot, given: LspProviderStatus): LspProviderStatus {
    const live = slot.live
    const disk = live === undefined ? undefined : this.hooks.diskChangesOf(live)
    const shared = slot.sharedRoots.length === 0 ? given : { ...given, sharedRoots: slot.sharedRoots }
    const status = disk === undefined ? shared : { ...shared, diskChanges: disk }
    if (live !== undefined && slot.profile.projectRoot === 'workspaceFolders') {
      const folders = live.projectCount
      return { ...status, projects: { loaded: folders, found: folders } }
    }
    const projects = live === undefined ? undefined : this.hooks.projectsOf(live)
    const loading = live === undefined ? undefined : this.hooks.loadingOf(live)
    return { ...status, ...(projects === undefined ? {} : { projects }), ...(loading === undefined ? {} : { loading }) }
  }

  /** A server's project loading made progress: its status is announced again, with the figures so far. */
  announceLoading(server: LanguageServer): void {
    for (const slot of this.slots.values()) if (slot.live === server) this.emit(slot.profile.id, this.withProjects(slot, slot.statusSync()))
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

  /** Stops every server and the memory sampling; returns once the process watchdog has nothing left to do. */
  async dispose(): Promise<void> {
    for (const remove of this.unobserve) remove()
    this.memory.stop()
    const slots = [...this.slots.values()]
    this.slots.clear()
    await Promise.all(slots.map((slot) => slot.dispose()))
    await watchdogIdle()
  }
}

function keyOf(root: string, profile: ServerProfile): string {
  return `${root}\0${profile.id}`
}

/** Whether a slot serves files under `root`: its own folder, or one of the workspace roots it shares. */
function servesUnder(slot: ServerSlot, root: string): boolean {
  return [slot.root, ...slot.sharedRoots].some((served) => isWithin(root, served))
}
