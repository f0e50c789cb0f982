// Size: one slot's whole life — start, readiness, crash backoff, idle and memory restarts, re-planning when an untrusted root's judged files change — kept in one class.
import { LspError, type LspProviderStatus } from '@codeseam/lsp'
import type { Attributes, Span } from '@opentelemetry/api'
import type { ResolvedHostConfig, TrustLevel } from '../policy/config.js'
import { LanguageServer } from '../server/language-server.js'
import { readinessWait } from '../server/readiness.js'
import type { ServerProfile } from '../profile/profiles.js'
import { serverEnvironment } from '../policy/environment.js'
import { withHeapCap } from '../policy/limits.js'
import { nestedSettings, type NestedProjects } from '../workspace/nested-projects.js'
import { editorServicesOf } from '../workspace/editor-services.js'
import { recordFor } from '../languages/index.js'
import { planSpawn, prepareUntrusted } from '../policy/trust.js'
import type { FeatureFacts } from './feature-facts.js'
import { SlotGate } from './gate.js'
import { SharedStart } from './shared-start.js'
import { slotStatus, slotUnavailable } from './slot-status.js'
import { SlotTelemetry } from './slot-telemetry.js'

/** What a slot asks of the host around a start. */
export interface SlotHooks {
  /** Makes room under maxServers before a start (may stop idle servers; UNAVAILABLE when none can go). */
  beforeStart(slot: ServerSlot): Promise<void>
  /** A server process was spawned: sample its tree's memory for status. */
  spawned?(slot: ServerSlot, pid: number | undefined): void
  /** A server is up: watch its process tree's memory against the ceiling. */
  started(slot: ServerSlot, pid: number | undefined): void
  /** A file under the slot's workspace turned out to resolve outside it when read: forget cached resolutions. */
  escaped?(workspaceRoot: string): void
  /** Nested projects under the slot's root (further workspace folders, search paths), read at each start. */
  nested?(slot: ServerSlot): Promise<NestedProjects>
  /** The environment the project layout needs (the language record's hook). */
  layout?(slot: ServerSlot): Promise<Readonly<Record<string, string>>>
}

/** One (canonical project root, profile) slot: at most one live server, restarted with backoff after crashes. */
export class ServerSlot {
  private server: LanguageServer | undefined
  private readonly starting: SharedStart<LanguageServer>
  private readonly crashTimes: number[] = []
  private restarts = 0
  private unavailable: string | undefined
  private inFlight = 0
  private idleTimer: NodeJS.Timeout | undefined
  private disposed = false
  private notice: string | undefined // set by a memory restart; the next result reports `degraded` once
  lastUsed = performance.now()
  private pendingRestart: string | undefined
  private planStale: (() => boolean) | undefined // untrusted: whether files the plan was judged on changed (SpawnPlan.stale)
  private planDegraded: string | undefined // untrusted: what the plan costs in answers, for the status (SpawnPlan.degraded)
  private readonly telemetry: SlotTelemetry
  readonly gate = new SlotGate() // shared by every query, exclusive for a speculative check (RFC 0018)

  constructor(
    readonly root: string,
    readonly profile: ServerProfile,
    readonly trust: TrustLevel,
    private readonly config: ResolvedHostConfig,
    private readonly features: FeatureFacts,
    private readonly onStatus: (status: LspProviderStatus) => void,
    readonly workspaceRoot: string = root,
    private readonly hooks?: SlotHooks,
    /** Further roots of the same workspace the server serves as workspace folders (RFC 0025). */
    readonly sharedRoots: ReadonlyArray<string> = [],
  ) {
    this.starting = new SharedStart(`the ${profile.id} server for ${root}`)
    this.telemetry = new SlotTelemetry(root, profile.id)
  }

  /** Whether the slot's server serves a workspace root as its own or as one it shares (RFC 0025). */
  servesRoot(root: string): boolean {
    return root === this.root || this.sharedRoots.includes(root)
  }

  /** Holds a process (running or starting). */
  get hasProcess(): boolean {
    return this.starting.inProgress || (this.server !== undefined && this.server.state !== 'stopped' && this.server.state !== 'crashed')
  }

  /** Queries in flight or a start in progress: never reclaimed. */
  get busy(): boolean {
    return this.inFlight > 0 || this.starting.inProgress
  }

  /** The memory-restart reason, once. */
  get hasNotice(): boolean {
    return this.notice !== undefined
  }

  takeNotice(): string | undefined {
    const notice = this.notice
    this.notice = undefined
    return notice
  }

  /** Graceful restart after a memory breach: stop now, start again on the next query, say why. */
  async restartForMemory(reason: string): Promise<void> {
    const server = this.server
    if (server === undefined || this.starting.inProgress) return
    if (this.inFlight > 0) {
      // Never cut a running query short: restart when the last one finishes.
      this.pendingRestart = reason
      return
    }
    this.server = undefined
    this.restarts++
    this.telemetry.replaced()
    this.notice = reason
    await this.stopping(server.stop())
    this.onStatus({ ...this.statusSync(), state: 'idle', reason })
  }

  get live(): LanguageServer | undefined {
    return this.server !== undefined && (this.server.state === 'ready' || this.server.state === 'indexing') ? this.server : undefined
  }

  /** The slot's profile and root hash, for telemetry. */
  telemetryAttributes(): Attributes {
    return this.telemetry.attributes()
  }

  /** The running server, started (single-flight) if needed and ready per the profile's rule (in an acquire span). */
  acquire(deadline: number, signal?: AbortSignal): Promise<LanguageServer> {
    return this.telemetry.acquire((span) => this.acquireIn(span, deadline, signal))
  }

  private async acquireIn(span: Span, deadline: number, signal?: AbortSignal): Promise<LanguageServer> {
    if (this.disposed) throw new LspError('DISPOSED', 'the lsp-local host was disposed')
    if (this.unavailable !== undefined) throw slotUnavailable(this.profile, this.root, this.unavailable)
    // Untrusted, a file the plan was judged on changed (a .cargo/config.toml): planned again below (refused if unsafe).
    const live = this.planStale?.() === true ? undefined : this.live
    if (live !== undefined) {
      this.telemetry.acquired(span, false)
      return live
    }
    // The start's own deadline: the host's request timeout from now, whoever waits on it.
    const hostDeadline = Date.now() + this.config.requestTimeoutMs
    const started = this.starting.join((startSignal) => this.start(hostDeadline, startSignal), deadline, signal)
    this.telemetry.acquired(span, true)
    return started
  }

  /** One start in a start span: backoff after a crash, spawn, handshake, readiness wait. */
  private start(deadline: number, signal?: AbortSignal): Promise<LanguageServer> {
    return this.telemetry.start(this.server !== undefined, (restart) => this.startProcess(restart, deadline, signal))
  }

  private async startProcess(restart: boolean, deadline: number, signal?: AbortSignal): Promise<LanguageServer> {
    if (this.server !== undefined) {
      // The previous process crashed or was stopped: this is a restart.
      const crashed = this.server.state === 'crashed'
      const previous = this.server
      this.server = undefined
      await previous.stop(500)
      if (crashed) await this.backoff(previous, deadline)
    }
    // Untrusted roots: the record's async step first (JDT LS fetches the parent POMs it judges), by the start's deadline.
    const prepare = (root: string) =>
      prepareUntrusted(this.profile, { root, trust: this.trust, deadline, ...(signal === undefined ? {} : { signal }) })
    const prepared = await Promise.all([this.root, ...this.sharedRoots].map(prepare))
    const judged = (index: number) => (prepared[index] === undefined ? {} : { prepared: prepared[index] })
    // Untrusted roots: nothing the workspace names may run (docs/security.md); throws UNTRUSTED.
    const plan = planSpawn(this.profile, {
      root: this.root,
      workspaceRoot: this.workspaceRoot,
      trust: this.trust,
      env: serverEnvironment(this.config.envAllow, this.profile),
      ...judged(0),
    })
    // Every root the server serves is judged as its own would be: one that may not run the server refuses the start.
    const shared = this.sharedRoots.map((root, index) =>
      planSpawn(this.profile, {
        root,
        workspaceRoot: root,
        trust: this.trust,
        env: serverEnvironment(this.config.envAllow, this.profile),
        ...judged(index + 1),
      }),
    )
    this.planDegraded = [plan, ...shared].flatMap((p) => (p.degraded === undefined ? [] : [p.degraded])).join('; ') || undefined
    this.planStale = [plan, ...shared].some((p) => p.stale !== undefined)
      ? () => [plan, ...shared].some((p) => p.stale?.() === true)
      : undefined
    const capped = withHeapCap(this.profile, plan, this.config.limits.nodeHeapMb)
    // The project's layout may need an environment of its own (gopls: a go.work over every module of the root).
    const layout = (await this.hooks?.layout?.(this)) ?? {}
    await this.hooks?.beforeStart(this)
    const nested = (await this.hooks?.nested?.(this)) ?? { folders: [], plain: [], searchPaths: [] }
    const { settings, unscoped: unscopedSettings } = nestedSettings(this.root, this.profile, plan.settings, nested)
    const server = new LanguageServer({
      clientCapabilities: this.features.clientCapabilities(this.profile),
      profileId: this.profile.id,
      command: plan.command,
      args: capped.args,
      root: this.root,
      folders: nested.folders,
      projectCount: 1 + this.sharedRoots.length + nested.folders.length + nested.plain.length,
      ...(unscopedSettings === undefined ? {} : { unscopedSettings }),
      env: { ...capped.env, ...layout },
      initializationOptions: capped.initializationOptions,
      settings,
      maxMessageBytes: this.config.maxMessageBytes,
      stderrLines: this.config.stderrLines,
      maxOpenDocuments: this.config.limits.maxOpenDocuments,
      fileLimits: this.config.limits,
      livenessGraceMs: this.config.livenessGraceMs,
      serverStatus: this.profile.readiness === 'serverStatus',
      clientContent: this.profile.clientContent === true,
      editorServices: editorServicesOf(this.profile),
      allowedCommands: recordFor(this.profile)?.allowedCommands,
      workspaceRoot: this.workspaceRoot,
      ...(this.sharedRoots.length === 0 ? {} : { sharedRoots: this.sharedRoots }),
      onEscape: () => this.hooks?.escaped?.(this.workspaceRoot),
    })
    this.server = server
    this.telemetry.spawned(restart)
    this.hooks?.spawned?.(this, server.processPid)
    server.on('state', () => this.onStatus(this.statusSync()))
    this.onStatus(this.statusSync())
    try {
      await server.initialize(Math.max(1, deadline - Date.now()), signal)
      await readinessWait(server, this.profile, deadline, signal)
    } catch (error) {
      if (error instanceof LspError && (error.code === 'TIMEOUT' || error.code === 'CANCELLED') && server.state !== 'crashed') {
        // Nobody waits any more, or the host's start-up deadline passed: the server did not fail, so it is
        // stopped, not counted as a crash against the restart budget.
        if (this.server === server) this.server = undefined
        await server.stop(500)
        this.onStatus(this.statusSync())
        throw new LspError(error.code, `the ${this.profile.id} server for ${this.root} did not finish starting: ${error.message}`, {
          cause: error,
        })
      }
      if (server.state !== 'crashed') server.crash(`it failed to initialize: ${(error as Error).message}`)
      if (error instanceof LspError) throw error
      // The transport failed during the handshake (the process died under it): that is a crash.
      throw (
        server.crashError ??
        new LspError('SERVER_CRASHED', `the ${this.profile.id} server for ${this.root} died while starting: ${(error as Error).message}`, {
          cause: error,
        })
      )
    }
    this.hooks?.started(this, server.processPid)
    this.onStatus(this.statusSync())
    return server
  }

  /** Crash loops end in UNAVAILABLE; each restart in the window waits twice as long as the last. */
  private async backoff(previous: LanguageServer, deadline: number): Promise<void> {
    const now = Date.now()
    this.crashTimes.push(now)
    while (this.crashTimes.length > 0 && (this.crashTimes[0] ?? 0) < now - this.config.restartWindowMs) this.crashTimes.shift()
    if (this.crashTimes.length > this.config.maxRestarts) {
      this.unavailable = `it crashed ${this.crashTimes.length} times within ${Math.round(this.config.restartWindowMs / 1000)} s, so it is no longer restarted (last: ${previous.crashReason ?? 'unknown'}). Last stderr lines:\n${previous.stderrTail(10)}`
      this.onStatus(this.statusSync())
      throw slotUnavailable(this.profile, this.root, this.unavailable)
    }
    this.restarts++
    const delay = this.crashTimes.length <= 1 ? 0 : Math.min(250 * 2 ** (this.crashTimes.length - 2), 8_000)
    if (delay > deadline - Date.now()) {
      throw new LspError(
        'UNAVAILABLE',
        `the ${this.profile.id} server for ${this.root} crashed again and restarts in ${delay} ms, after this request's deadline`,
      )
    }
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
  }

  /** Marks a query running (the idle timer waits until none is). */
  use(): () => void {
    this.inFlight++
    this.lastUsed = performance.now()
    clearTimeout(this.idleTimer)
    return () => {
      this.inFlight--
      this.lastUsed = performance.now()
      if (this.inFlight === 0 && this.pendingRestart !== undefined) {
        const reason = this.pendingRestart
        this.pendingRestart = undefined
        void this.restartForMemory(reason)
      }
      if (this.inFlight === 0 && this.config.idleTtlMs > 0) {
        clearTimeout(this.idleTimer)
        this.idleTimer = setTimeout(() => void this.reclaim(), this.config.idleTtlMs)
        this.idleTimer.unref()
      }
    }
  }

  private async reclaim(): Promise<void> {
    if (this.inFlight > 0 || this.server === undefined || this.starting.inProgress) return
    const server = this.server
    this.server = undefined
    await this.stopping(server.stop())
    this.onStatus({ ...this.statusSync(), state: 'idle' })
  }

  /** Stops in progress outside stop() (idle reclaim, memory restart): stop() and dispose() wait for them. */
  private readonly stops = new Set<Promise<void>>()

  private stopping(stop: Promise<void>): Promise<void> {
    const tracked = stop.finally(() => this.stops.delete(tracked))
    this.stops.add(tracked)
    return tracked
  }

  /** Stops the server (it starts again on the next query). */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer)
    this.starting.abort(new LspError('CANCELLED', 'the server was stopped while starting'))
    const server = this.server ?? (await this.starting.current?.catch(() => undefined))
    this.server = undefined
    await server?.stop()
    // A process an idle reclaim or a memory restart is still stopping is gone too when this returns.
    await Promise.all([...this.stops].map((stop) => stop.catch(() => undefined)))
  }

  async dispose(): Promise<void> {
    this.disposed = true
    await this.stop()
  }

  /** Status without the RSS (which needs /proc). */
  statusSync(): LspProviderStatus {
    const { root, profile, server, unavailable, notice, restarts } = this
    return slotStatus({ root, profile, server, unavailable, notice, degraded: this.planDegraded, restarts }, this.features)
  }

  /** The pid of the server process the slot runs now (starting or up); undefined when none runs. */
  get pid(): number | undefined {
    const server = this.server
    return server === undefined || server.state === 'stopped' || server.state === 'crashed' ? undefined : server.processPid
  }

  /** Status with the RSS of the server's process tree, read now. */
  async status(): Promise<LspProviderStatus> {
    const rss = await this.server?.rssBytes()
    return { ...this.statusSync(), ...(rss === undefined ? {} : { rssBytes: rss, rssSampledAt: Date.now() }) }
  }
}
