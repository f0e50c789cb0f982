import type { ProjectModel } from '../project-model.js'

import { inScope, pyrightScope } from './projects.js'

/**
 * pyright's project model: it searches only its program, the files its configuration includes and the open ones.
 * The files of the folder (and of its nested configurations) that no configuration includes are opened and pinned,
 * within the pin budget, like TypeScript's files of no project.
 */
export function pyrightProjectModel(): ProjectModel {
  return {
    async load(context) {
      const scopes = [context.folder, ...context.nestedFolders].map((scope) => pyrightScope(scope))
      const sources = await context.sources()
      const loose = sources.files.filter((file) => !scopes.some((scope) => inScope(scope, file)) && context.contains(file))
      const { opened, failed, skipped } = await context.open(loose.slice(0, context.pinBudget))
      const missed = Math.max(0, loose.length - context.pinBudget) + (sources.complete ? 0 : 1) + failed
      return {
        opened,
        coverage: {
          projectsSearched: context.projectCount,
          projectsFound: context.projectCount,
          ...(missed > 0 ? { filesNotSearched: missed } : {}),
          ...skipped.field(),
          complete: missed === 0 && skipped.total === 0,
        },
      }
    },
  }
}
