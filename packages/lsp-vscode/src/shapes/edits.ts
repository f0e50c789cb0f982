import * as nodePath from 'node:path'

import {
  LspError,
  isWithin,
  pathToUri,
  snippetToPlainText,
  type LspChangeAnnotation,
  type LspTextDocumentEdit,
  type LspTextEdit,
  type LspWorkspaceEdit,
  type LspWorkspaceEditOperation,
} from '@codeseam/lsp'
import * as vscode from 'vscode'

import { fromVsRange, toVsRange } from './positions.js'

/**
 * The entry kinds inside VS Code's `WorkspaceEdit` (extHostTypes `FileEditType`). The public API only lists
 * text edits (`entries()`); file operations and snippet edits are visible through `_allEntries()`, which
 * every WorkspaceEdit the extension host hands out has.
 */
const enum FileEditType {
  File = 1,
  Text = 2,
  Cell = 3,
  CellReplace = 5,
  Snippet = 6,
}

type Metadata = vscode.WorkspaceEditEntryMetadata | undefined

type Entry =
  | {
      readonly _type: FileEditType.File
      readonly from?: vscode.Uri
      readonly to?: vscode.Uri
      readonly options?: Record<string, unknown>
      readonly metadata?: Metadata
    }
  | { readonly _type: FileEditType.Text; readonly uri: vscode.Uri; readonly edit: vscode.TextEdit; readonly metadata?: Metadata }
  | {
      readonly _type: FileEditType.Snippet
      readonly uri: vscode.Uri
      readonly range: vscode.Range
      readonly edit: vscode.SnippetString
      readonly metadata?: Metadata
    }
  | { readonly _type: FileEditType.Cell | FileEditType.CellReplace; readonly uri: vscode.Uri }

/** The file-system path of a file URI under `root`; anything else fails the whole edit (never half-applied). */
function containedPath(uri: vscode.Uri, root: string): string {
  if (uri.scheme !== 'file') {
    throw new LspError('OUTSIDE_WORKSPACE', `the edit touches ${uri.toString()}, which is not a file under ${root}; it was not applied`, {
      data: { uri: uri.toString(), root },
    })
  }
  const path = nodePath.normalize(uri.fsPath)
  if (!isWithin(root, path)) {
    throw new LspError('OUTSIDE_WORKSPACE', `the edit touches ${path}, outside the workspace root ${root}; it was not applied`, {
      data: { path, root },
    })
  }
  return path
}

/** The version of the open buffer of `path`, or null when VS Code has no document open for it. */
function openVersion(path: string): number | null {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && nodePath.normalize(d.uri.fsPath) === path)
  return document === undefined ? null : document.version
}

function entriesOf(edit: vscode.WorkspaceEdit): ReadonlyArray<Entry> {
  const internal = (edit as unknown as { _allEntries?: () => ReadonlyArray<Entry> })._allEntries
  if (typeof internal === 'function') return internal.call(edit)
  // An edit from elsewhere (a plain object, an older host): only its text edits are observable.
  return edit.entries().flatMap(([uri, edits]) => edits.map((e): Entry => ({ _type: FileEditType.Text, uri, edit: e })))
}

/**
 * VS Code `WorkspaceEdit` → seam edit, in order: text edits (consecutive ones for one file grouped, with the
 * version of its open buffer), snippet edits (flagged), and file create/rename/delete. Entry metadata
 * becomes change annotations. Any URI outside `root` fails the whole conversion with OUTSIDE_WORKSPACE.
 */
export function fromWorkspaceEdit(edit: vscode.WorkspaceEdit | undefined | null, root: string): LspWorkspaceEdit {
  if (!edit) return { operations: [] }
  const operations: LspWorkspaceEditOperation[] = []
  const annotations: Record<string, LspChangeAnnotation> = {}
  const annotationIds = new Map<object, string>()
  const annotate = (metadata: Metadata): { annotationId?: string } => {
    if (!metadata) return {}
    let id = annotationIds.get(metadata)
    if (id === undefined) {
      id = `vscode-${annotationIds.size}`
      annotationIds.set(metadata, id)
      annotations[id] = {
        label: metadata.label,
        ...(metadata.description ? { description: metadata.description } : {}),
        ...(metadata.needsConfirmation ? { needsConfirmation: true } : {}),
      }
    }
    return { annotationId: id }
  }
  const pushText = (uri: vscode.Uri, textEdit: LspTextEdit) => {
    const path = containedPath(uri, root)
    const last = operations[operations.length - 1]
    if (last?.type === 'edit' && last.path === path) {
      operations[operations.length - 1] = { ...last, edits: [...last.edits, textEdit] }
    } else {
      operations.push({ type: 'edit', uri: pathToUri(path), path, version: openVersion(path), edits: [textEdit] })
    }
  }
  for (const entry of entriesOf(edit)) {
    switch (entry._type) {
      case FileEditType.Text:
        pushText(entry.uri, { range: fromVsRange(entry.edit.range), newText: entry.edit.newText, ...annotate(entry.metadata) })
        break
      case FileEditType.Snippet:
        pushText(entry.uri, { range: fromVsRange(entry.range), newText: entry.edit.value, snippet: true, ...annotate(entry.metadata) })
        break
      case FileEditType.File: {
        const options = entry.options ?? {}
        if (entry.from && entry.to) {
          const oldPath = containedPath(entry.from, root)
          const newPath = containedPath(entry.to, root)
          operations.push({
            type: 'rename',
            oldUri: pathToUri(oldPath),
            oldPath,
            newUri: pathToUri(newPath),
            newPath,
            ...fileOptions(options, ['overwrite', 'ignoreIfExists']),
            ...annotate(entry.metadata),
          })
        } else if (entry.to) {
          const path = containedPath(entry.to, root)
          operations.push({
            type: 'create',
            uri: pathToUri(path),
            path,
            ...fileOptions(options, ['overwrite', 'ignoreIfExists']),
            ...annotate(entry.metadata),
          })
        } else if (entry.from) {
          const path = containedPath(entry.from, root)
          operations.push({
            type: 'delete',
            uri: pathToUri(path),
            path,
            ...fileOptions(options, ['recursive', 'ignoreIfNotExists']),
            ...annotate(entry.metadata),
          })
        }
        break
      }
      default:
        throw new LspError(
          'UNSUPPORTED_OPERATION',
          `the edit changes notebook cells (${entry.uri.toString()}), which codeseam cannot represent`,
        )
    }
  }
  return annotationIds.size > 0 ? { operations, annotations } : { operations }
}

function fileOptions(options: Record<string, unknown>, keys: ReadonlyArray<string>): { options?: Record<string, boolean> } {
  const picked: Record<string, boolean> = {}
  for (const key of keys) if (typeof options[key] === 'boolean') picked[key] = options[key]
  return Object.keys(picked).length > 0 ? { options: picked } : {}
}

/** `TextEdit[]` of one document (what formatting answers) as a seam edit against the buffer's version. */
export function fromTextEdits(edits: ReadonlyArray<vscode.TextEdit> | undefined | null, document: vscode.TextDocument): LspWorkspaceEdit {
  if (!edits || edits.length === 0) return { operations: [] }
  const path = nodePath.normalize(document.uri.fsPath)
  const operation: LspTextDocumentEdit = {
    type: 'edit',
    uri: pathToUri(path),
    path,
    version: document.version,
    edits: edits.map((e) => ({ range: fromVsRange(e.range), newText: e.newText })),
  }
  return { operations: [operation] }
}

/**
 * Seam edit → VS Code `WorkspaceEdit` for `workspace.applyEdit`. Snippet edits lose their placeholders
 * (the seam contract), and annotations become entry metadata without `needsConfirmation`: approval already
 * happened in the harness, and a confirmation dialog would hold the edit hostage to a person at the screen.
 */
export function toWorkspaceEdit(edit: LspWorkspaceEdit): vscode.WorkspaceEdit {
  const out = new vscode.WorkspaceEdit()
  const metadataFor = (annotationId: string | undefined): vscode.WorkspaceEditEntryMetadata | undefined => {
    const annotation = annotationId === undefined ? undefined : edit.annotations?.[annotationId]
    if (annotation === undefined) return undefined
    return { label: annotation.label, needsConfirmation: false, ...(annotation.description ? { description: annotation.description } : {}) }
  }
  for (const operation of edit.operations) {
    switch (operation.type) {
      case 'edit': {
        const uri = vscode.Uri.file(operation.path)
        for (const textEdit of operation.edits) {
          const newText = textEdit.snippet ? snippetToPlainText(textEdit.newText) : textEdit.newText
          out.replace(uri, toVsRange(textEdit.range), newText, metadataFor(textEdit.annotationId))
        }
        break
      }
      case 'create':
        out.createFile(vscode.Uri.file(operation.path), operation.options ?? {}, metadataFor(operation.annotationId))
        break
      case 'rename':
        out.renameFile(
          vscode.Uri.file(operation.oldPath),
          vscode.Uri.file(operation.newPath),
          operation.options ?? {},
          metadataFor(operation.annotationId),
        )
        break
      case 'delete':
        out.deleteFile(vscode.Uri.file(operation.path), operation.options ?? {}, metadataFor(operation.annotationId))
        break
    }
  }
  return out
}
