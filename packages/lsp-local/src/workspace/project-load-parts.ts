import { LspError, type LspSearchCoverage } from '@codeseam/lsp'
import { DocumentSymbolRequest } from 'vscode-languageserver-protocol/node'

import { breachOf, SkippedFiles } from '../documents/file-limits.js'
import type { DeferredFiles, PinnedFiles } from '../languages/project-model.js'
import { languageIdOf } from '../profile/files.js'
import type { ServerProfile } from '../profile/profiles.js'
import type { LanguageServer } from '../server/language-server.js'
import type { LocalWorkspace } from './workspace.js'

// The project loader's parts that know nothing of project models: values per server folder, and pinned opens.

/** Per server and folder (a server may serve several workspace roots, RFC 0025): a value, dropped with the server. */
export class PerFolder<T> {
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
export function loadFolder(server: LanguageServer, workspace: LocalWorkspace): string {
  return server.spec.sharedRoots?.includes(workspace.root) === true ? workspace.root : server.spec.root
}

/**
 * Opens and pins files (at most `max`; unpinned when `pin` is false); one deleted since the walk, or refused (a symlink out of the
 * workspace), is counted as failed; one over a per-file limit (never sent) as skipped, by limit.
 */
export async function openPinned(
  server: LanguageServer,
  profile: ServerProfile,
  files: ReadonlyArray<string>,
  max = Infinity,
  onOpened: () => void = () => {},
  /** Awaited before each open (a background load waits while questions are answered). */
  before?: () => Promise<void>,
  /** False: opened unpinned, as a question's own file (the LRU may close it). */
  pin = true,
): Promise<PinnedFiles> {
  const opened: string[] = []
  const notOpened: string[] = []
  const skipped = new SkippedFiles()
  let failed = 0
  for (const file of files) {
    if (opened.length >= max) break
    if (before !== undefined) await before()
    try {
      await server.documents.sync(file, languageIdOf(profile, file), { pin })
      opened.push(file)
      onOpened()
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

/**
 * Asks the outline of each open file, one at a time (see {@link ProjectLoadContext.outlined}); the files not answered
 * (closed since, a timeout, a server error). A cancelled question, a disposed or crashed server fails the load.
 */
export async function outlineEach(
  server: LanguageServer,
  files: ReadonlyArray<string>,
  deadline: number,
  signal?: AbortSignal,
): Promise<string[]> {
  const unanswered: string[] = []
  for (const file of files) {
    const document = server.documents.get(file)
    if (document === undefined || Date.now() >= deadline) {
      unanswered.push(file)
      continue
    }
    const timeoutMs = Math.max(1, deadline - Date.now())
    const options = signal === undefined ? { timeoutMs } : { timeoutMs, signal }
    await server.request(DocumentSymbolRequest.type, { textDocument: { uri: document.uri } }, options).catch((error: unknown) => {
      if (error instanceof LspError && (error.code === 'CANCELLED' || error.code === 'DISPOSED' || error.code === 'SERVER_CRASHED'))
        throw error
      unanswered.push(file)
    })
  }
  return unanswered
}

/** Per server: the questions in flight that pause its background opens (RFC 0035), and the promise of their end. */
export class BackgroundPause {
  private readonly gates = new WeakMap<LanguageServer, { count: number; readonly resumed: Promise<void>; readonly open: () => void }>()

  /** Pauses a server's background opens until the function returned is called (once is enough). */
  pause(server: LanguageServer): () => void {
    let gate = this.gates.get(server)
    if (gate === undefined) {
      let open = () => {}
      const resumed = new Promise<void>((resolve) => (open = resolve))
      this.gates.set(server, (gate = { count: 0, resumed, open }))
    }
    const held = gate
    held.count++
    let done = false
    return () => {
      if (done) return
      done = true
      if (--held.count > 0) return
      if (this.gates.get(server) === held) this.gates.delete(server)
      held.open()
    }
  }

  /** Resolves once no question pauses a server's background opens. */
  async unpaused(server: LanguageServer): Promise<void> {
    for (let gate = this.gates.get(server); gate !== undefined; gate = this.gates.get(server)) await gate.resumed
  }
}

/** What a model's load opened and covered, per server folder. */
export interface Load {
  /** Files opened and pinned for it (checked before reuse: a closed one means load again). */
  opened: string[]
  readonly coverage: Promise<LspSearchCoverage>
  /** The coverage, once known. */
  settled?: LspSearchCoverage
  /** What the model planned it from. */
  basis?: unknown
  /** Files it left for the questions that need them (opened and dropped from here as they are). */
  deferred?: DeferredFiles | undefined
  /** Its model counts projects (for status). */
  readonly counts: boolean
  /** What it has loaded so far (status while it runs). */
  readonly progress: LoadProgress
}

/** A load's figures as it runs, and when they were last announced. */
export interface LoadProgress {
  projectsFound?: number
  projectsLoaded: number
  filesOpened: number
  toldAt: number
}

/** Loading figures are announced at most this often while files open (a person reads them; each is a notification). */
export const progressEveryMs = 250

/** Servers whose model's loads open what they search (ProjectModel.loadsOnOpen): see {@link answersOnceLoaded}. */
export const loadsOnOpen = new WeakSet<LanguageServer>()

/**
 * Whether a server's workspace-wide answer after a project load covers what the load opened at the first ask (the
 * TypeScript servers load a project as one of its files opens): its first such answer needs no second ask to confirm.
 */
export function answersOnceLoaded(server: LanguageServer): boolean {
  return loadsOnOpen.has(server)
}
