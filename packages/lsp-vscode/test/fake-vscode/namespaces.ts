/** The `commands`, `workspace`, `languages`, `window` and `extensions` namespaces over the fake host. */
import { readdir, readFile, stat as statFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import type * as vscode from 'vscode'

import { host } from './host.js'
import { register } from './providers.js'
import { FileType, RelativePattern, Uri, type WorkspaceEdit } from './types.js'

function fileSystemError(uri: Uri, cause: unknown): Error {
  const error = new Error(`${uri.toString()}: ${cause instanceof Error ? cause.message : String(cause)}`) as Error & { code: string }
  error.code = (cause as { code?: string }).code === 'ENOENT' ? 'FileNotFound' : 'Unknown'
  error.name = `${error.code} (FileSystemError)`
  return error
}

export const commands = {
  executeCommand: <T = unknown>(command: string, ...rest: unknown[]): Thenable<T> => host.executeCommand(command, ...rest) as Thenable<T>,
  registerCommand(command: string, callback: (...args: any[]) => unknown): vscode.Disposable {
    if (host.commands.has(command)) throw new Error(`command '${command}' already exists`)
    host.commands.set(command, callback)
    return { dispose: () => host.commands.delete(command) }
  },
  getCommands: async (): Promise<string[]> => [...host.commands.keys()],
}

export const workspace = {
  get workspaceFolders(): readonly vscode.WorkspaceFolder[] | undefined {
    return host.folders.length > 0 ? host.folders : undefined
  },
  get textDocuments(): readonly vscode.TextDocument[] {
    return [...host.documents.values()]
  },
  getWorkspaceFolder(uri: Uri): vscode.WorkspaceFolder | undefined {
    return host.folders.find((f) => uri.fsPath === f.uri.fsPath || uri.fsPath.startsWith(f.uri.fsPath + nodePath.sep))
  },
  async openTextDocument(uriOrPath: Uri | string): Promise<vscode.TextDocument> {
    return host.openDocument(typeof uriOrPath === 'string' ? Uri.file(uriOrPath) : uriOrPath)
  },
  applyEdit: (edit: WorkspaceEdit, _metadata?: vscode.WorkspaceEditMetadata): Thenable<boolean> => host.applyEdit(edit),
  // Supports the "any depth, these suffixes" patterns the adapter uses; skips node_modules like the exclude.
  async findFiles(include: RelativePattern | string, _exclude?: string | null, maxResults?: number): Promise<Uri[]> {
    const pattern = include instanceof RelativePattern ? include : new RelativePattern(host.folders[0]?.uri.fsPath ?? '/', include)
    const braces = /\{([^}]*)\}$/.exec(pattern.pattern)
    const suffixes = braces ? braces[1]!.split(',') : [pattern.pattern.replace(/^\*\*\/\*/, '')]
    const found: Uri[] = []
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (maxResults !== undefined && found.length >= maxResults) return
        const full = nodePath.join(dir, entry.name)
        if (entry.isDirectory()) {
          if (entry.name !== 'node_modules') await walk(full)
        } else if (suffixes.some((suffix) => entry.name.endsWith(suffix))) found.push(Uri.file(full))
      }
    }
    await walk(pattern.base)
    return found
  },
  getConfiguration: (_section?: string, _scope?: unknown) => ({
    get: <T>(_key: string, defaultValue: T): T => defaultValue,
  }),
  fs: {
    async readFile(uri: Uri): Promise<Uint8Array> {
      try {
        return await readFile(uri.fsPath)
      } catch (error) {
        throw fileSystemError(uri, error)
      }
    },
    async stat(uri: Uri): Promise<vscode.FileStat> {
      try {
        const s = await statFile(uri.fsPath)
        return { type: s.isDirectory() ? FileType.Directory : FileType.File, ctime: s.ctimeMs, mtime: s.mtimeMs, size: s.size }
      } catch (error) {
        throw fileSystemError(uri, error)
      }
    },
  },
  onDidChangeWorkspaceFolders: host.onDidChangeWorkspaceFolders.event,
  onDidOpenTextDocument: host.onDidOpenTextDocument.event,
  onDidChangeTextDocument: host.onDidChangeTextDocument.event,
  onDidSaveTextDocument: host.onDidSaveTextDocument.event,
  onDidCloseTextDocument: host.onDidCloseTextDocument.event,
}

export const languages = {
  getDiagnostics(resource?: Uri): any {
    if (resource) return host.diagnostics.get(resource.toString())?.list ?? []
    return [...host.diagnostics.values()].map(({ uri, list }) => [uri, list])
  },
  onDidChangeDiagnostics: host.onDidChangeDiagnostics.event,
  registerDocumentSymbolProvider: (selector: any, provider: vscode.DocumentSymbolProvider, _metadata?: unknown) =>
    register('documentSymbols', selector, provider),
  registerDefinitionProvider: (selector: any, provider: vscode.DefinitionProvider) => register('definition', selector, provider),
  registerReferenceProvider: (selector: any, provider: vscode.ReferenceProvider) => register('references', selector, provider),
  registerImplementationProvider: (selector: any, provider: vscode.ImplementationProvider) =>
    register('implementation', selector, provider),
  registerTypeHierarchyProvider: (selector: any, provider: vscode.TypeHierarchyProvider) => register('typeHierarchy', selector, provider),
  getLanguages: async (): Promise<string[]> => [
    ...new Set(host.extensions.flatMap((e) => (e.packageJSON.contributes?.languages ?? []).map((l) => l.id))),
  ],
}

export const window = {
  get visibleTextEditors(): readonly vscode.TextEditor[] {
    return []
  },
  get tabGroups(): { all: Array<{ tabs: Array<{ label: string; input: { uri: Uri } }> }> } {
    return { all: [{ tabs: host.tabs.map((d) => ({ label: nodePath.basename(d.uri.fsPath), input: { uri: d.uri } })) }] }
  },
  async showTextDocument(document: vscode.TextDocument, _options?: vscode.TextDocumentShowOptions): Promise<unknown> {
    host.showDocument(document as never)
    return { document }
  },
  showInformationMessage: async (message: string) => {
    host.messages.push(message)
    return undefined
  },
  showErrorMessage: async (message: string) => {
    host.messages.push(message)
    return undefined
  },
}

export const extensions = {
  get all(): readonly vscode.Extension<unknown>[] {
    return host.extensions as unknown as vscode.Extension<unknown>[]
  },
}
