import * as nodePath from 'node:path'

import {
  extensionOf,
  isWithin,
  pathToUri,
  type LspFileDiagnostics,
  type LspProviderRequest,
  type LspRequestFor,
  type LspResultFor,
} from '@codeseam/lsp'
import * as vscode from 'vscode'

import { openDocumentOf } from '../documents.js'
import { awaitDiagnostics, reveal } from '../readiness.js'
import { toDiagnostic } from '../shapes/diagnostics.js'
import { metaFor, pin } from '../session.js'
import type { OperationContext } from '../operation-context.js'

/** The default wait for diagnostics of a document VS Code has not reported on yet. */
const defaultWaitMs = 3_000

function fileDiagnostics(context: OperationContext, path: string, diagnostics: ReadonlyArray<vscode.Diagnostic>): LspFileDiagnostics {
  const document = openDocumentOf(path)
  const freshness = document ? context.documents.freshness(document) : { freshness: 'unknown' as const }
  return {
    uri: pathToUri(path),
    path,
    ...(freshness.version !== undefined ? { version: freshness.version } : {}),
    freshness: freshness.freshness,
    diagnostics: diagnostics.map((d) => toDiagnostic(d, context.containment)),
  }
}

/**
 * Diagnostics of one file: the document is opened (so its extension analyses it) and, when VS Code has
 * not reported on its current version yet, the answer waits up to `waitMs` for that report. Freshness says
 * whether the report belongs to the buffer's present version.
 */
async function oneFile(context: OperationContext, path: string, waitMs: number): Promise<LspResultFor<'diagnostics'>> {
  const until = Date.now() + waitMs
  const document = await context.documents.open(path, context.deadline)
  await reveal(context, document)
  await awaitDiagnostics(context, document, until)
  const pinned = pin(document)
  const diagnostics = vscode.languages.getDiagnostics(document.uri)
  const file = fileDiagnostics(context, nodePath.normalize(document.uri.fsPath), diagnostics)
  return {
    kind: 'diagnostics',
    files: [file],
    coverage: { analysed: [file.path], eligible: 1, complete: true },
    meta: metaFor(
      context,
      { warm: context.documents.hasDiagnostics(document), status: file.freshness === 'current' ? 'ready' : 'indexing' },
      pinned,
    ),
  }
}

/**
 * Workspace diagnostics: what VS Code holds for files of this provider's languages under the root. VS
 * Code's language extensions mostly analyse open files only, so up to `maxFiles` files are opened first
 * (when asked) and the coverage says which files are actually included.
 */
async function workspace(
  context: OperationContext,
  request: LspRequestFor<'diagnostics'>,
  extensions: ReadonlyArray<string>,
): Promise<LspResultFor<'diagnostics'>> {
  const owned = (path: string) => {
    const extension = extensionOf(path)
    return extension !== undefined && extensions.includes(extension)
  }
  let eligible: number | undefined
  let opened: vscode.TextDocument[] = []
  if (request.maxFiles !== undefined && request.maxFiles > 0 && extensions.length > 0) {
    const pattern = new vscode.RelativePattern(vscode.Uri.file(context.root), `**/*{${extensions.join(',')}}`)
    const found = await context.deadline.run('finding workspace files', () =>
      vscode.workspace.findFiles(pattern, '**/node_modules/**', request.maxFiles! + 1),
    )
    eligible = found.length > request.maxFiles ? undefined : found.length
    opened = await Promise.all(
      found.slice(0, request.maxFiles).map((uri) => context.documents.open(nodePath.normalize(uri.fsPath), context.deadline)),
    )
    const waitMs = request.waitMs ?? defaultWaitMs
    const until = Date.now() + waitMs
    await Promise.all(opened.map((d) => awaitDiagnostics(context, d, until)))
  }
  const files: LspFileDiagnostics[] = []
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    if (uri.scheme !== 'file') continue
    const path = nodePath.normalize(uri.fsPath)
    if (!isWithin(context.root, path) || !owned(path)) continue
    files.push(fileDiagnostics(context, path, diagnostics))
  }
  // Opened files VS Code reported as clean have no entry in getDiagnostics(); they were analysed all the same.
  for (const document of opened) {
    const path = nodePath.normalize(document.uri.fsPath)
    if (context.documents.hasDiagnostics(document) && !files.some((f) => f.path === path)) files.push(fileDiagnostics(context, path, []))
  }
  const analysed = files.map((f) => f.path)
  return {
    kind: 'diagnostics',
    files,
    coverage: {
      analysed,
      ...(eligible !== undefined ? { eligible } : {}),
      complete: eligible !== undefined && analysed.length >= eligible,
    },
    meta: metaFor(context, { warm: true, status: 'ready' }),
  }
}

/** The diagnostics operation: one file when `path` is given, else the workspace. */
export function diagnostics(
  context: OperationContext,
  request: LspProviderRequest<LspRequestFor<'diagnostics'>>,
  extensions: ReadonlyArray<string>,
): Promise<LspResultFor<'diagnostics'>> {
  return request.path === undefined
    ? workspace(context, request, extensions)
    : oneFile(context, request.path, request.waitMs ?? defaultWaitMs)
}
