import { stat } from 'node:fs/promises'

import type { LspSearchCoverage } from '@codeseam/lsp'

import { SkippedFiles } from '../../documents/file-limits.js'
import { statKeyOf } from '../../documents/stat-key.js'
import type { DeferredFiles, ProjectLoadContext, ProjectLoadResult, ProjectModel } from '../project-model.js'

import { TsGraphCache } from './graph-cache.js'
import { planProjectLoad, type TsProjectGraph } from './projects.js'
import { workspacePackages, type WorkspacePackage } from './packages.js'
import { looseReach, prescan, reachingTarget } from './reach.js'

/** The folder's source files, as the load context walks them. */
type SourceWalk = Awaited<ReturnType<ProjectLoadContext['sources']>>

/**
 * The TypeScript servers' project model: they search only the projects they have loaded. One file of each project of
 * the folder's graph (configs, references, sibling `tsconfig.*.json`; cached until one of its config files changes)
 * is opened and pinned, and so are the source files of no project (inferred projects), within the pin budget
 * (docs/lsp-local.md, "The project model").
 */
export function typeScriptProjectModel(): ProjectModel & { readonly graphs: TsGraphCache } {
  const graphs = new TsGraphCache()
  return {
    graphs,
    countsProjects: true,
    loadsOnOpen: true,
    current: (folder, profile, basis) => basis !== undefined && graphs.settled(folder, profile) === basis,
    configWatch: (folder, profile) => ({
      // A project config (or the target of an `extends`) created, changed or deleted: read the graph again.
      isConfig: (path: string) => graphs.isConfig(folder, profile, path),
      onConfigChange: () => graphs.forget(folder, profile),
    }),
    prefetch(folder, profile, timeoutMs, signal) {
      graphs.read(folder, profile, Date.now() + timeoutMs, signal).catch(() => {})
    },
    // The folder's walks and reads run beside the graph's child process (on the critical path of a first question).
    async load(context) {
      const [graph, sources] = await Promise.all([
        graphs.read(context.folder, context.profile, context.deadline, context.signal),
        context.sources(),
      ])
      return { ...(await openProjects(context, graph, sources)), basis: graph }
    },
    // Beside the graph's child: the workspace's package.json files and the sources' text (what reaches the target is
    // read from both), and the target itself opens, so the server loads its project instead of waiting idle.
    async loadNeeded(context, target) {
      const packages = workspacePackages(context.folder)
      packages.catch(() => {})
      const graph = graphs.read(context.folder, context.profile, context.deadline, context.signal)
      graph.catch(() => {})
      const sources = await context.sources()
      for (const link of sources.links) context.maskIfEscaped(link)
      const scanned = prescan(sources.files.filter((file) => context.contains(file)))
      await openEarly(context, sources, target)
      // At a position: what declares what it names (RFC 0035, amended), asked while the graph is read.
      const declaring = context.declaredIn?.()
      declaring?.catch(() => {})
      await Promise.all([graph, scanned])
      // What reaches the question's file opens at once: it reaches what the file uses too (the declaring file's reach
      // holds it), so nothing opened here is wasted when the declaration is elsewhere.
      const first = await openNeeded(context, await graph, sources, target, packages)
      if (first === undefined || declaring === undefined) return first
      const declared = await declaring
      const reached = declared === undefined ? [] : [...new Set(declared.length === 0 ? [target] : declared)]
      if (reached.length === 1 && reached[0] === target) return first
      // Could not tell, or declared in several files (merged declarations): load everything.
      if (reached.length !== 1) return undefined
      return openNeeded(context, await graph, sources, reached[0]!, packages)
    },
  }
}

/**
 * Opens the question's file (as the question would, unpinned) once the links out of the root are masked: the server
 * loads its project while the graph is read. One the question could not open either is left to it.
 */
async function openEarly(context: ProjectLoadContext, sources: SourceWalk, target: string): Promise<void> {
  if (!sources.files.includes(target) || !context.contains(target) || context.oversized(target)) return
  await context.open([target], 1, { pin: false })
}

/**
 * Opens the projects and loose files that can reach `target` (RFC 0035); undefined when that is every one, or when a
 * needed file cannot be opened or they exceed the pin budget (everything loads then).
 */
async function openNeeded(
  context: ProjectLoadContext,
  graph: TsProjectGraph,
  sources: SourceWalk,
  target: string,
  packages: Promise<ReadonlyMap<string, WorkspacePackage>>,
): Promise<ProjectLoadResult | undefined> {
  if (!sources.complete) return undefined
  const accept = (file: string) => context.contains(file)
  const reaching = await reachingTarget(graph, sources.files, context.folder, target, accept, packages)
  if (reaching === undefined) return undefined
  const all = planProjectLoad(graph, sources.files, Infinity, accept)
  const usable = (file: string) => accept(file) && !context.oversized(file)
  const plan = planProjectLoad(graph, sources.files, 0, usable, reaching.configs)
  const needed = planProjectLoad(graph, sources.files, 0, accept, reaching.configs).projectsFound
  const loose = reaching.looseFiles.filter((file) => !context.oversized(file))
  // Everything reaches it, or a needed file cannot be opened (a project then loads through another): load it all.
  // When most projects reach it, the others still wait: files of no project (configs, scripts: an inferred project
  // each server searches too) and the few projects left cost the first answer time and hold none of it.
  const everything = needed === all.projectsFound && reaching.looseFiles.length === all.looseFiles.length
  if (everything || plan.projectFiles.length < needed || loose.length > context.pinBudget - needed) return undefined
  const projects = await context.open(plan.projectFiles, undefined, { projects: true })
  const files = await context.open(loose)
  const missed = projects.notOpened.length + files.notOpened.length
  const coverage: LspSearchCoverage = {
    projectsSearched: projects.opened.length,
    projectsFound: all.projectsFound,
    ...(files.notOpened.length > 0 ? { filesNotSearched: files.notOpened.length } : {}),
    searched: { kind: 'projectsReachingTarget', projects: needed },
    complete: missed === 0,
  }
  return { opened: [...projects.opened, ...files.opened], coverage, basis: graph }
}

async function openProjects(context: ProjectLoadContext, graph: TsProjectGraph, sources: SourceWalk): Promise<ProjectLoadResult> {
  const accept = (file: string) => context.contains(file)
  // A project's file that is a symbolic link out of the root is masked before the project loads: the server
  // would otherwise read the outside file through it.
  for (const link of sources.links) context.maskIfEscaped(link)
  // Each project is loaded through one of its files within the size ceiling (the server reads the rest
  // itself); a loose file over a limit is tried, refused before it is read, and counted as skipped.
  // A file refused for its content (binary, a minified line: known only once read) or gone since the walk
  // makes way for the project's next one; a few rounds, since every project usually loads in the first.
  // Such a file is not counted as skipped: the server reads a project's files itself, and searches it.
  const refused = new Set<string>()
  const projectFiles: string[] = []
  context.found(planProjectLoad(graph, sources.files, 0, accept).projectsFound)
  for (let round = 0; round < 3; round++) {
    const usable = (file: string) => accept(file) && !refused.has(file) && !context.oversized(file)
    const picks = planProjectLoad(graph, sources.files, 0, usable).projectFiles.filter((file) => !projectFiles.includes(file))
    if (picks.length === 0) break
    const opened = await context.open(picks, undefined, { projects: true })
    projectFiles.push(...opened.opened)
    for (const file of opened.notOpened) refused.add(file)
    if (opened.notOpened.length === 0) break
  }
  // In the background, the files of no project are left to the questions that need them (one inferred project with
  // all they import: hundreds of MB on this repository's configs and scripts, and every search slower), every one of
  // them: a question opens those it needs within the pin budget then.
  const defer = context.background && sources.complete
  const plan = planProjectLoad(graph, sources.files, defer ? Infinity : context.pinBudget - projectFiles.length, accept)
  const deferred = defer ? await deferLoose(context, graph, sources, plan.looseFiles) : undefined
  const loose = await context.open(deferred === undefined ? plan.looseFiles : [])
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
  return { opened: [...projectFiles, ...loose.opened], coverage, ...(deferred === undefined ? {} : { deferred }) }
}

/**
 * The files of no project a background load leaves (RFC 0035, amended): each later question opens those that reach the
 * projects of its file or of what declares what it names. What each reaches is read again when one of them changed on
 * disk (a plain write that adds an import): one stat of each per question.
 */
async function deferLoose(
  context: ProjectLoadContext,
  graph: TsProjectGraph,
  sources: SourceWalk,
  files: ReadonlyArray<string>,
): Promise<DeferredFiles | undefined> {
  if (files.length === 0) return undefined
  const accept = (file: string) => context.contains(file)
  // Every file it left, even one opened since: one that others import can lead them to another project.
  const signature = async () => (await Promise.all(files.map((file) => stat(file).then(statKeyOf, () => '')))).join('\0')
  let read = { at: await signature(), reach: await looseReach(graph, sources.files, context.folder, files, accept) }
  const projectsOf = new Map<string, string[]>()
  for (const project of graph.projects)
    for (const file of project.files) projectsOf.set(file, [...(projectsOf.get(file) ?? []), project.config])
  return {
    files,
    async reach(among) {
      const at = await signature()
      if (at !== read.at) read = { at, reach: await looseReach(graph, sources.files, context.folder, files, accept) }
      const { reach } = read
      return {
        any: among.some((file) => (reach.get(file)?.size ?? 0) > 0),
        needed(targets) {
          if (targets.some((target) => !projectsOf.has(target))) return undefined
          const configs = targets.flatMap((target) => projectsOf.get(target) ?? [])
          return among.filter((file) => configs.some((config) => reach.get(file)?.has(config) === true))
        },
      }
    },
  }
}
