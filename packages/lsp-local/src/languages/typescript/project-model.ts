import type { LspSearchCoverage } from '@codeseam/lsp'

import { SkippedFiles } from '../../documents/file-limits.js'
import type { ProjectLoadContext, ProjectLoadResult, ProjectModel } from '../project-model.js'

import { TsGraphCache } from './graph-cache.js'
import { planProjectLoad, type TsProjectGraph } from './projects.js'

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
    current: (folder, profile, basis) => basis !== undefined && graphs.settled(folder, profile) === basis,
    configWatch: (folder, profile) => ({
      // A project config (or the target of an `extends`) created, changed or deleted: read the graph again.
      isConfig: (path: string) => graphs.isConfig(folder, profile, path),
      onConfigChange: () => graphs.forget(folder, profile),
    }),
    prefetch(folder, profile, timeoutMs, signal) {
      graphs.read(folder, profile, Date.now() + timeoutMs, signal).catch(() => {})
    },
    async load(context) {
      const graph = await graphs.read(context.folder, context.profile, context.deadline, context.signal)
      return { ...(await openProjects(context, graph)), basis: graph }
    },
  }
}

async function openProjects(context: ProjectLoadContext, graph: TsProjectGraph): Promise<ProjectLoadResult> {
  const sources = await context.sources()
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
  const plan = planProjectLoad(graph, sources.files, context.pinBudget - projectFiles.length, accept)
  const loose = await context.open(plan.looseFiles)
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
