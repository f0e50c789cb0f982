import {
  contentHash,
  displayPath,
  isWithin,
  LspError,
  TextLines,
  toModelRange,
  uriToPath,
  type LspCreateFile,
  type LspDeleteFile,
  type LspDocumentSnapshot,
  type LspRenameFile,
  type LspTextDocumentEdit,
  type LspTextEdit,
  type LspWorkspace,
  type LspWorkspaceEdit,
  type LspWorkspaceInfo,
  type LspWorkspaceEditOperation,
} from '@codeseam/lsp'

import { unifiedDiff } from './diff.js'
import type { MutationPreview, PreviewEdit, PreviewFile, PreviewResourceOperation } from './receipt.js'
import { applyTextEdits, snippetToPlainText } from '@codeseam/lsp'

/**
 * Turns a normalized workspace edit into what a person approves: checks every path is inside the root,
 * makes snippet edits plain text, replays the edit on the current file contents in memory, and renders a
 * unified diff plus a structured edit list per file.
 */

/**
 * Every URI and path of an edit, checked against the root: OUTSIDE_WORKSPACE names the first escape. `others`:
 * the other open roots of the workspace (RFC 0025), so an edit reaching into one is named as such.
 */
export function checkContainment(root: string, edit: LspWorkspaceEdit, others: ReadonlyArray<LspWorkspaceInfo> = []): void {
  const check = (uri: string, path: string) => {
    const fromUri = uriToPath(uri)
    if (fromUri === undefined) {
      throw new LspError('OUTSIDE_WORKSPACE', `the edit touches "${uri}", which is not a file URI; nothing was written`, { data: { uri } })
    }
    for (const candidate of [fromUri, path]) {
      if (!isWithin(root, candidate)) {
        const other = others.find((each) => each.root !== root && isWithin(each.root, candidate))
        if (other !== undefined) {
          throw new LspError(
            'OUTSIDE_WORKSPACE',
            `the edit also changes ${displayPath(other.root, candidate)} in the open root "${other.id}": an edit that spans roots is not applied yet (RFC 0025), so nothing was written in any root; open the folder that holds both as one root to apply it`,
            { data: { uri, path: candidate, root, otherRootId: other.id } },
          )
        }
        throw new LspError('OUTSIDE_WORKSPACE', `the edit touches ${candidate}, outside the workspace root ${root}; nothing was written`, {
          data: { uri, path: candidate, root },
        })
      }
    }
    if (fromUri !== path) {
      throw new LspError('MALFORMED_RESPONSE', `the edit's uri ${uri} and path ${path} name different files; nothing was written`, {
        data: { uri, path },
      })
    }
  }
  for (const op of edit.operations) {
    if (op.type === 'rename') {
      check(op.oldUri, op.oldPath)
      check(op.newUri, op.newPath)
    } else check(op.uri, op.path)
  }
}

/** Replaces snippet text edits by their plain text; returns the new edit and how many were converted. */
export function snippetsAsPlainText(edit: LspWorkspaceEdit): { edit: LspWorkspaceEdit; converted: number } {
  let converted = 0
  const operations = edit.operations.map((op): LspWorkspaceEditOperation => {
    if (op.type !== 'edit' || !op.edits.some((e) => e.snippet === true)) return op
    return {
      ...op,
      edits: op.edits.map((e): LspTextEdit => {
        if (e.snippet !== true) return e
        converted++
        const { snippet: _snippet, ...plain } = e
        return { ...plain, newText: snippetToPlainText(e.newText) }
      }),
    }
  })
  return { edit: { ...edit, operations }, converted }
}

/** Whether a resource operation deletes or may overwrite something. */
export function isDestructive(op: LspWorkspaceEditOperation): boolean {
  if (op.type === 'delete') return true
  if (op.type === 'create' || op.type === 'rename') return op.options?.overwrite === true
  return false
}

/** A preview plus what the transaction re-checks before applying. */
export interface BuiltPreview {
  readonly preview: MutationPreview
  /** The content each touched file had when previewed (absolute path → snapshot); re-checked before apply. */
  readonly basis: ReadonlyMap<string, LspDocumentSnapshot>
  /** Absolute paths of touched files that exist after the edit (for post-edit diagnostics). */
  readonly survivors: ReadonlyArray<string>
  /** Old path → new path of renamed files. */
  readonly renamed: ReadonlyMap<string, string>
  /** Text edits per absolute path (for receipts). */
  readonly editCounts: ReadonlyMap<string, number>
  /** The content each surviving touched file will have (absolute path → text): what a speculative check sends. */
  readonly contents: ReadonlyMap<string, string>
  /** The text edits of each modified file, against its basis (to map diagnostic positions through the edit). */
  readonly textEdits: ReadonlyMap<string, ReadonlyArray<LspTextEdit>>
}

interface Entry {
  readonly path: string
  edits: PreviewEdit[]
  editCount: number
  renamedTo?: string
}

/** The edit replayed so far on the files, in memory. */
interface Replay {
  readonly workspace: LspWorkspace
  readonly edit: LspWorkspaceEdit
  /** Files already read by the caller. */
  readonly known: ReadonlyMap<string, LspDocumentSnapshot>
  readonly signal: AbortSignal | undefined
  readonly rel: (path: string) => string
  /** The content each file read had (absolute path → snapshot). */
  readonly basis: Map<string, LspDocumentSnapshot>
  /** Paths that exist but cannot be read as text. */
  readonly folders: Set<string>
  /** Each path's content so far (null: absent). */
  readonly current: Map<string, string | null>
  readonly entries: Map<string, Entry>
  readonly renamed: Map<string, string>
  readonly textEdits: Map<string, LspTextEdit[]>
  readonly createdOrMovedHere: Set<string>
  readonly resourceOperations: PreviewResourceOperation[]
}

/**
 * Replays `edit` on the files as they are now. Files already read by the caller are passed in `known`
 * (their content is the basis the edit was computed against); others are read from the workspace.
 */
export async function buildPreview(
  workspace: LspWorkspace,
  edit: LspWorkspaceEdit,
  known: ReadonlyMap<string, LspDocumentSnapshot> = new Map(),
  unpreviewable: ReadonlyArray<string> = [],
  signal?: AbortSignal,
  others: ReadonlyArray<LspWorkspaceInfo> = [],
): Promise<BuiltPreview> {
  checkContainment(workspace.root, edit, others)
  const replay = startReplay(workspace, edit, known, signal)
  for (const op of edit.operations) await replayOperation(replay, op)
  const { files, editCounts } = previewFiles(replay)
  const survivors = survivorsOf(replay)
  const contents = contentsOf(replay, survivors)
  const textEdits = mappableTextEdits(replay)
  const { resourceOperations } = replay
  return {
    preview: { files, resourceOperations, counts: countsOf(files, resourceOperations), unpreviewable: [...unpreviewable] },
    basis: replay.basis,
    survivors,
    renamed: replay.renamed,
    editCounts,
    contents,
    textEdits,
  }
}

function startReplay(
  workspace: LspWorkspace,
  edit: LspWorkspaceEdit,
  known: ReadonlyMap<string, LspDocumentSnapshot>,
  signal: AbortSignal | undefined,
): Replay {
  return {
    workspace,
    edit,
    known,
    signal,
    rel: (path) => displayPath(workspace.root, path),
    basis: new Map(),
    folders: new Set(),
    current: new Map(),
    entries: new Map(),
    renamed: new Map(),
    textEdits: new Map(),
    createdOrMovedHere: new Set(),
    resourceOperations: [],
  }
}

/** The content of `path` so far (null: absent), read on first use. */
async function load(replay: Replay, path: string): Promise<string | null> {
  const { current, folders, workspace } = replay
  if (current.has(path)) return current.get(path) ?? null
  let snapshot = replay.known.get(path)
  if (snapshot === undefined && (await workspace.exists(path))) {
    try {
      snapshot = await workspace.readFile(path, replay.signal)
    } catch (error) {
      // Outside the root, or over a per-file limit (UNAVAILABLE, RFC 0013): no preview is built on a file not read.
      if (error instanceof LspError && (error.code === 'OUTSIDE_WORKSPACE' || error.code === 'UNAVAILABLE')) throw error
      // Exists but cannot be read as text: a folder (rename/delete of a directory).
      folders.add(path)
    }
  }
  if (snapshot !== undefined) replay.basis.set(path, snapshot)
  const text = snapshot?.text ?? null
  current.set(path, text)
  return text
}

/** The preview entry of `path`, made on first use. */
function entry(replay: Replay, path: string): Entry {
  let found = replay.entries.get(path)
  if (found === undefined) {
    found = { path, edits: [], editCount: 0 }
    replay.entries.set(path, found)
  }
  return found
}

function annotationLabel(edit: LspWorkspaceEdit, id: string | undefined): string | undefined {
  return id === undefined ? undefined : (edit.annotations?.[id]?.label ?? id)
}

async function replayOperation(replay: Replay, op: LspWorkspaceEditOperation): Promise<void> {
  if (op.type === 'edit') return replayTextEdits(replay, op)
  if (op.type === 'create') return replayCreate(replay, op)
  if (op.type === 'rename') return replayRename(replay, op)
  return replayDelete(replay, op)
}

async function replayTextEdits(replay: Replay, op: LspTextDocumentEdit): Promise<void> {
  const { rel } = replay
  const before = await load(replay, op.path)
  if (before === null) {
    throw new LspError(
      'NOT_FOUND',
      `the edit changes ${rel(op.path)}, which does not exist${replay.folders.has(op.path) ? ' as a file' : ''}; nothing was written`,
      {
        data: { path: rel(op.path) },
      },
    )
  }
  const lines = new TextLines(before)
  const after = applyTextEdits(before, op.edits, rel(op.path))
  const target = entry(replay, op.path)
  for (const e of op.edits) {
    const start = lines.offsetAt(e.range.start)
    const end = lines.offsetAt(e.range.end)
    target.edits.push({ range: toModelRange(e.range), oldText: before.slice(start, end), newText: e.newText })
  }
  target.editCount += op.edits.length
  replay.textEdits.set(op.path, [...(replay.textEdits.get(op.path) ?? []), ...op.edits])
  replay.current.set(op.path, after)
}

async function replayCreate(replay: Replay, op: LspCreateFile): Promise<void> {
  const { rel } = replay
  const base: Omit<PreviewResourceOperation, 'type' | 'path'> = { destructive: isDestructive(op) }
  const label = annotationLabel(replay.edit, op.annotationId)
  const existing = await load(replay, op.path)
  const exists = existing !== null || replay.folders.has(op.path)
  replay.resourceOperations.push({
    type: 'create',
    path: rel(op.path),
    ...base,
    ...(op.options?.overwrite === undefined ? {} : { overwrite: op.options.overwrite }),
    ...(op.options?.ignoreIfExists === undefined ? {} : { ignoreIfExists: op.options.ignoreIfExists }),
    ...(label === undefined ? {} : { annotation: label }),
  })
  if (exists && op.options?.overwrite !== true) {
    if (op.options?.ignoreIfExists === true) return
    throw new LspError('STALE_VERSION', `the edit creates ${rel(op.path)}, which already exists; nothing was written`, {
      data: { path: rel(op.path) },
    })
  }
  entry(replay, op.path)
  replay.createdOrMovedHere.add(op.path)
  replay.current.set(op.path, '')
}

async function replayRename(replay: Replay, op: LspRenameFile): Promise<void> {
  const { rel, folders } = replay
  const base: Omit<PreviewResourceOperation, 'type' | 'path'> = { destructive: isDestructive(op) }
  const label = annotationLabel(replay.edit, op.annotationId)
  const text = await load(replay, op.oldPath)
  const isFolder = folders.has(op.oldPath)
  const targetExists = (await load(replay, op.newPath)) !== null || folders.has(op.newPath)
  replay.resourceOperations.push({
    type: 'rename',
    path: rel(op.oldPath),
    newPath: rel(op.newPath),
    ...base,
    ...(op.options?.overwrite === undefined ? {} : { overwrite: op.options.overwrite }),
    ...(op.options?.ignoreIfExists === undefined ? {} : { ignoreIfExists: op.options.ignoreIfExists }),
    ...(label === undefined ? {} : { annotation: label }),
  })
  if (text === null && !isFolder) {
    throw new LspError('NOT_FOUND', `the edit renames ${rel(op.oldPath)}, which does not exist; nothing was written`, {
      data: { path: rel(op.oldPath) },
    })
  }
  if (targetExists && op.options?.overwrite !== true) {
    if (op.options?.ignoreIfExists === true) return
    throw new LspError('STALE_VERSION', `the edit renames onto ${rel(op.newPath)}, which already exists; nothing was written`, {
      data: { path: rel(op.newPath) },
    })
  }
  entry(replay, op.oldPath).renamedTo = op.newPath
  replay.renamed.set(op.oldPath, op.newPath)
  replay.createdOrMovedHere.add(op.newPath)
  replay.current.set(op.newPath, text)
  replay.current.set(op.oldPath, null)
  if (isFolder) folders.add(op.newPath)
}

async function replayDelete(replay: Replay, op: LspDeleteFile): Promise<void> {
  const { rel } = replay
  const base: Omit<PreviewResourceOperation, 'type' | 'path'> = { destructive: isDestructive(op) }
  const label = annotationLabel(replay.edit, op.annotationId)
  const text = await load(replay, op.path)
  replay.resourceOperations.push({
    type: 'delete',
    path: rel(op.path),
    ...base,
    ...(op.options?.recursive === undefined ? {} : { recursive: op.options.recursive }),
    ...(op.options?.ignoreIfNotExists === undefined ? {} : { ignoreIfNotExists: op.options.ignoreIfNotExists }),
    ...(label === undefined ? {} : { annotation: label }),
  })
  if (text === null && !replay.folders.has(op.path)) {
    if (op.options?.ignoreIfNotExists === true) return
    throw new LspError('NOT_FOUND', `the edit deletes ${rel(op.path)}, which does not exist; nothing was written`, {
      data: { path: rel(op.path) },
    })
  }
  entry(replay, op.path)
  replay.current.set(op.path, null)
}

/** One preview file per entry (edits to a file's new name are shown with its rename), and its text edit count. */
function previewFiles(replay: Replay): { files: PreviewFile[]; editCounts: Map<string, number> } {
  const { basis, renamed } = replay
  const files: PreviewFile[] = []
  const editCounts = new Map<string, number>()
  for (const e of replay.entries.values()) {
    // Edits to a file's new name are shown with its rename.
    if (replay.createdOrMovedHere.has(e.path) && [...renamed.values()].includes(e.path) && !basis.has(e.path)) continue
    const moved = e.renamedTo === undefined ? undefined : replay.entries.get(e.renamedTo)
    editCounts.set(e.path, e.editCount + (e.renamedTo === undefined ? 0 : (moved?.editCount ?? 0)))
    files.push(previewFile(replay, e, moved?.edits ?? []))
  }
  return { files, editCounts }
}

function previewFile(replay: Replay, e: Entry, movedEdits: ReadonlyArray<PreviewEdit>): PreviewFile {
  const { current, rel } = replay
  const original = replay.basis.get(e.path)?.text ?? null
  const finalPath = e.renamedTo ?? e.path
  const finalText = current.has(finalPath) ? (current.get(finalPath) ?? null) : original
  const edits = [...e.edits, ...movedEdits]
  const change: PreviewFile['change'] =
    e.renamedTo !== undefined ? 'rename' : original === null && finalText !== null ? 'create' : finalText === null ? 'delete' : 'modify'
  const isFolder = replay.folders.has(e.path)
  const diff = isFolder
    ? { text: '', added: 0, removed: 0 }
    : unifiedDiff(rel(e.path), original, finalText, e.renamedTo === undefined ? {} : { newLabel: `b/${rel(e.renamedTo)}` })
  return {
    path: rel(e.path),
    change,
    ...(e.renamedTo === undefined ? {} : { newPath: rel(e.renamedTo) }),
    ...(original === null ? {} : { hashBefore: contentHash(original) }),
    ...(finalText === null || isFolder ? {} : { hashAfter: contentHash(finalText) }),
    edits,
    diff: diff.text,
    linesAdded: diff.added,
    linesRemoved: diff.removed,
  }
}

/** Absolute paths of files that exist after the edit (folders aside). */
function survivorsOf(replay: Replay): string[] {
  return [...replay.current.entries()].filter(([path, text]) => text !== null && !replay.folders.has(path)).map(([path]) => path)
}

/** The content each surviving file will have, where it changes. */
function contentsOf(replay: Replay, survivors: ReadonlyArray<string>): Map<string, string> {
  const contents = new Map<string, string>()
  for (const path of survivors) {
    const text = replay.current.get(path)
    if (typeof text === 'string' && text !== replay.basis.get(path)?.text) contents.set(path, text)
  }
  return contents
}

/**
 * Several edit operations on one file apply one after another; their ranges map through the whole edit only
 * when there is one operation per file (the usual case). Otherwise positions are not mapped.
 */
function mappableTextEdits(replay: Replay): Map<string, LspTextEdit[]> {
  const { textEdits } = replay
  for (const path of [...textEdits.keys()]) {
    if (replay.edit.operations.filter((op) => op.type === 'edit' && op.path === path).length > 1) textEdits.delete(path)
  }
  return textEdits
}

function countsOf(
  files: ReadonlyArray<PreviewFile>,
  resourceOperations: ReadonlyArray<PreviewResourceOperation>,
): MutationPreview['counts'] {
  return {
    files: files.length,
    edits: files.reduce((sum, f) => sum + f.edits.length, 0),
    resourceOperations: resourceOperations.length,
    linesAdded: files.reduce((sum, f) => sum + f.linesAdded, 0),
    linesRemoved: files.reduce((sum, f) => sum + f.linesRemoved, 0),
  }
}
