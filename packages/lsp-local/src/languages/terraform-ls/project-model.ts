import * as nodePath from 'node:path'

import type { ProjectModel } from '../project-model.js'
import { calleesFirst, moduleCallsOf } from './module-calls.js'

/** The `.tf` files of every folder that holds some (a Terraform module is a folder), each folder's in path order. */
export function terraformModuleFolders(files: ReadonlyArray<string>): Map<string, string[]> {
  const byFolder = new Map<string, string[]>()
  for (const file of [...files].sort()) {
    if (!file.endsWith('.tf')) continue
    const folder = nodePath.dirname(file)
    const held = byFolder.get(folder)
    if (held === undefined) byFolder.set(folder, [file])
    else held.push(file)
  }
  return byFolder
}

/**
 * One `.tf` file of every module folder, each folder after every folder it calls as a local module (see
 * module-calls.ts: terraform-ls reads a called module's variables from nothing when it is opened after its callers).
 */
export async function terraformModuleFiles(files: ReadonlyArray<string>, deadline = Infinity): Promise<string[]> {
  const folders = terraformModuleFolders(files)
  const calls = await moduleCallsOf(folders, deadline)
  return calleesFirst([...folders.keys()], calls).map((folder) => folders.get(folder)?.[0] ?? folder)
}

/**
 * terraform-ls's project model: its walker finds every module folder at start, but decodes a module's references
 * only once one of its files is open (v0.39), so the references of a variable from the modules that call it (an
 * `examples/complete` calling `../../`) are found only while a file of each caller is open. One `.tf` file of every
 * folder is opened and pinned, within the pin budget, called modules before their callers, and waited on, so a first
 * answer sees what it sees with every file open.
 */
export function terraformModulesProjectModel(): ProjectModel {
  return {
    // A definition or hover in a module that calls another (`module "x" { source = "../../" }`) is answered from the
    // called module's decoded variables, in a folder of its own the server does not wait on.
    loadsBefore: ['definition', 'declaration', 'hover'],
    async load(context) {
      const sources = await context.sources()
      const usable = sources.files.filter((file) => context.contains(file) && !context.oversized(file))
      const modules = await terraformModuleFiles(usable, context.deadline)
      const { opened, failed, skipped } = await context.open(modules.slice(0, context.pinBudget))
      // terraform-ls says nothing when a folder's jobs are done, and holds a request on a file until those of its
      // folder are (and the jobs they spawned): a question about a called module waits only on that module's, while
      // the callers' uses of it are decoded in theirs. One outline of each folder opened, and every one was decoded.
      const unanswered = (await context.outlined(opened)).length
      const missed = Math.max(0, modules.length - context.pinBudget) + (sources.complete ? 0 : 1) + failed + unanswered
      return {
        opened,
        coverage: {
          projectsSearched: opened.length,
          projectsFound: modules.length,
          ...(missed > 0 ? { filesNotSearched: missed } : {}),
          ...skipped.field(),
          complete: missed === 0 && skipped.total === 0,
        },
      }
    },
  }
}
