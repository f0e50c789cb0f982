import { LspError, normalizeRoot } from '@codeseam/lsp'

import type { LocalWorkspace } from './workspace.js'

/** The open workspaces of a host, by canonical root and by every root they were opened as (aliases). */
export class WorkspaceRegistry {
  private readonly byRoot = new Map<string, LocalWorkspace>()
  private readonly aliases = new Map<string, LocalWorkspace>()

  /** The open workspace at a canonical root. */
  get(root: string): LocalWorkspace | undefined {
    return this.byRoot.get(root)
  }

  add(workspace: LocalWorkspace, givenRoot: string): void {
    this.byRoot.set(workspace.root, workspace)
    this.aliases.set(normalizeRoot(givenRoot), workspace)
  }

  /** The open workspace a request's root names (as given, or canonical); UNAVAILABLE when none is open there. */
  resolve(root: string): LocalWorkspace {
    const normalized = normalizeRoot(root)
    const workspace = this.byRoot.get(normalized) ?? this.aliases.get(normalized)
    if (workspace === undefined) {
      throw new LspError(
        'UNAVAILABLE',
        `no workspace is open at ${root} in this lsp-local host: open it with host.openWorkspace(root) or host.attach(lsp, [root])`,
        {
          data: { open: [...this.byRoot.keys()] },
        },
      )
    }
    return workspace
  }
}
