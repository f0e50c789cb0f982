import { LspError, canonicalPath, isWithin, normalizeRoot } from '@codeseam/lsp'
import * as vscode from 'vscode'

/** The file-system workspace folders VS Code has open (virtual folders such as `vscode-vfs:` are skipped). */
export function fileWorkspaceFolders(): ReadonlyArray<{
  readonly name: string
  readonly root: string
  readonly folder: vscode.WorkspaceFolder
}> {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => ({ name: folder.name, root: normalizeRoot(folder.uri.fsPath), folder }))
}

/**
 * Checks that a request's root lies inside a folder VS Code has open: VS Code's language extensions only
 * answer for what the window holds, and a root elsewhere would quietly get nothing.
 */
export function checkRootIsOpen(root: string): void {
  const folders = fileWorkspaceFolders()
  // Both sides canonical: workspaces are keyed by real paths, while VS Code names a folder opened through
  // a symbolic link by the link.
  const realRoot = canonicalPath(root)
  if (folders.some((f) => isWithin(canonicalPath(f.root), realRoot))) return
  throw new LspError(
    'UNAVAILABLE',
    `${root} is not inside a folder open in VS Code (open folders: ${folders.map((f) => f.root).join(', ') || 'none'}); add it to the workspace first`,
    { data: { root, folders: folders.map((f) => f.root) } },
  )
}
