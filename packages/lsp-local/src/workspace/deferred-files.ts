import type { LspSearchCoverage } from '@codeseam/lsp'

import type { DeclaredIn, ProjectLoadContext } from '../languages/project-model.js'
import type { Load } from './project-load-parts.js'

/**
 * A settled load that left files for the questions that need them (RFC 0035, amended: TypeScript's files of no
 * project): opens and pins those this question needs — the ones that can reach the question's file or what declares
 * what its position names; every one for a question with no file (workspace symbols) or when that cannot be told —
 * and says what the answer then covers. The load keeps what was opened; the rest stays left.
 */
export async function openDeferred(
  load: Load,
  settled: LspSearchCoverage,
  context: ProjectLoadContext,
  target: string | undefined,
  declaredIn: DeclaredIn | undefined,
): Promise<LspSearchCoverage> {
  const deferred = load.deferred
  if (deferred === undefined) return settled
  const wanted = target === undefined ? undefined : await neededBy(deferred, target, declaredIn)
  const files = wanted ?? deferred.files
  // Within the pin budget (what the load opened holds its share): the rest stays left, and is said not searched.
  const fitting = files.slice(0, Math.max(0, context.pinBudget - load.opened.length))
  const opened = fitting.length === 0 ? undefined : await context.open(fitting)
  const taken = new Set([...(opened?.opened ?? []), ...(opened?.notOpened ?? [])])
  if (opened !== undefined) load.opened = [...load.opened, ...opened.opened]
  const left = deferred.files.filter((file) => !taken.has(file))
  load.deferred = left.length === 0 ? undefined : { ...deferred, files: left }
  const missed = (opened?.notOpened.length ?? 0) + files.length - fitting.length
  return {
    ...settled,
    // Files left that cannot reach what was asked about: every project was searched, and what can reach it.
    ...(left.length > 0 ? { searched: { kind: 'projectsReachingTarget', projects: settled.projectsSearched } } : {}),
    ...(missed > 0 ? { filesNotSearched: (settled.filesNotSearched ?? 0) + missed } : {}),
    complete: settled.complete && missed === 0,
  }
}

/** The left files a question about `target` needs; undefined: every one (it cannot be told). */
async function neededBy(
  deferred: NonNullable<Load['deferred']>,
  target: string,
  declaredIn: DeclaredIn | undefined,
): Promise<ReadonlyArray<string> | undefined> {
  const reach = await deferred.reach(deferred.files)
  if (!reach.any) return reach.needed([target])
  // What the position names may be declared where the question's file cannot reach (the server's definition says).
  const declared = declaredIn === undefined ? [] : await declaredIn()
  if (declared === undefined) return undefined
  return reach.needed([...new Set([target, ...declared])])
}
