import { LspError } from '@codeseam/lsp'

import { breachOf, SkippedFiles } from '../documents/file-limits.js'
import type { PinnedFiles } from '../languages/project-model.js'
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
 * Opens and pins files (at most `max`); one deleted since the walk, or refused (a symlink out of the
 * workspace), is counted as failed; one over a per-file limit (never sent) as skipped, by limit.
 */
export async function openPinned(
  server: LanguageServer,
  profile: ServerProfile,
  files: ReadonlyArray<string>,
  max = Infinity,
  onOpened: () => void = () => {},
): Promise<PinnedFiles> {
  const opened: string[] = []
  const notOpened: string[] = []
  const skipped = new SkippedFiles()
  let failed = 0
  for (const file of files) {
    if (opened.length >= max) break
    try {
      await server.documents.sync(file, languageIdOf(profile, file), { pin: true })
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
