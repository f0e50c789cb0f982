import {
  type LspDiagnosticsCoverage,
  type LspFileDiagnostics,
  type LspProviderRequest,
  type LspQueryRequest,
  type LspQueryResult,
} from '@codeseam/lsp'

import type { ServerSlot } from '../pool/slot.js'
import { fileDiagnostics } from './diagnostics-query.js'
import { diskMeta, takeInDisk } from './disk-changes.js'
import type { CatchUp } from '../workspace/disk-sync.js'
import { acquire, type Serving } from './serving.js'
import { scopeOf } from './location-scope.js'
import { Translator } from './translate.js'
import { breachOf, SkippedFiles } from '../documents/file-limits.js'
import { languageIdOf } from '../profile/files.js'
import type { LocalWorkspace } from '../workspace/workspace.js'

/** How many of the files a bounded answer left out it names. */
const notAnalysedShown = 10

/** Bounded activation: opens up to `maxFiles` eligible files, fairly across languages, and reports coverage. */
export async function workspaceDiagnostics(
  serving: Serving,
  workspace: LocalWorkspace,
  request: LspProviderRequest<Extract<LspQueryRequest, { operation: 'diagnostics' }>>,
  deadline: number,
  signal: AbortSignal,
): Promise<LspQueryResult> {
  const maxFiles = request.maxFiles ?? serving.host.config.workspaceDiagnosticsMaxFiles
  const eligible = await serving.host.eligibleFiles(workspace, serving.profile)
  const chosen = fairSelection(eligible.files, (path) => languageIdOf(serving.profile, path), maxFiles)
  const waitDeadline = Math.min(deadline, Date.now() + (request.waitMs ?? serving.host.config.diagnosticsWaitMs))
  // The other open roots of the request's workspace: a server that shares them is the one asked (RFC 0025).
  const group = await serving.host.sharingGroup(workspace, request.workspaceRoots, serving.profile)
  const translator = new Translator(scopeOf([workspace, ...group].map((w) => w.containment)))
  const files: LspFileDiagnostics[] = []
  const analysed: string[] = []
  let warmAll = true
  // Files over a per-file limit are never sent: skipped and counted, not a failure of the whole answer.
  const skipped = new SkippedFiles()
  const caught: CatchUp[] = []
  const bySlot = new Map<ServerSlot, string[]>()
  for (const path of chosen) {
    const slot = serving.host.slotFor(workspace, serving.profile, path, group)
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), path])
  }
  for (const [slot, paths] of bySlot) {
    const acquired = await acquire(slot, deadline, signal)
    const { server, release, warm } = acquired
    deadline = acquired.deadline
    try {
      warmAll &&= warm
      caught.push(await takeInDisk(serving, workspace, server, deadline, signal))
      const documents = []
      for (const path of paths) {
        try {
          documents.push(await server.documents.sync(path, languageIdOf(serving.profile, path)))
        } catch (error) {
          const breach = breachOf(error)
          if (breach === undefined) throw error
          skipped.add(breach)
        }
      }
      const results = await Promise.all(
        documents.map((document) =>
          fileDiagnostics(server, document, translator, {
            deadline: waitDeadline,
            quietMs: serving.host.config.diagnosticsQuietMs,
            timeoutMs: Math.max(1, deadline - Date.now()),
            signal,
            answersWhenAnalysed: serving.profile.answersWhenAnalysed === true,
          }),
        ),
      )
      for (const result of results) {
        files.push(result)
        if (result.freshness === 'current') analysed.push(result.path)
      }
    } finally {
      release()
    }
  }
  const analysedSet = new Set(analysed)
  const left = eligible.files.filter((path) => !analysedSet.has(path)).slice(0, notAnalysedShown)
  const coverage: LspDiagnosticsCoverage = {
    analysed,
    eligible: eligible.files.length,
    ...skipped.field(),
    ...(left.length === 0 ? {} : { notAnalysed: left }),
    complete: eligible.complete && analysed.length === eligible.files.length,
  }
  return {
    kind: 'diagnostics',
    files: files.filter((f) => f.diagnostics.length > 0 || f.freshness !== 'current'),
    coverage,
    meta: {
      providerId: serving.id,
      status: 'ready',
      warm: warmAll,
      // The server answered every file it was given: what was not given is in the coverage, not a cut answer.
      truncated: false,
      elapsedMs: 0,
      ...(translator.dropped > 0 ? { droppedOutsideWorkspace: translator.dropped } : {}),
      ...diskMeta(caught, 0),
    },
  }
}

/** Round-robin across language ids so one language cannot use up the whole budget. */
export function fairSelection(files: ReadonlyArray<string>, languageOf: (path: string) => string, max: number): string[] {
  const groups = new Map<string, string[]>()
  for (const file of files) {
    const language = languageOf(file)
    groups.set(language, [...(groups.get(language) ?? []), file])
  }
  const queues = [...groups.values()]
  const chosen: string[] = []
  while (chosen.length < max && queues.some((q) => q.length > 0)) {
    for (const queue of queues) {
      const next = queue.shift()
      if (next !== undefined && chosen.length < max) chosen.push(next)
    }
  }
  return chosen
}
