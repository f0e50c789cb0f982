/**
 * The window the fake `vscode` module describes: workspace folders, text documents with versions and dirty
 * state, the command registry (VS Code's built-in `vscode.execute…` commands exist and answer empty until a
 * test plays a language extension), diagnostics, installed extensions, and workspace.applyEdit applied to
 * buffers and disk the way VS Code does it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import type * as vscode from 'vscode'

import { builtinEmptyAnswers, providerCommands, relatedTypes, resetProviders } from './providers.js'
import { EndOfLine, EventEmitter, Position, Range, Uri, WorkspaceEdit, type TextEdit, type WorkspaceEditEntry } from './types.js'

// --- text documents ---------------------------------------------------------------------------------------------

/** A TextDocument over an in-memory buffer, as VS Code keeps it. */
export class FakeTextDocument implements vscode.TextDocument {
  version = 1
  isDirty = false
  isClosed = false
  readonly isUntitled = false
  readonly encoding = 'utf8'
  constructor(
    public uri: Uri,
    readonly languageId: string,
    private text: string,
  ) {}
  get fileName(): string {
    return this.uri.fsPath
  }
  get eol(): EndOfLine {
    return this.text.includes('\r\n') ? EndOfLine.CRLF : EndOfLine.LF
  }
  private get lines(): string[] {
    return this.text.split(/\r\n|\r|\n/)
  }
  get lineCount(): number {
    return this.lines.length
  }
  lineAt(lineOrPosition: number | Position): vscode.TextLine {
    const line = typeof lineOrPosition === 'number' ? lineOrPosition : lineOrPosition.line
    const text = this.lines[line]
    if (text === undefined) throw new Error('Illegal value for `line`')
    const firstNonWhitespaceCharacterIndex = Math.max(0, text.search(/\S/))
    return {
      lineNumber: line,
      text,
      range: new Range(line, 0, line, text.length),
      rangeIncludingLineBreak: line < this.lineCount - 1 ? new Range(line, 0, line + 1, 0) : new Range(line, 0, line, text.length),
      firstNonWhitespaceCharacterIndex: text.search(/\S/) < 0 ? text.length : firstNonWhitespaceCharacterIndex,
      isEmptyOrWhitespace: text.trim() === '',
    }
  }
  offsetAt(position: Position): number {
    const p = this.validatePosition(position)
    let offset = 0
    const re = /\r\n|\r|\n/g
    for (let line = 0; line < p.line; line++) {
      const match = re.exec(this.text)
      offset = match ? match.index + match[0].length : this.text.length
    }
    return offset + p.character
  }
  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length))
    const before = this.text.slice(0, clamped).split(/\r\n|\r|\n/)
    return new Position(before.length - 1, before[before.length - 1]!.length)
  }
  getText(range?: Range): string {
    if (!range) return this.text
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end))
  }
  getWordRangeAtPosition(position: Position, regex = /[\p{L}\p{N}_$]+/gu): Range | undefined {
    const text = this.lineAt(position.line).text
    for (const match of text.matchAll(new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`))) {
      if (match.index <= position.character && position.character <= match.index + match[0].length) {
        return new Range(position.line, match.index, position.line, match.index + match[0].length)
      }
    }
    return undefined
  }
  validateRange(range: Range): Range {
    return new Range(this.validatePosition(range.start), this.validatePosition(range.end))
  }
  validatePosition(position: Position): Position {
    const line = Math.min(position.line, this.lineCount - 1)
    return new Position(line, Math.min(position.character, this.lines[line]!.length))
  }
  async save(): Promise<boolean> {
    return host.save(this)
  }
  /** Replaces the buffer (VS Code bumps the version on every change). */
  setText(text: string): void {
    this.text = text
    this.version++
    this.isDirty = true
    host.onDidChangeTextDocument.fire({ document: this, contentChanges: [], reason: undefined })
  }
  /** Applies edits from the end so earlier offsets stay valid. */
  applyEdits(edits: ReadonlyArray<TextEdit>): void {
    const spans = edits
      .map((e) => ({ start: this.offsetAt(e.range.start), end: this.offsetAt(e.range.end), text: e.newText }))
      .sort((a, b) => b.start - a.start)
    let text = this.text
    for (const span of spans) text = text.slice(0, span.start) + span.text + text.slice(span.end)
    this.setText(text)
  }
  markSaved(): void {
    this.isDirty = false
  }
}

// --- the host ---------------------------------------------------------------------------------------------------

type CommandHandler = (...args: any[]) => unknown

export interface FakeExtension {
  readonly id: string
  readonly packageJSON: { contributes?: { languages?: Array<{ id: string; extensions?: string[] }> } }
}

class FakeHost {
  folders: vscode.WorkspaceFolder[] = []
  readonly documents = new Map<string, FakeTextDocument>()
  readonly commands = new Map<string, CommandHandler>()
  readonly diagnostics = new Map<string, { uri: Uri; list: vscode.Diagnostic[] }>()
  extensions: FakeExtension[] = []
  /** Messages shown with window.show…Message. */
  readonly messages: string[] = []
  /** Paths whose save fails (VS Code resolves `save()` with false). */
  readonly failingSaves = new Set<string>()
  /** When set, applyEdit waits for this before doing anything (a stuck extension host). */
  applyEditGate: Promise<void> | undefined
  /** When set, save waits for this (a stuck file system). */
  saveGate: Promise<void> | undefined
  readonly onDidChangeDiagnostics = new EventEmitter<vscode.DiagnosticChangeEvent>()
  readonly onDidOpenTextDocument = new EventEmitter<FakeTextDocument>()
  readonly onDidChangeTextDocument = new EventEmitter<{ document: FakeTextDocument; contentChanges: []; reason: undefined }>()
  readonly onDidSaveTextDocument = new EventEmitter<FakeTextDocument>()
  readonly onDidCloseTextDocument = new EventEmitter<FakeTextDocument>()
  readonly onDidChangeWorkspaceFolders = new EventEmitter<vscode.WorkspaceFoldersChangeEvent>()
  /** Documents shown in editor tabs (in one group), in the order shown. */
  readonly tabs: FakeTextDocument[] = []
  readonly onDidShowTextDocument = new EventEmitter<FakeTextDocument>()

  /** Back to an empty window. */
  reset(): void {
    this.folders = []
    this.documents.clear()
    this.commands.clear()
    this.diagnostics.clear()
    this.extensions = []
    this.messages.length = 0
    this.tabs.length = 0
    this.failingSaves.clear()
    this.applyEditGate = undefined
    this.saveGate = undefined
    resetProviders()
  }

  setFolders(roots: ReadonlyArray<string>): void {
    const before = this.folders
    this.folders = roots.map((root, index) => ({ uri: Uri.file(root), name: nodePath.basename(root), index }))
    this.onDidChangeWorkspaceFolders.fire({
      added: this.folders.filter((f) => !before.some((b) => b.uri.fsPath === f.uri.fsPath)),
      removed: before.filter((b) => !this.folders.some((f) => f.uri.fsPath === b.uri.fsPath)),
    })
  }

  languageOf(path: string): string {
    const extension = nodePath.extname(path).toLowerCase()
    for (const ext of this.extensions) {
      for (const language of ext.packageJSON.contributes?.languages ?? []) {
        if (language.extensions?.includes(extension)) return language.id
      }
    }
    return 'plaintext'
  }

  openDocument(uri: Uri): FakeTextDocument {
    const key = uri.toString()
    const open = this.documents.get(key)
    if (open) return open
    if (uri.scheme !== 'file' || !existsSync(uri.fsPath) || statSync(uri.fsPath).isDirectory()) {
      throw new Error(
        `cannot open ${key}. Detail: Unable to read file '${uri.fsPath}' (Error: Unable to resolve nonexistent file '${uri.fsPath}')`,
      )
    }
    const document = new FakeTextDocument(uri, this.languageOf(uri.fsPath), readFileSync(uri.fsPath, 'utf8'))
    this.documents.set(key, document)
    this.onDidOpenTextDocument.fire(document)
    return document
  }

  /** window.showTextDocument: a preview tab replaces the previous preview tab. */
  showDocument(document: FakeTextDocument): void {
    if (!this.tabs.includes(document)) this.tabs.push(document)
    this.onDidShowTextDocument.fire(document)
  }

  closeDocument(document: FakeTextDocument): void {
    this.documents.delete(document.uri.toString())
    document.isClosed = true
    this.onDidCloseTextDocument.fire(document)
  }

  async save(document: FakeTextDocument): Promise<boolean> {
    if (this.saveGate) await this.saveGate
    if (this.failingSaves.has(document.uri.fsPath)) return false
    writeFileSync(document.uri.fsPath, document.getText())
    document.markSaved()
    this.onDidSaveTextDocument.fire(document)
    return true
  }

  setDiagnostics(uri: Uri, list: vscode.Diagnostic[]): void {
    if (list.length === 0) this.diagnostics.delete(uri.toString())
    else this.diagnostics.set(uri.toString(), { uri, list })
    this.onDidChangeDiagnostics.fire({ uris: [uri] })
  }

  async executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.commands.get(command)
    if (handler) return handler(...args)
    // Commands that run the registered language feature providers (providers.ts).
    const provided = providerCommands[command]
    if (provided) return provided.run(this.openDocument(args[0] as Uri), args)
    if (command === 'vscode.provideSupertypes' || command === 'vscode.provideSubtypes') {
      return relatedTypes(command === 'vscode.provideSupertypes' ? 'supertypes' : 'subtypes', args[0] as vscode.TypeHierarchyItem)
    }
    if (command in builtinEmptyAnswers) return builtinEmptyAnswers[command]
    throw new Error(`command '${command}' not found`)
  }

  /**
   * workspace.applyEdit: every entry is checked first (VS Code refuses the whole edit when one step cannot
   * run), then text edits land in buffers (documents open in the background and become dirty) and file
   * operations on disk.
   */
  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    if (this.applyEditGate) await this.applyEditGate
    const entries = edit._allEntries()
    for (const entry of entries) {
      if (entry._type === 1) {
        if (entry.from && !entry.to && !existsSync(entry.from.fsPath) && !entry.options?.ignoreIfNotExists) return false
        if (entry.to && existsSync(entry.to.fsPath) && !entry.options?.overwrite && !entry.options?.ignoreIfExists && !entry.from)
          return false
      }
    }
    const pendingText = new Map<string, { uri: Uri; edits: TextEdit[] }>()
    const flush = () => {
      for (const { uri, edits } of pendingText.values()) this.openDocument(uri).applyEdits(edits)
      pendingText.clear()
    }
    for (const entry of entries as ReadonlyArray<WorkspaceEditEntry>) {
      if (entry._type === 2) {
        const group = pendingText.get(entry.uri.toString()) ?? { uri: entry.uri, edits: [] }
        group.edits.push(entry.edit)
        pendingText.set(entry.uri.toString(), group)
        continue
      }
      flush()
      if (entry._type === 6) continue // snippet edits need an editor; not used by these tests
      if (entry.from && entry.to) {
        mkdirSync(nodePath.dirname(entry.to.fsPath), { recursive: true })
        renameSync(entry.from.fsPath, entry.to.fsPath)
        const open = this.documents.get(entry.from.toString())
        if (open) {
          this.documents.delete(entry.from.toString())
          open.uri = entry.to
          this.documents.set(entry.to.toString(), open)
        }
      } else if (entry.to) {
        if (!(existsSync(entry.to.fsPath) && entry.options?.ignoreIfExists)) {
          mkdirSync(nodePath.dirname(entry.to.fsPath), { recursive: true })
          writeFileSync(entry.to.fsPath, '')
        }
      } else if (entry.from) {
        rmSync(entry.from.fsPath, { recursive: entry.options?.recursive === true, force: true })
        const open = this.documents.get(entry.from.toString())
        if (open) this.closeDocument(open)
      }
    }
    flush()
    return true
  }
}

/** The one fake window of a test file. */
export const host = new FakeHost()

/** Makes a fresh WorkspaceEdit (handy for tests building answers). */
export function workspaceEdit(): WorkspaceEdit {
  return new WorkspaceEdit()
}
