import type { Disposer, LspService } from '@codeseam/lsp'
import * as vscode from 'vscode'

import { fileWorkspaceFolders } from './folders.js'
import { createVsCodeProvider, type VsCodeProvider, type VsCodeProviderOptions } from './provider.js'
import { createVsCodeWorkspace } from './workspace.js'

/** Options for {@link registerVsCode}. */
export interface RegisterVsCodeOptions extends VsCodeProviderOptions {}

/** What {@link registerVsCode} registered; `dispose` releases all of it. */
export interface VsCodeRegistration {
  readonly provider: VsCodeProvider
  /** Workspace ids by root, as currently registered. */
  workspaces(): ReadonlyArray<{ readonly id: string; readonly root: string }>
  /** Resolves once the workspaces match VS Code's folders (after a folder change, for instance). */
  synced(): Promise<void>
  dispose(): Promise<void>
}

/**
 * Registers the VS Code provider and one workspace per file-system folder of the window into `lsp`, and
 * keeps the workspaces in step with folders added or removed. Folder names that repeat get `-2`, `-3`…
 */
export function registerVsCode(lsp: LspService, options: RegisterVsCodeOptions = {}): VsCodeRegistration {
  const provider = createVsCodeProvider(options)
  const releaseProvider = lsp.registerProvider(provider)
  const opened = new Map<string, { id: string; release: Disposer }>()

  const sync = async () => {
    const folders = fileWorkspaceFolders()
    const wanted = new Set(folders.map((f) => f.root))
    for (const [root, entry] of opened) {
      if (!wanted.has(root)) {
        opened.delete(root)
        await entry.release()
      }
    }
    for (const folder of folders) {
      if (opened.has(folder.root)) continue
      const taken = new Set([...opened.values()].map((e) => e.id))
      let id = folder.name
      for (let n = 2; taken.has(id); n++) id = `${folder.name}-${n}`
      const workspace = createVsCodeWorkspace({
        root: folder.root,
        id,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      })
      opened.set(folder.root, { id, release: lsp.registerWorkspace(workspace) })
    }
  }
  let pending: Promise<void> = sync()
  const subscription = vscode.workspace.onDidChangeWorkspaceFolders(() => {
    pending = pending.then(sync, sync)
  })

  return {
    provider,
    workspaces: () => [...opened].map(([root, entry]) => ({ id: entry.id, root })),
    synced: () => pending,
    async dispose() {
      subscription.dispose()
      await pending.catch(() => undefined)
      for (const entry of opened.values()) await entry.release()
      opened.clear()
      await releaseProvider()
    },
  }
}
