import { projectModel, sourceFilesOf } from '../../packages/lsp-local/test/oracle/index.js'

/**
 * One file per TypeScript project under `root` (the oracle's project model: the first source file, in path order,
 * of each project), absolute paths. Opening these primes a bare server with every project, as codeseam loads them
 * for a complete workspace-wide answer.
 */
export function onePerProject(root: string): string[] {
  const model = projectModel(root, 'typescript')
  const picked = new Map<string, string>()
  for (const file of sourceFilesOf(root, 'typescript').sort()) {
    const relative = file.slice(root.length + 1)
    for (const project of model.projectsOf(relative)) if (!picked.has(project)) picked.set(project, file)
  }
  return [...new Set(picked.values())]
}
