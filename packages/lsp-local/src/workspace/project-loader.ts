import { statSync } from 'node:fs'

import { TelemetryAttr, TelemetrySpan, inSpan, isWithin, telemetryId, type LspProviderStatus, type LspSearchCoverage } from '@codeseam/lsp'
import type { LspOperation } from '@codeseam/lsp'

import type { ServerProfile } from '../profile/profiles.js'
import type { LanguageServer } from '../server/language-server.js'
import { serverFolders } from '../server/spec.js'
import { noFileLimits, sizeBreach, type FileLimits } from '../documents/file-limits.js'
import { recordFor } from '../languages/index.js'
import type { ConfigWatch, DeclaredIn, ProjectLoadContext, ProjectModel } from '../languages/project-model.js'
import { languageIdOf, listFiles, profileExtensions } from '../profile/files.js'
import { BackgroundPause, loadFolder, loadsOnOpen, openPinned, outlineEach, PerFolder, progressEveryMs } from './project-load-parts.js'
import type { Load, LoadProgress } from './project-load-parts.js'
import { loadSpan } from './project-load-span.js'
import { openDeferred } from './deferred-files.js'
import type { LocalWorkspace } from './workspace.js'

/**
 * The one loader of every server's project model (the record's {@link ProjectModel}: TypeScript's projects, pyright's
 * programs, Go's packages): makes servers that search only what they have loaded see a whole workspace. Per server
 * and folder it keeps the files opened and pinned and the coverage that gave (docs/lsp-local.md, "The project model").
 */
export class ProjectLoader {
  /** Per server and folder: what its model opened and what that covered. */
  private readonly loads = new PerFolder<Load>()
  /** Servers that saw files created or deleted since their projects were loaded (loose files to re-plan). */
  private readonly replan = new PerFolder<true>()
  /** Per server: the questions in flight that pause its background opens. */
  private readonly paused = new BackgroundPause()
  /** Per record: its project model, made once (it may keep state). */
  private readonly models = new Map<string, ProjectModel>()

  /**
   * @param maxOpenDocuments the per-server open-document limit the pinned files must leave room under
   * @param fileLimits the per-file ceilings: a project is loaded through a file within them (RFC 0013)
   * @param onProgress told when a server's {@link loadingOf} grew
   */
  constructor(
    private readonly maxOpenDocuments: number,
    private readonly fileLimits: FileLimits = noFileLimits,
    /** A server's loading figures grew (announced at most every {@link progressEveryMs}, and when a load plans and ends). */
    private readonly onProgress: (server: LanguageServer) => void = () => {},
  ) {}

  /** The project model a profile's server has: its record's, unless the profile says `loadAllProjects: false`. */
  private modelOf(profile: ServerProfile): ProjectModel | undefined {
    if (profile.loadAllProjects === false) return undefined
    const record = recordFor(profile)
    if (record?.projectModel === undefined) return undefined
    let model = this.models.get(record.id)
    if (model === undefined) this.models.set(record.id, (model = record.projectModel()))
    return model
  }

  /** Whether a profile's model loads before a question about one file of this operation (see {@link ProjectModel.loadsBefore}). */
  loadsBefore(profile: ServerProfile, operation: LspOperation): boolean {
    return this.modelOf(profile)?.loadsBefore?.includes(operation) === true
  }

  /** Whether a profile's model reads a folder's layout ahead of the first question (see {@link prefetch}). */
  prefetches(profile: ServerProfile): boolean {
    return this.modelOf(profile)?.prefetch !== undefined
  }

  /** Files were created or deleted under a server's folder: the files of no project are planned again. */
  filesAddedOrRemoved(server: LanguageServer): void {
    for (const folder of serverFolders(server.spec)) this.replan.set(server, folder, true)
  }

  /** The config files a disk watch must report for a server's folder (TypeScript profiles), so the model reads them again. */
  configWatch(root: string, profile: ServerProfile): ConfigWatch | undefined {
    return this.modelOf(profile)?.configWatch?.(root, profile)
  }

  /** Opens one source file so servers that answer only about open documents have a project loaded. */
  openAnyFile(server: LanguageServer, workspace: LocalWorkspace, profile: ServerProfile): Promise<void> {
    return inSpan(
      TelemetrySpan.projectLoad,
      () => ({ [TelemetryAttr.profile]: telemetryId(profile.id) }),
      async (span) => {
        // The first few files, so that one over the per-file limits (a generated bundle) is passed over.
        const { files } = await listFiles(server.spec.root, { extensions: profileExtensions(profile) }, 16)
        const candidates = files.filter((file) => workspace.containment.contains(file) && !this.oversized(file))
        const { opened: done } = await openPinned(server, profile, candidates, 1)
        const opened = done.length
        if (span.isRecording()) span.setAttribute(TelemetryAttr.files, opened)
      },
    )
  }

  /**
   * Before a workspace-wide query, servers that search only what they have loaded get their model's files opened
   * and pinned (so the LRU never closes them), within the open-document limit. Returns the coverage that gives;
   * undefined for profiles without a project model. A load that finished is kept while nothing was created or
   * deleted, every file it opened is still open and its model says its basis holds; one in flight is shared.
   */
  loadProjects(
    server: LanguageServer,
    workspace: LocalWorkspace,
    profile: ServerProfile,
    deadline: number,
    signal?: AbortSignal,
    target?: string,
    declaredIn?: DeclaredIn,
  ): Promise<LspSearchCoverage | undefined> {
    const model = this.modelOf(profile)
    if (model === undefined) return Promise.resolve(undefined)
    // The folder of the server this workspace's projects lie in: its own, or another root it serves (RFC 0025).
    const folder = loadFolder(server, workspace)
    const previous = this.loads.get(server, folder)
    const kept = previous !== undefined && this.stillOpen(server, folder, previous.opened) ? previous : undefined
    const run: LoadRun = { model, server, folder, workspace, profile, deadline, signal, declaredIn }
    // A load that finished and still holds answers at once (with the files it left that this question needs); a load
    // to run or to wait for is a span.
    if (kept?.settled !== undefined && (model.current === undefined || model.current(folder, profile, kept.basis)))
      return kept.deferred === undefined ? Promise.resolve(kept.settled) : this.withDeferred(run, kept, kept.settled, target)
    if (model.loadsOnOpen === true) loadsOnOpen.add(server)
    const whole = async () => {
      const load = kept !== undefined && kept.settled === undefined ? kept : undefined
      const coverage = await (load === undefined ? this.load(run) : load.coverage)
      const settled = load ?? this.loads.get(server, folder)
      return settled?.deferred === undefined ? coverage : this.withDeferred(run, settled, coverage, target)
    }
    // A question about one file: what can reach it first, the rest in the background (RFC 0035).
    const first =
      target === undefined || model.loadNeeded === undefined ? whole : async () => (await this.loadNeeded(run, target)) ?? whole()
    return loadSpan(profile, first, () => this.loads.get(server, folder)?.opened.length ?? 0)
  }

  /** Nothing created or deleted since the folder's files were planned, and every one opened for it still open. */
  private stillOpen(server: LanguageServer, folder: string, opened: ReadonlyArray<string>): boolean {
    return this.replan.get(server, folder) === undefined && opened.every((file) => server.documents.get(file) !== undefined)
  }

  /**
   * Opens what can reach `target` while background opens wait, then starts loading the rest in the background
   * (unless a load of it runs or holds); undefined when the model cannot tell or that is everything.
   */
  private async loadNeeded(run: LoadRun, target: string): Promise<LspSearchCoverage | undefined> {
    const { model, server, folder, profile } = run
    const resume = this.pause(server)
    try {
      const progress: LoadProgress = { projectsLoaded: 0, filesOpened: 0, toldAt: 0 }
      const context = this.contextFor(run, progress, () => {}, false)
      const needed = await model.loadNeeded?.(context, target)
      if (needed === undefined) return undefined
      const running = this.loads.get(server, folder)
      const holds = running !== undefined && this.stillOpen(server, folder, running.opened)
      if (!holds || (running.settled !== undefined && model.current?.(folder, profile, running.basis) === false))
        this.load({ ...run, deadline: Date.now() + backgroundMs, signal: undefined, declaredIn: undefined }, true).catch(() => {})
      return needed.coverage
    } finally {
      resume()
    }
  }

  /** The files a settled load left that this question needs, opened (see openDeferred). */
  private withDeferred(run: LoadRun, load: Load, settled: LspSearchCoverage, target?: string): Promise<LspSearchCoverage> {
    const context = this.contextFor(run, { projectsLoaded: 0, filesOpened: 0, toldAt: 0 }, () => {}, false)
    return openDeferred(load, settled, context, target, run.declaredIn)
  }

  /** Background opens of a server wait until every question that paused them is answered (the server has no request priority). */
  pause(server: LanguageServer): () => void {
    return this.paused.pause(server)
  }

  /** Runs a model's load for a server folder, kept until it no longer holds; a failed one is forgotten. */
  private load(run: LoadRun, background = false): Promise<LspSearchCoverage> {
    const { model, server, folder } = run
    this.replan.delete(server, folder)
    const progress: LoadProgress = { projectsLoaded: 0, filesOpened: 0, toldAt: 0 }
    const tell = (now: boolean) => {
      if (!now && Date.now() - progress.toldAt < progressEveryMs) return
      progress.toldAt = Date.now()
      this.onProgress(server)
    }
    const context = this.contextFor(run, progress, tell, background)
    const load: Load = {
      opened: [],
      counts: model.countsProjects === true,
      progress,
      coverage: model.load(context).then((result) => {
        load.opened = result.opened
        load.basis = result.basis
        load.deferred = result.deferred
        load.settled = result.coverage
        return result.coverage
      }),
    }
    this.loads.set(server, folder, load)
    load.coverage.then(
      () => tell(true),
      () => {
        if (this.loads.get(server, folder) === load) this.loads.delete(server, folder)
        tell(true)
      },
    )
    return load.coverage
  }

  /** What a model's load of a server folder is given; `background`: each open waits while a question pauses them. */
  private contextFor(run: LoadRun, progress: LoadProgress, tell: (now: boolean) => void, background: boolean): ProjectLoadContext {
    const { server, folder, workspace, profile, deadline, signal, declaredIn } = run
    return {
      ...(declaredIn === undefined ? {} : { declaredIn }),
      background,
      folder,
      profile,
      nestedFolders: (server.spec.folders ?? []).filter((each) => isWithin(folder, each)),
      // The server's own root counts every project folder but the other roots it serves, each of which counts one.
      projectCount: folder === server.spec.root ? server.projectCount - (server.spec.sharedRoots?.length ?? 0) : 1,
      deadline,
      ...(signal === undefined ? {} : { signal }),
      pinBudget: this.pinBudget(server),
      sources: () => listFiles(folder, { extensions: profileExtensions(profile) }, 20_000),
      contains: (file) => workspace.containment.contains(file),
      oversized: (file) => this.oversized(file),
      open: (files, max, options) => {
        const pin = options?.pin !== false
        const opened = () => {
          if (!pin) return
          progress.filesOpened++
          if (options?.projects === true) progress.projectsLoaded++
          tell(false)
        }
        return openPinned(server, profile, files, max, opened, background ? () => this.paused.unpaused(server) : undefined, pin)
      },
      found: (projects) => {
        progress.projectsFound = projects
        tell(true)
      },
      maskIfEscaped: (link) => server.documents.maskIfEscaped(link, languageIdOf(profile, link)),
      outlined: (files) => outlineEach(server, files, deadline, signal),
    }
  }

  /**
   * Starts reading a folder's project layout ahead of the first query (a workspace just opened), so that a
   * TypeScript graph's compiler-API child runs while the server starts instead of after it. Models that read no
   * layout are left alone.
   */
  prefetch(root: string, profile: ServerProfile, timeoutMs: number, signal: AbortSignal): void {
    this.modelOf(profile)?.prefetch?.(root, profile, timeoutMs, signal)
  }

  /** Projects a server has loaded, of those found, once its projects were loaded (for status; models that count projects). */
  projectsOf(server: LanguageServer): { loaded: number; found: number } | undefined {
    const coverages = this.loads.values(server).flatMap((load) => (load.counts && load.settled !== undefined ? [load.settled] : []))
    if (coverages.length === 0) return undefined
    const sum = (pick: (coverage: LspSearchCoverage) => number) => coverages.reduce((total, coverage) => total + pick(coverage), 0)
    return { loaded: sum((c) => c.projectsSearched), found: sum((c) => c.projectsFound) }
  }

  /** What a server's loads in flight have loaded so far (RFC 0032); undefined when none is loading. */
  loadingOf(server: LanguageServer): NonNullable<LspProviderStatus['loading']> | undefined {
    const loading = this.loads.values(server).filter((load) => load.settled === undefined)
    if (loading.length === 0) return undefined
    const filesOpened = loading.reduce((total, load) => total + load.progress.filesOpened, 0)
    const counted = loading.filter((load) => load.counts)
    if (counted.length === 0) return { filesOpened }
    const projectsLoaded = counted.reduce((total, load) => total + load.progress.projectsLoaded, 0)
    const planned = counted.every((load) => load.progress.projectsFound !== undefined)
    const projectsFound = counted.reduce((total, load) => total + (load.progress.projectsFound ?? 0), 0)
    return { projectsLoaded, ...(planned ? { projectsFound } : {}), filesOpened }
  }

  /** Over the size ceiling, from a stat (a file gone since the walk is left to the open to report). */
  private oversized(file: string): boolean {
    const size = statSync(file, { throwIfNoEntry: false })?.size
    return size !== undefined && sizeBreach(size, this.fileLimits) !== undefined
  }

  /** How many documents a server may keep pinned: the open-document limit less room for the queries' own (never pinned, closed least recently used first). */
  private pinBudget(server: LanguageServer): number {
    const limit = this.maxOpenDocuments
    // A server serving several roots (RFC 0025) shares its pins among them.
    return Math.floor(Math.max(0, limit - Math.max(8, Math.floor(limit / 4))) / serverFolders(server.spec).length)
  }
}

/** How long a background load may take (its opens wait while questions are answered). */
const backgroundMs = 30 * 60_000

/** What one load of a server folder runs with. */
interface LoadRun {
  readonly model: ProjectModel
  readonly server: LanguageServer
  /** The server's folder the projects lie in (see loadFolder). */
  readonly folder: string
  readonly workspace: LocalWorkspace
  readonly profile: ServerProfile
  readonly deadline: number
  readonly signal: AbortSignal | undefined
  /** A question at a position: what declares what it names (ProjectLoadContext.declaredIn). */
  readonly declaredIn: DeclaredIn | undefined
}
