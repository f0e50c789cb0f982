import * as nodePath from 'node:path'

import { isWithin, LspError, type LspQueryResult, type LspSearchCoverage, type LspWorkspaceSymbol } from '@codeseam/lsp'
import { WorkspaceSymbolRequest } from 'vscode-languageserver-protocol/node'

import { supportsPullDiagnostics } from '../server/capabilities.js'
import { SkippedFiles } from '../documents/file-limits.js'
import type { LocalWorkspace } from '../workspace/workspace.js'
import { fileDiagnostics } from './diagnostics-query.js'
import { diskMeta, goneFiles, takeInDisk, withoutGone } from './disk-changes.js'
import type { CatchUp } from '../workspace/disk-sync.js'
import { acquire, foldersCoverage, requireOperation, type Acquired, type Serving } from './serving.js'
import { scopeOf } from './location-scope.js'
import { Translator } from './translate.js'

/**
 * Workspace symbols from every server the root needs. Each server, once acquired, stays in use until the
 * whole answer is assembled (so the query's own later servers can never reclaim it); a server that cannot
 * start because every slot under limits.maxServers is busy is named in the coverage, not waited for.
 */
export async function workspaceSymbols(
  serving: Serving,
  workspace: LocalWorkspace,
  query: string,
  deadline: number,
  signal: AbortSignal,
  workspaceRoots?: ReadonlyArray<string>,
): Promise<LspQueryResult> {
  // A server shared with the workspace's other roots answers for all of them (RFC 0025): this root's answer keeps
  // its own symbols (the others are each root's own answer), without counting theirs as left out.
  const group = await serving.host.sharingGroup(workspace, workspaceRoots, serving.profile)
  const translator = new Translator(scopeOf([workspace, ...group].map((w) => w.containment)))
  // A profile with no files of its languages under the root has nothing to say: start no server for it.
  const slots = (await serving.host.hasEligibleFiles(workspace, serving.profile))
    ? await serving.host.slotsFor(workspace, serving.profile, group)
    : []
  const symbols: Extract<LspQueryResult, { kind: 'workspaceSymbols' }>['symbols'][number][] = []
  const seen = new Set<string>()
  const releases: Array<() => void> = []
  const rootsNotSearched: string[] = []
  let projectsSearched = 0
  let projectsFound = 0
  let filesNotSearched = 0
  const skipped = new SkippedFiles()
  let complete = true
  let warmAll = true
  let indexing = false
  const caught: CatchUp[] = []
  try {
    for (const slot of slots) {
      let acquired: Acquired
      try {
        acquired = await acquire(slot, deadline, signal)
      } catch (error) {
        if (
          error instanceof LspError &&
          error.code === 'UNAVAILABLE' &&
          (error.data as { maxServers?: number } | undefined)?.maxServers !== undefined
        ) {
          rootsNotSearched.push(nodePath.relative(workspace.root, slot.root) || '.')
          projectsFound++
          complete = false
          continue
        }
        throw error
      }
      const { server, release, warm } = acquired
      deadline = acquired.deadline
      releases.push(release)
      requireOperation(serving, server, 'workspaceSymbols')
      caught.push(await takeInDisk(serving, workspace, server, deadline, signal))
      const coverage = (await serving.host.loadProjects(server, workspace, serving.profile, deadline, signal)) ??
        foldersCoverage(serving, server) ?? { projectsSearched: 1, projectsFound: 1, complete: true }
      projectsSearched += coverage.projectsSearched
      projectsFound += coverage.projectsFound
      filesNotSearched += coverage.filesNotSearched ?? 0
      skipped.addAll(coverage.filesSkipped)
      complete &&= coverage.complete
      // Some servers answer workspace symbols only once a document is open.
      if (server.documents.openDocuments.length === 0) await serving.host.openAnyFile(server, workspace, serving.profile)
      let found = ownSymbols(
        translator,
        workspace,
        await server.request(WorkspaceSymbolRequest.type, { query }, { timeoutMs: Math.max(1, deadline - Date.now()), signal }),
      )
      if (found.length === 0) {
        // Still indexing, or open documents not analysed yet: wait for that, ask once more. A push server
        // publishes diagnostics once it has analysed a document; a pull server answers a diagnostics pull only
        // then (pyright skips a workspace in workspace symbols until it is initialized, ~1.5 s after start).
        if (server.activeProgress.size > 0) await server.waitForQuiet(deadline, signal)
        else {
          const until = Math.min(deadline, Date.now() + 10_000)
          const open = server.documents.openDocuments
          const probe = supportsPullDiagnostics(server.capabilities, server.registrations) ? open.slice(0, 1) : open
          await Promise.all(
            probe.map((d) =>
              fileDiagnostics(server, d, new Translator(workspace.containment), {
                deadline: until,
                quietMs: 0,
                timeoutMs: Math.max(1, until - Date.now()),
                signal,
              }).catch((error: unknown) => {
                if (error instanceof LspError && (error.code === 'CANCELLED' || error.code === 'SERVER_CRASHED')) throw error
              }),
            ),
          )
        }
        found = ownSymbols(
          translator,
          workspace,
          await server.request(WorkspaceSymbolRequest.type, { query }, { timeoutMs: Math.max(1, deadline - Date.now()), signal }),
        )
      }
      // A symbol seen through two workspace folders of one server (or two servers) is one symbol.
      for (const symbol of found) {
        const key = `${symbol.location.path}\0${symbol.location.range.start.line}:${symbol.location.range.start.character}-${symbol.location.range.end.line}:${symbol.location.range.end.character}\0${symbol.name}\0${symbol.kind}`
        if (seen.has(key)) continue
        seen.add(key)
        symbols.push(symbol)
      }
      warmAll &&= warm
      indexing ||= server.activeProgress.size > 0
      server.warm = true
    }
  } finally {
    for (const release of releases) release()
  }
  const coverage: LspSearchCoverage | undefined =
    slots.length === 0
      ? undefined
      : {
          projectsSearched,
          projectsFound,
          ...(filesNotSearched > 0 ? { filesNotSearched } : {}),
          ...(rootsNotSearched.length > 0 ? { rootsNotSearched } : {}),
          ...skipped.field(),
          complete: complete && filesNotSearched === 0,
        }
  const answer: LspQueryResult = {
    kind: 'workspaceSymbols',
    symbols,
    meta: {
      providerId: serving.id,
      status: indexing ? 'indexing' : 'ready',
      warm: warmAll,
      truncated: false,
      elapsedMs: 0,
      ...(coverage === undefined ? {} : { coverage }),
      ...(translator.dropped > 0 ? { droppedOutsideWorkspace: translator.dropped } : {}),
    },
  }
  // A symbol in a file gone from the disk since the server last looked is left out and counted (file-query.ts
  // asks again first; symbol search is not worth a second round over every server).
  const { result: kept, dropped } = withoutGone(answer, goneFiles(answer))
  return { ...kept, meta: { ...kept.meta, ...diskMeta(caught, dropped) } }
}

/** The symbols of a server's answer that lie in this workspace's root (a shared server answers for every root it serves). */
function ownSymbols(
  translator: Translator,
  workspace: LocalWorkspace,
  answer: Parameters<Translator['workspaceSymbols']>[0],
): LspWorkspaceSymbol[] {
  return translator.workspaceSymbols(answer).filter((symbol) => isWithin(workspace.root, symbol.location.path))
}
