import { stat } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { LspError, contentHash, pathToUri, type LspDocumentSnapshot } from '@codeseam/lsp'
import * as vscode from 'vscode'

import type { Deadline } from './deadline.js'

/** The open VS Code document of a path, if any (VS Code's buffers are the truth, dirty or not). */
export function openDocumentOf(path: string): vscode.TextDocument | undefined {
  const normalized = nodePath.normalize(path)
  return vscode.workspace.textDocuments.find(
    (d) => !d.isClosed && d.uri.scheme === 'file' && nodePath.normalize(d.uri.fsPath) === normalized,
  )
}

/** Whether a file-system error says the file is missing (VS Code's FileSystemError or Node's). */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return (
    code === 'FileNotFound' ||
    code === 'ENOENT' ||
    code === 'ENOTDIR' ||
    (error instanceof Error && /FileNotFound|ENOENT/.test(error.message))
  )
}

/**
 * The text of a file as VS Code holds it: the open buffer (unsaved edits included), else the file on disk
 * through VS Code's file system, within the operation's deadline. NOT_FOUND when it does not exist.
 */
export async function readDocumentText(path: string, deadline: Deadline): Promise<string> {
  const open = openDocumentOf(path)
  if (open) return open.getText()
  try {
    const bytes = await deadline.run(`reading ${path}`, () => vscode.workspace.fs.readFile(vscode.Uri.file(path)))
    return new TextDecoder('utf-8').decode(bytes)
  } catch (error) {
    if (error instanceof LspError) throw error
    if (isMissing(error)) throw new LspError('NOT_FOUND', `${path} does not exist`, { data: { path } })
    const detail = error instanceof Error ? error.message : String(error)
    throw new LspError('SERVER_ERROR', `VS Code could not read ${path}: ${detail}`, { cause: error, data: { path } })
  }
}

/** A snapshot of a document as VS Code holds it in memory, with its version. */
export function snapshotOf(document: vscode.TextDocument): LspDocumentSnapshot {
  const path = nodePath.normalize(document.uri.fsPath)
  const text = document.getText()
  return { path, uri: pathToUri(path), text, hash: contentHash(text), version: document.version }
}

/**
 * Opens documents before they are queried (opening is what activates the owning language extension and
 * makes it analyse the file) and remembers, per document, the version it had when diagnostics last
 * changed, so diagnostics can say whether they are current.
 */
export class DocumentTracker {
  private readonly diagnosticsVersions = new Map<string, number | undefined>()
  private readonly reportedAt = new Map<string, number>()
  private readonly subscription: vscode.Disposable

  constructor() {
    this.subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      for (const uri of event.uris) {
        const document = uri.scheme === 'file' ? openDocumentOf(uri.fsPath) : undefined
        this.diagnosticsVersions.set(uri.toString(), document?.version)
        this.reportedAt.set(uri.toString(), Date.now())
      }
    })
  }

  /** Opens (or finds) the document of `path` within the operation's budget. NOT_FOUND when the file is missing. */
  async open(path: string, deadline: Deadline): Promise<vscode.TextDocument> {
    const already = openDocumentOf(path)
    if (already) return already
    try {
      return await deadline.run(`opening ${path}`, () => vscode.workspace.openTextDocument(vscode.Uri.file(path)))
    } catch (error) {
      if (error instanceof LspError) throw error
      const missing = await stat(path).then(
        () => false,
        () => true,
      )
      if (missing) throw new LspError('NOT_FOUND', `${path} does not exist`, { data: { path } })
      const detail = error instanceof Error ? error.message : String(error)
      throw new LspError('SERVER_ERROR', `VS Code could not open ${path}: ${detail}`, { cause: error, data: { path } })
    }
  }

  /** Whether diagnostics of `document` were reported since it was opened by this session. */
  hasDiagnostics(document: vscode.TextDocument): boolean {
    return this.diagnosticsVersions.has(document.uri.toString())
  }

  /** current: reported while the buffer had its present version; stale: for an older one; unknown: never seen. */
  freshness(document: vscode.TextDocument): { freshness: 'current' | 'stale' | 'unknown'; version?: number } {
    const key = document.uri.toString()
    if (!this.diagnosticsVersions.has(key)) return { freshness: 'unknown' }
    const version = this.diagnosticsVersions.get(key)
    if (version === undefined) return { freshness: 'unknown' }
    return { freshness: version === document.version ? 'current' : 'stale', version }
  }

  /** Milliseconds since diagnostics of `uri` last changed (Infinity when never). */
  sinceLastReport(uri: vscode.Uri): number {
    const at = this.reportedAt.get(uri.toString())
    return at === undefined ? Number.POSITIVE_INFINITY : Date.now() - at
  }

  /** Subscribes to diagnostics changes of one URI. */
  onDiagnosticsOf(uri: vscode.Uri, fire: () => void): vscode.Disposable {
    const key = uri.toString()
    return vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((u) => u.toString() === key)) fire()
    })
  }

  dispose(): void {
    this.subscription.dispose()
  }
}
