// Size: the one loader of every server's project model (TypeScript projects, pyright's programs, Go packages): they share the open-document pin budget and the re-plan state of a server, which splitting the class would spread over files.
import { statSync } from 'node:fs'

import { LspError, TelemetryAttr, TelemetrySpan, inSpan, isWithin, telemetryId, type LspSearchCoverage } from '@codeseam/lsp'

import type { ServerProfile } from '../policy/profiles.js'
import type { LanguageServer } from '../server/language-server.js'
import { serverFolders } from '../server/spec.js'
import type { ConfigWatch } from './disk-watch.js'
import { breachOf, noFileLimits, SkippedFiles, sizeBreach, type FileLimits } from '../documents/file-limits.js'
import { languageIdOf, listFiles, profileExtensions } from '../policy/files.js'
import { goPackageFiles } from './go-packages.js'
import { inScope, pyrightScope } from './pyright-projects.js'
import { loadSpan } from './project-load-span.js'
import { TsGraphCache } from './ts-graph-cache.js'
import { planProjectLoad, type TsProjectGraph } from './ts-projects.js'
import type { LocalWorkspace } from './workspace.js'

/**
 * Makes servers that search only what they have loaded see a whole workspace: the TypeScript project graph
 * of a folder (cached until one of its config files changes), and per server the files opened and pinned
 * for it and the coverage that gave (docs/lsp-local.md, "The project model").
 */
export class ProjectLoader {
  /** Per server: the project graph its pinned files were chosen from, and what opening them covered. */
  private readonly loaded = new PerFolder<ProjectLoad>()
  /** Per pyright server: the files outside every configuration's program that were opened, and the coverage. */
  private readonly pythonLoads = new PerFolder<PinnedLoad>()
  /** Per gopls server: one file of every Go package, opened, and the coverage. */
  private readonly goLoads = new PerFolder<PinnedLoad>()
  /** Servers that saw files created or deleted since their projects were loaded (loose files to re-plan). */
  private readonly replan = new PerFolder<true>()
  /** Per (server folder, profile): the TypeScript project graph, until one of its config files changes. */
  private readonly graphs = new TsGraphCache()

  /**
   * @param maxOpenDocuments the per-server open-document limit the pinned files must leave room under
   * @param fileLimits the per-file ceilings: a project is loaded through a file within them (RFC 0013)
   */
  constructor(
    private readonly maxOpenDocuments: number,
    private readonly fileLimits: FileLimits = noFileLimits,
  ) {}

  /** Files were created or deleted under a server's folder: the files of no project are planned again. */
  filesAddedOrRemoved(server: LanguageServer): void {
    for (const folder of serverFolders(server.spec)) this.replan.set(server, folder, true)
  }

  /** The config files a disk watch must report for a server's folder (TypeScript profiles), so the graph is read again. */
  configWatch(root: string, profile: ServerProfile): ConfigWatch | undefined {
    if (profile.loadAllProjects !== 'tsconfig') return undefined
    return {
      // A project config (or the target of an `extends`) created, changed or deleted: read the graph again.
      isConfig: (path: string) => this.graphs.isConfig(root, profile, path),
      onConfigChange: () => this.graphs.forget(root, profile),
    }
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
   * Servers that search only loaded projects (the native TypeScript 7 server) need every project loaded
   * before a workspace-wide query: one file of each project in the graph is opened and pinned (so the LRU
   * never closes it), and so are the source files of no project (inferred projects), within the
   * open-document limit. Returns the coverage that gives; undefined for profiles without a project model.
   */
  loadProjects(
    server: LanguageServer,
    workspace: LocalWorkspace,
    profile: ServerProfile,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<LspSearchCoverage | undefined> {
    // The folder of the server this workspace's projects lie in: its own, or another root it serves (RFC 0025).
    const folder = loadFolder(server, workspace)
    if (profile.loadAllProjects === 'pyright') {
      const previous = this.pythonLoads.get(server, folder)
      // A load that finished and still holds answers at once; a load to run or to wait for is a span.
      if (previous?.settled === true && this.stillOpen(server, folder, previous.opened)) return previous.coverage
      return loadSpan(
        profile,
        () => this.loadPyrightFiles(server, folder, workspace, profile),
        () => this.pythonLoads.get(server, folder)?.opened.length ?? 0,
      )
    }
    if (profile.loadAllProjects === 'goPackages') {
      const previous = this.goLoads.get(server, folder)
      if (previous?.settled === true && this.stillOpen(server, folder, previous.opened)) return previous.coverage
      return loadSpan(
        profile,
        () => this.loadGoPackages(server, folder, workspace, profile),
        () => this.goLoads.get(server, folder)?.opened.length ?? 0,
      )
    }
    if (profile.loadAllProjects !== 'tsconfig') return Promise.resolve(undefined)
    const load = this.loaded.get(server, folder)
    const graph = this.graphs.settled(folder, profile)
    if (load?.settled !== undefined && graph !== undefined && load.graph === graph && this.stillOpen(server, folder, load.opened))
      return load.coverage
    return loadSpan(
      profile,
      () => this.loadTsProjects(server, folder, workspace, profile, deadline, signal),
      () => this.loaded.get(server, folder)?.opened.length ?? 0,
    )
  }

  /** Nothing created or deleted since the folder's files were planned, and every one opened for it still open. */
  private stillOpen(server: LanguageServer, folder: string, opened: ReadonlyArray<string>): boolean {
    return this.replan.get(server, folder) === undefined && opened.every((file) => server.documents.get(file) !== undefined)
  }

  private async loadTsProjects(
    server: LanguageServer,
    folder: string,
    workspace: LocalWorkspace,
    profile: ServerProfile,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<LspSearchCoverage> {
    const graph = await this.graphs.read(folder, profile, deadline, signal)
    let load = this.loaded.get(server, folder)
    if (load === undefined || load.graph !== graph || !this.stillOpen(server, folder, load.opened)) {
      this.replan.delete(server, folder)
      const next: ProjectLoad = {
        graph,
        opened: [],
        coverage: this.openProjects(server, folder, workspace, profile, graph).then((result) => {
          next.opened = result.opened
          next.settled = result.coverage
          return result.coverage
        }),
      }
      load = next
      this.loaded.set(server, folder, next)
      next.coverage.catch(() => this.loaded.get(server, folder) === next && this.loaded.delete(server, folder))
    }
    return load.coverage
  }

  /**
   * Starts reading a folder's TypeScript project graph ahead of the first query (a workspace just opened),
   * so the compiler-API child runs while the server starts instead of after it. The graph is cached as the
   * first query would cache it; a failure is dropped here and that query reads it again. Servers that do not
   * load every project are left alone.
   */
  prefetch(root: string, profile: ServerProfile, timeoutMs: number, signal: AbortSignal): void {
    if (profile.loadAllProjects !== 'tsconfig') return
    this.graphs.read(root, profile, Date.now() + timeoutMs, signal).catch(() => {})
  }

  /** Projects a server has loaded, of those found, once its projects were loaded (for status). */
  projectsOf(server: LanguageServer): { loaded: number; found: number } | undefined {
    const coverages = this.loaded.values(server).flatMap((load) => (load.settled === undefined ? [] : [load.settled]))
    if (coverages.length === 0) return undefined
    const sum = (pick: (coverage: LspSearchCoverage) => number) => coverages.reduce((total, coverage) => total + pick(coverage), 0)
    return { loaded: sum((c) => c.projectsSearched), found: sum((c) => c.projectsFound) }
  }

  /**
   * pyright searches only its program: the files its configuration includes, and the open ones. The files of
   * the root (and of nested folders) that no configuration includes are opened and pinned, within the
   * open-document limit, like TypeScript's files of no project.
   */
  private loadPyrightFiles(
    server: LanguageServer,
    folder: string,
    workspace: LocalWorkspace,
    profile: ServerProfile,
  ): Promise<LspSearchCoverage> {
    return this.pinnedLoad(this.pythonLoads, server, folder, async () => {
      // The server's own root counts every project folder but the other roots it serves, each of which counts one.
      const projects = folder === server.spec.root ? server.projectCount - (server.spec.sharedRoots?.length ?? 0) : 1
      const nested = (server.spec.folders ?? []).filter((each) => isWithin(folder, each))
      const scopes = [folder, ...nested].map((scope) => pyrightScope(scope))
      const sources = await listFiles(folder, { extensions: profileExtensions(profile) }, 20_000)
      const loose = sources.files.filter((file) => !scopes.some((scope) => inScope(scope, file)) && workspace.containment.contains(file))
      const budget = this.pinBudget(server)
      const { opened, failed, skipped } = await openPinned(server, profile, loose.slice(0, budget))
      const missed = Math.max(0, loose.length - budget) + (sources.complete ? 0 : 1) + failed
      return {
        opened,
        coverage: {
          projectsSearched: projects,
          projectsFound: projects,
          ...(missed > 0 ? { filesNotSearched: missed } : {}),
          ...skipped.field(),
          complete: missed === 0 && skipped.total === 0,
        },
      }
    })
  }

  /**
   * gopls makes one view per module it has been shown a file of (no go.work needed), and counts as workspace
   * packages of a view its own module's packages and every package with an open file: another module's package
   * that a view depends on (a `replace` to a sibling folder) is searched for references, implementations and
   * callers only while one of its files is open (gopls internal/cache/load.go isWorkspacePackageLocked). One file
   * of every package under the root — every module's — is opened and pinned, within the open-document limit, so a
   * first answer sees what it sees with every file open.
   */
  private loadGoPackages(
    server: LanguageServer,
    folder: string,
    workspace: LocalWorkspace,
    profile: ServerProfile,
  ): Promise<LspSearchCoverage> {
    return this.pinnedLoad(this.goLoads, server, folder, async () => {
      const sources = await listFiles(folder, { extensions: profileExtensions(profile) }, 20_000)
      const usable = sources.files.filter((file) => workspace.containment.contains(file) && !this.oversized(file))
      const packages = await goPackageFiles(folder, usable)
      const budget = this.pinBudget(server)
      const { opened, failed, skipped } = await openPinned(server, profile, packages.slice(0, budget))
      const missed = Math.max(0, packages.length - budget) + (sources.complete ? 0 : 1) + failed
      return {
        opened,
        coverage: {
          projectsSearched: opened.length,
          projectsFound: packages.length,
          ...(missed > 0 ? { filesNotSearched: missed } : {}),
          ...skipped.field(),
          complete: missed === 0 && skipped.total === 0,
        },
      }
    })
  }

  /**
   * A load that opens and pins files for a server (pyright's files of no configuration, one file of every Go
   * package), kept until files are created or deleted or one of its files is closed; a failed one is forgotten.
   */
  private pinnedLoad(
    loads: PerFolder<PinnedLoad>,
    server: LanguageServer,
    folder: string,
    open: () => Promise<{ opened: string[]; coverage: LspSearchCoverage }>,
  ): Promise<LspSearchCoverage> {
    const previous = loads.get(server, folder)
    if (previous !== undefined && this.stillOpen(server, folder, previous.opened)) return previous.coverage
    this.replan.delete(server, folder)
    const load: PinnedLoad = {
      opened: [],
      settled: false,
      coverage: open().then(({ opened, coverage }) => {
        load.opened = opened
        load.settled = true
        return coverage
      }),
    }
    loads.set(server, folder, load)
    load.coverage.catch(() => loads.get(server, folder) === load && loads.delete(server, folder))
    return load.coverage
  }

  private async openProjects(
    server: LanguageServer,
    folder: string,
    workspace: LocalWorkspace,
    profile: ServerProfile,
    graph: TsProjectGraph,
  ): Promise<{ opened: string[]; coverage: LspSearchCoverage }> {
    const sources = await listFiles(folder, { extensions: profileExtensions(profile) }, 20_000)
    const accept = (file: string) => workspace.containment.contains(file)
    // A project's file that is a symbolic link out of the root is masked before the project loads: the server
    // would otherwise read the outside file through it.
    for (const link of sources.links) server.documents.maskIfEscaped(link, languageIdOf(profile, link))
    // Each project is loaded through one of its files within the size ceiling (the server reads the rest
    // itself); a loose file over a limit is tried, refused before it is read, and counted as skipped.
    // A file refused for its content (binary, a minified line: known only once read) or gone since the walk
    // makes way for the project's next one; a few rounds, since every project usually loads in the first.
    // Such a file is not counted as skipped: the server reads a project's files itself, and searches it.
    const refused = new Set<string>()
    const projectFiles: string[] = []
    for (let round = 0; round < 3; round++) {
      const usable = (file: string) => accept(file) && !refused.has(file) && !this.oversized(file)
      const picks = planProjectLoad(graph, sources.files, 0, usable).projectFiles.filter((file) => !projectFiles.includes(file))
      if (picks.length === 0) break
      const opened = await openPinned(server, profile, picks)
      projectFiles.push(...opened.opened)
      for (const file of opened.notOpened) refused.add(file)
      if (opened.notOpened.length === 0) break
    }
    const plan = planProjectLoad(graph, sources.files, this.pinBudget(server) - projectFiles.length, accept)
    const loose = await openPinned(server, profile, plan.looseFiles)
    const looseMissed = plan.looseNotOpened + (sources.complete ? 0 : 1) + loose.failed
    const projectsSearched = projectFiles.length
    const skipped = new SkippedFiles()
    skipped.addAll(loose.skipped.field().filesSkipped)
    const coverage: LspSearchCoverage = {
      projectsSearched,
      projectsFound: plan.projectsFound,
      ...(looseMissed > 0 ? { filesNotSearched: looseMissed } : {}),
      ...skipped.field(),
      complete: projectsSearched === plan.projectsFound && looseMissed === 0 && skipped.total === 0,
    }
    return { opened: [...projectFiles, ...loose.opened], coverage }
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

/** Per server and folder (a server may serve several workspace roots, RFC 0025): a value, dropped with the server. */
class PerFolder<T> {
  private readonly byServer = new WeakMap<LanguageServer, Map<string, T>>()

  get(server: LanguageServer, folder: string): T | undefined {
    return this.byServer.get(server)?.get(folder)
  }

  set(server: LanguageServer, folder: string, value: T): void {
    let folders = this.byServer.get(server)
    if (folders === undefined) this.byServer.set(server, (folders = new Map()))
    folders.set(folder, value)
  }

  delete(server: LanguageServer, folder: string): void {
    this.byServer.get(server)?.delete(folder)
  }

  values(server: LanguageServer): T[] {
    return [...(this.byServer.get(server)?.values() ?? [])]
  }
}

/** The folder of a server a workspace's projects are loaded from: the workspace's root when the server shares it, else the server's own. */
function loadFolder(server: LanguageServer, workspace: LocalWorkspace): string {
  return server.spec.sharedRoots?.includes(workspace.root) === true ? workspace.root : server.spec.root
}

/**
 * Opens and pins files (at most `max`); one deleted since the walk, or refused (a symlink out of the
 * workspace), is counted as failed; one over a per-file limit (never sent) as skipped, by limit.
 */
async function openPinned(
  server: LanguageServer,
  profile: ServerProfile,
  files: ReadonlyArray<string>,
  max = Infinity,
): Promise<{ opened: string[]; failed: number; skipped: SkippedFiles; notOpened: string[] }> {
  const opened: string[] = []
  const notOpened: string[] = []
  const skipped = new SkippedFiles()
  let failed = 0
  for (const file of files) {
    if (opened.length >= max) break
    try {
      await server.documents.sync(file, languageIdOf(profile, file), { pin: true })
      opened.push(file)
    } catch (error) {
      if (error instanceof LspError && (error.code === 'CANCELLED' || error.code === 'DISPOSED' || error.code === 'SERVER_CRASHED'))
        throw error
      const breach = breachOf(error)
      if (breach === undefined) failed++
      else skipped.add(breach)
      notOpened.push(file)
    }
  }
  return { opened, failed, skipped, notOpened }
}

/** What opening a server's projects covered. */
interface ProjectLoad {
  readonly graph: TsProjectGraph
  /** Files opened and pinned for it (checked before reuse: a closed one means load again). */
  opened: string[]
  readonly coverage: Promise<LspSearchCoverage>
  settled?: LspSearchCoverage
}

/** What opening a pyright server's files outside every configuration (or a gopls server's packages) covered. */
/** Files opened and pinned for a server, and the coverage that gave. */
interface PinnedLoad {
  opened: string[]
  coverage: Promise<LspSearchCoverage>
  /** The coverage is known. */
  settled: boolean
}
