import type { ProjectModel } from '../project-model.js'

import { goPackageFiles } from './packages.js'

/**
 * gopls's project model: it makes one view per module it has been shown a file of (no go.work needed), and counts
 * as workspace packages of a view its own module's packages and every package with an open file: another module's
 * package that a view depends on (a `replace` to a sibling folder) is searched for references, implementations and
 * callers only while one of its files is open (gopls internal/cache/load.go isWorkspacePackageLocked). One file of
 * every package under the folder — every module's — is opened and pinned, within the pin budget, so a first answer
 * sees what it sees with every file open.
 */
export function goPackagesProjectModel(): ProjectModel {
  return {
    async load(context) {
      const sources = await context.sources()
      const usable = sources.files.filter((file) => context.contains(file) && !context.oversized(file))
      const packages = await goPackageFiles(context.folder, usable)
      const { opened, failed, skipped } = await context.open(packages.slice(0, context.pinBudget))
      const missed = Math.max(0, packages.length - context.pinBudget) + (sources.complete ? 0 : 1) + failed
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
    },
  }
}
