/**
 * VS Code's value classes and enums, following @types/vscode 1.140 (and, where the declarations leave it
 * open, VS Code's own extHostTypes: 0-based SymbolKind, WorkspaceEdit's `_allEntries`, …). Classes that the
 * declarations describe fully are checked against them with `implements`.
 */
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import type * as vscode from 'vscode'

// --- enums (numeric values as in @types/vscode) ------------------------------------------------------------

export enum EndOfLine {
  LF = 1,
  CRLF = 2,
}
export enum SymbolKind {
  File = 0,
  Module = 1,
  Namespace = 2,
  Package = 3,
  Class = 4,
  Method = 5,
  Property = 6,
  Field = 7,
  Constructor = 8,
  Enum = 9,
  Interface = 10,
  Function = 11,
  Variable = 12,
  Constant = 13,
  String = 14,
  Number = 15,
  Boolean = 16,
  Array = 17,
  Object = 18,
  Key = 19,
  Null = 20,
  EnumMember = 21,
  Struct = 22,
  Event = 23,
  Operator = 24,
  TypeParameter = 25,
}
export enum SymbolTag {
  Deprecated = 1,
}
export enum CompletionItemKind {
  Text = 0,
  Method = 1,
  Function = 2,
  Constructor = 3,
  Field = 4,
  Variable = 5,
  Class = 6,
  Interface = 7,
  Module = 8,
  Property = 9,
  Unit = 10,
  Value = 11,
  Enum = 12,
  Keyword = 13,
  Snippet = 14,
  Color = 15,
  Reference = 17,
  File = 16,
  Folder = 18,
  EnumMember = 19,
  Constant = 20,
  Struct = 21,
  Event = 22,
  Operator = 23,
  TypeParameter = 24,
  User = 25,
  Issue = 26,
}
export enum CompletionItemTag {
  Deprecated = 1,
}
export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}
export enum DiagnosticTag {
  Unnecessary = 1,
  Deprecated = 2,
}
export enum InlayHintKind {
  Type = 1,
  Parameter = 2,
}
export enum DocumentHighlightKind {
  Text = 0,
  Read = 1,
  Write = 2,
}
export enum FoldingRangeKind {
  Comment = 1,
  Imports = 2,
  Region = 3,
}
export enum CodeActionTriggerKind {
  Invoke = 1,
  Automatic = 2,
}
export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
}

// --- Uri -------------------------------------------------------------------------------------------------------

export class Uri implements vscode.Uri {
  static file(path: string): Uri {
    const url = pathToFileURL(path)
    return new Uri('file', '', decodeURIComponent(url.pathname), '', '')
  }
  static parse(value: string): Uri {
    const match = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value)
    if (!match) throw new Error(`[UriError]: cannot parse ${value}`)
    return new Uri(match[1]!, match[2] ?? '', decodeURIComponent(match[3] ?? ''), match[4] ?? '', match[5] ?? '')
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: nodePath.posix.join(base.path, ...segments) })
  }
  static from(components: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(components.scheme, components.authority ?? '', components.path ?? '', components.query ?? '', components.fragment ?? '')
  }
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  get fsPath(): string {
    return this.scheme === 'file' ? nodePath.normalize(this.path) : this.path
  }
  with(change: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    )
  }
  toString(): string {
    const path = this.path
      .split('/')
      .map((s) => encodeURIComponent(s).replace(/%3A/g, ':'))
      .join('/')
    return `${this.scheme}://${this.authority}${path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`
  }
  toJSON(): unknown {
    return { scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment }
  }
}

// --- positions -------------------------------------------------------------------------------------------------

export class Position implements vscode.Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {
    if (line < 0 || character < 0) throw new Error('Illegal argument: line and character must be non-negative')
  }
  isBefore(other: Position): boolean {
    return this.compareTo(other) < 0
  }
  isBeforeOrEqual(other: Position): boolean {
    return this.compareTo(other) <= 0
  }
  isAfter(other: Position): boolean {
    return this.compareTo(other) > 0
  }
  isAfterOrEqual(other: Position): boolean {
    return this.compareTo(other) >= 0
  }
  isEqual(other: Position): boolean {
    return this.compareTo(other) === 0
  }
  compareTo(other: Position): number {
    return this.line - other.line || this.character - other.character
  }
  translate(lineDeltaOrChange?: number | { lineDelta?: number; characterDelta?: number }, characterDelta = 0): Position {
    if (typeof lineDeltaOrChange === 'object')
      return new Position(this.line + (lineDeltaOrChange.lineDelta ?? 0), this.character + (lineDeltaOrChange.characterDelta ?? 0))
    return new Position(this.line + (lineDeltaOrChange ?? 0), this.character + characterDelta)
  }
  with(lineOrChange?: number | { line?: number; character?: number }, character?: number): Position {
    if (typeof lineOrChange === 'object') return new Position(lineOrChange.line ?? this.line, lineOrChange.character ?? this.character)
    return new Position(lineOrChange ?? this.line, character ?? this.character)
  }
}

export class Range implements vscode.Range {
  readonly start: Position
  readonly end: Position
  constructor(start: Position, end: Position)
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number)
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    const start = typeof a === 'number' ? new Position(a, b as number) : a
    const end = typeof a === 'number' ? new Position(c!, d!) : (b as Position)
    // VS Code orders the ends.
    ;[this.start, this.end] = start.isAfter(end) ? [end, start] : [start, end]
  }
  get isEmpty(): boolean {
    return this.start.isEqual(this.end)
  }
  get isSingleLine(): boolean {
    return this.start.line === this.end.line
  }
  contains(value: Position | Range): boolean {
    if (value instanceof Range) return this.contains(value.start) && this.contains(value.end)
    return value.isAfterOrEqual(this.start) && value.isBeforeOrEqual(this.end)
  }
  isEqual(other: Range): boolean {
    return this.start.isEqual(other.start) && this.end.isEqual(other.end)
  }
  intersection(other: Range): Range | undefined {
    const start = this.start.isAfter(other.start) ? this.start : other.start
    const end = this.end.isBefore(other.end) ? this.end : other.end
    return start.isAfter(end) ? undefined : new Range(start, end)
  }
  union(other: Range): Range {
    return new Range(this.start.isBefore(other.start) ? this.start : other.start, this.end.isAfter(other.end) ? this.end : other.end)
  }
  with(startOrChange?: Position | { start?: Position; end?: Position }, end?: Position): Range {
    if (startOrChange !== undefined && !(startOrChange instanceof Position))
      return new Range(startOrChange.start ?? this.start, startOrChange.end ?? this.end)
    return new Range(startOrChange ?? this.start, end ?? this.end)
  }
}

export class Selection extends Range {
  constructor(
    readonly anchor: Position,
    readonly active: Position,
  ) {
    super(anchor, active)
  }
  get isReversed(): boolean {
    return this.anchor === this.end
  }
}

export class Location implements vscode.Location {
  range: Range
  constructor(
    public uri: Uri,
    rangeOrPosition: Range | Position,
  ) {
    this.range = rangeOrPosition instanceof Position ? new Range(rangeOrPosition, rangeOrPosition) : rangeOrPosition
  }
}

// --- text values -----------------------------------------------------------------------------------------------

export class MarkdownString implements vscode.MarkdownString {
  isTrusted?: boolean | { readonly enabledCommands: readonly string[] }
  supportThemeIcons?: boolean
  supportHtml?: boolean
  baseUri?: Uri
  constructor(
    public value = '',
    supportThemeIcons = false,
  ) {
    this.supportThemeIcons = supportThemeIcons
  }
  appendText(value: string): MarkdownString {
    this.value += value.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&').replace(/\n/g, '\n\n')
    return this
  }
  appendMarkdown(value: string): MarkdownString {
    this.value += value
    return this
  }
  appendCodeblock(value: string, language = ''): MarkdownString {
    this.value += `\n\`\`\`${language}\n${value}\n\`\`\`\n`
    return this
  }
}

export class SnippetString implements vscode.SnippetString {
  constructor(public value = '') {}
  appendText(string: string): SnippetString {
    this.value += string.replace(/[$}\\]/g, '\\$&')
    return this
  }
  appendTabstop(number = 1): SnippetString {
    this.value += `$${number}`
    return this
  }
  appendPlaceholder(value: string | ((snippet: SnippetString) => unknown), number = 1): SnippetString {
    this.value += `\${${number}:${typeof value === 'string' ? value : ''}}`
    return this
  }
  appendChoice(values: readonly string[], number = 1): SnippetString {
    this.value += `\${${number}|${values.join(',')}|}`
    return this
  }
  appendVariable(name: string, defaultValue?: string | ((snippet: SnippetString) => unknown)): SnippetString {
    this.value += typeof defaultValue === 'string' ? `\${${name}:${defaultValue}}` : `\${${name}}`
    return this
  }
}

export class TextEdit {
  static replace(range: Range, newText: string): TextEdit {
    return new TextEdit(range, newText)
  }
  static insert(position: Position, newText: string): TextEdit {
    return new TextEdit(new Range(position, position), newText)
  }
  static delete(range: Range): TextEdit {
    return new TextEdit(range, '')
  }
  static setEndOfLine(eol: EndOfLine): TextEdit {
    const e = new TextEdit(new Range(0, 0, 0, 0), '')
    e.newEol = eol
    return e
  }
  newEol?: EndOfLine
  constructor(
    public range: Range,
    public newText: string,
  ) {}
}

export class SnippetTextEdit {
  static replace(range: Range, snippet: SnippetString): SnippetTextEdit {
    return new SnippetTextEdit(range, snippet)
  }
  static insert(position: Position, snippet: SnippetString): SnippetTextEdit {
    return new SnippetTextEdit(new Range(position, position), snippet)
  }
  keepWhitespace?: boolean
  constructor(
    public range: Range,
    public snippet: SnippetString,
  ) {}
}

/** extHostTypes' FileEditType. */
const enum FileEditType {
  File = 1,
  Text = 2,
  Snippet = 6,
}

export type WorkspaceEditEntry =
  | {
      readonly _type: FileEditType.File
      readonly from?: Uri
      readonly to?: Uri
      readonly options?: Record<string, unknown>
      readonly metadata?: vscode.WorkspaceEditEntryMetadata
    }
  | { readonly _type: FileEditType.Text; readonly uri: Uri; readonly edit: TextEdit; readonly metadata?: vscode.WorkspaceEditEntryMetadata }
  | {
      readonly _type: FileEditType.Snippet
      readonly uri: Uri
      readonly range: Range
      readonly edit: SnippetString
      readonly metadata?: vscode.WorkspaceEditEntryMetadata
    }

/** As in extHostTypes: one ordered list of entries; `entries()` shows only the text edits. */
export class WorkspaceEdit {
  private readonly _edits: WorkspaceEditEntry[] = []
  _allEntries(): ReadonlyArray<WorkspaceEditEntry> {
    return this._edits
  }
  renameFile(
    from: Uri,
    to: Uri,
    options?: { overwrite?: boolean; ignoreIfExists?: boolean },
    metadata?: vscode.WorkspaceEditEntryMetadata,
  ): void {
    this._edits.push({ _type: FileEditType.File, from, to, ...(options ? { options } : {}), ...(metadata ? { metadata } : {}) })
  }
  createFile(
    uri: Uri,
    options?: { overwrite?: boolean; ignoreIfExists?: boolean; contents?: Uint8Array },
    metadata?: vscode.WorkspaceEditEntryMetadata,
  ): void {
    this._edits.push({ _type: FileEditType.File, to: uri, ...(options ? { options } : {}), ...(metadata ? { metadata } : {}) })
  }
  deleteFile(uri: Uri, options?: { recursive?: boolean; ignoreIfNotExists?: boolean }, metadata?: vscode.WorkspaceEditEntryMetadata): void {
    this._edits.push({ _type: FileEditType.File, from: uri, ...(options ? { options } : {}), ...(metadata ? { metadata } : {}) })
  }
  replace(uri: Uri, range: Range, newText: string, metadata?: vscode.WorkspaceEditEntryMetadata): void {
    this._edits.push({ _type: FileEditType.Text, uri, edit: new TextEdit(range, newText), ...(metadata ? { metadata } : {}) })
  }
  insert(uri: Uri, position: Position, newText: string, metadata?: vscode.WorkspaceEditEntryMetadata): void {
    this.replace(uri, new Range(position, position), newText, metadata)
  }
  delete(uri: Uri, range: Range, metadata?: vscode.WorkspaceEditEntryMetadata): void {
    this.replace(uri, range, '', metadata)
  }
  has(uri: Uri): boolean {
    return this._edits.some((e) => e._type !== FileEditType.File && e.uri.toString() === uri.toString())
  }
  set(
    uri: Uri,
    edits:
      | ReadonlyArray<TextEdit | SnippetTextEdit | [TextEdit | SnippetTextEdit, vscode.WorkspaceEditEntryMetadata | undefined]>
      | null
      | undefined,
  ): void {
    for (let i = this._edits.length - 1; i >= 0; i--) {
      const e = this._edits[i]!
      if (e._type !== FileEditType.File && e.uri.toString() === uri.toString()) this._edits.splice(i, 1)
    }
    for (const item of edits ?? []) {
      const [edit, metadata] = Array.isArray(item) ? item : [item, undefined]
      if (edit instanceof SnippetTextEdit)
        this._edits.push({ _type: FileEditType.Snippet, uri, range: edit.range, edit: edit.snippet, ...(metadata ? { metadata } : {}) })
      else this._edits.push({ _type: FileEditType.Text, uri, edit, ...(metadata ? { metadata } : {}) })
    }
  }
  get(uri: Uri): TextEdit[] {
    return this._edits.flatMap((e) => (e._type === FileEditType.Text && e.uri.toString() === uri.toString() ? [e.edit] : []))
  }
  get size(): number {
    return new Set(this._edits.flatMap((e) => (e._type === FileEditType.File ? [] : [e.uri.toString()]))).size
  }
  entries(): [Uri, TextEdit[]][] {
    const byUri = new Map<string, [Uri, TextEdit[]]>()
    for (const e of this._edits) {
      if (e._type !== FileEditType.Text) continue
      const entry = byUri.get(e.uri.toString()) ?? [e.uri, []]
      entry[1].push(e.edit)
      byUri.set(e.uri.toString(), entry)
    }
    return [...byUri.values()]
  }
}

// --- language feature values ---------------------------------------------------------------------------------

export class Hover {
  contents: Array<MarkdownString | vscode.MarkedString>
  constructor(
    contents: MarkdownString | vscode.MarkedString | Array<MarkdownString | vscode.MarkedString>,
    public range?: Range,
  ) {
    this.contents = Array.isArray(contents) ? contents : [contents]
  }
}

export class ParameterInformation {
  constructor(
    public label: string | [number, number],
    public documentation?: string | MarkdownString,
  ) {}
}
export class SignatureInformation {
  parameters: ParameterInformation[] = []
  activeParameter?: number
  constructor(
    public label: string,
    public documentation?: string | MarkdownString,
  ) {}
}
export class SignatureHelp {
  signatures: SignatureInformation[] = []
  activeSignature = 0
  activeParameter = 0
}

export class SymbolInformation {
  location: Location
  constructor(name: string, kind: SymbolKind, containerName: string | undefined, location: Location)
  constructor(name: string, kind: SymbolKind, range: Range, uri?: Uri, containerName?: string)
  constructor(
    public name: string,
    public kind: SymbolKind,
    a: string | undefined | Range,
    b?: Location | Uri,
    c?: string,
  ) {
    if (a instanceof Range) {
      this.location = new Location(b as Uri, a)
      this.containerName = c
    } else {
      this.location = b as Location
      this.containerName = a
    }
  }
  containerName: string | undefined
  tags?: SymbolTag[]
}

export class DocumentSymbol {
  children: DocumentSymbol[] = []
  tags?: SymbolTag[]
  constructor(
    public name: string,
    public detail: string,
    public kind: SymbolKind,
    public range: Range,
    public selectionRange: Range,
  ) {}
}

export class CallHierarchyItem {
  tags?: SymbolTag[]
  detail?: string
  constructor(
    public kind: SymbolKind,
    public name: string,
    detail: string,
    public uri: Uri,
    public range: Range,
    public selectionRange: Range,
  ) {
    this.detail = detail
  }
}
export class CallHierarchyIncomingCall {
  constructor(
    public from: CallHierarchyItem,
    public fromRanges: Range[],
  ) {}
}
export class CallHierarchyOutgoingCall {
  constructor(
    public to: CallHierarchyItem,
    public fromRanges: Range[],
  ) {}
}
export class TypeHierarchyItem {
  tags?: SymbolTag[]
  detail?: string
  constructor(
    public kind: SymbolKind,
    public name: string,
    detail: string,
    public uri: Uri,
    public range: Range,
    public selectionRange: Range,
  ) {
    this.detail = detail
  }
}

export class DiagnosticRelatedInformation {
  constructor(
    public location: Location,
    public message: string,
  ) {}
}
export class Diagnostic {
  source?: string
  code?: string | number | { value: string | number; target: Uri }
  relatedInformation?: DiagnosticRelatedInformation[]
  tags?: DiagnosticTag[]
  constructor(
    public range: Range,
    public message: string,
    public severity: DiagnosticSeverity = DiagnosticSeverity.Error,
  ) {}
}

export class CodeActionKind {
  static readonly Empty = new CodeActionKind('')
  static readonly QuickFix = new CodeActionKind('quickfix')
  static readonly Refactor = new CodeActionKind('refactor')
  static readonly RefactorExtract = new CodeActionKind('refactor.extract')
  static readonly RefactorInline = new CodeActionKind('refactor.inline')
  static readonly RefactorMove = new CodeActionKind('refactor.move')
  static readonly RefactorRewrite = new CodeActionKind('refactor.rewrite')
  static readonly Source = new CodeActionKind('source')
  static readonly SourceOrganizeImports = new CodeActionKind('source.organizeImports')
  static readonly SourceFixAll = new CodeActionKind('source.fixAll')
  static readonly Notebook = new CodeActionKind('notebook')
  private constructor(readonly value: string) {}
  append(parts: string): CodeActionKind {
    return new CodeActionKind(this.value ? `${this.value}.${parts}` : parts)
  }
  intersects(other: CodeActionKind): boolean {
    return this.contains(other) || other.contains(this)
  }
  contains(other: CodeActionKind): boolean {
    return this.value === other.value || this.value === '' || other.value.startsWith(`${this.value}.`)
  }
}

export class CodeAction {
  edit?: WorkspaceEdit
  diagnostics?: Diagnostic[]
  command?: vscode.Command
  isPreferred?: boolean
  disabled?: { readonly reason: string }
  constructor(
    public title: string,
    public kind?: CodeActionKind,
  ) {}
}

export class InlayHintLabelPart {
  tooltip?: string | MarkdownString
  location?: Location
  command?: vscode.Command
  constructor(public value: string) {}
}
export class InlayHint {
  tooltip?: string | MarkdownString
  textEdits?: TextEdit[]
  paddingLeft?: boolean
  paddingRight?: boolean
  constructor(
    public position: Position,
    public label: string | InlayHintLabelPart[],
    public kind?: InlayHintKind,
  ) {}
}

export class CompletionItem {
  kind?: CompletionItemKind
  tags?: CompletionItemTag[]
  detail?: string
  documentation?: string | MarkdownString
  sortText?: string
  filterText?: string
  preselect?: boolean
  insertText?: string | SnippetString
  range?: Range | { inserting: Range; replacing: Range }
  commitCharacters?: string[]
  keepWhitespace?: boolean
  additionalTextEdits?: TextEdit[]
  command?: vscode.Command
  constructor(
    public label: string | vscode.CompletionItemLabel,
    kind?: CompletionItemKind,
  ) {
    if (kind !== undefined) this.kind = kind
  }
}
export class CompletionList {
  constructor(
    public items: CompletionItem[] = [],
    public isIncomplete = false,
  ) {}
}

export class CodeLens {
  command?: vscode.Command
  constructor(
    public range: Range,
    command?: vscode.Command,
  ) {
    if (command) this.command = command
  }
  get isResolved(): boolean {
    return this.command !== undefined
  }
}
export class DocumentLink {
  tooltip?: string
  constructor(
    public range: Range,
    public target?: Uri,
  ) {}
}

export class RelativePattern {
  readonly baseUri: Uri
  readonly base: string
  constructor(
    base: vscode.WorkspaceFolder | Uri | string,
    public pattern: string,
  ) {
    this.baseUri = typeof base === 'string' ? Uri.file(base) : base instanceof Uri ? base : (base.uri as Uri)
    this.base = this.baseUri.fsPath
  }
}

// --- events and cancellation -----------------------------------------------------------------------------------

export class Disposable {
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()))
  }
  constructor(private readonly callOnDispose: () => unknown) {}
  dispose(): unknown {
    return this.callOnDispose()
  }
}

export class EventEmitter<T> {
  private readonly listeners = new Set<(e: T) => unknown>()
  private readonly subscriptionWaiters: Array<() => void> = []
  readonly event = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]): Disposable => {
    const bound = (e: T) => listener.call(thisArgs, e)
    this.listeners.add(bound)
    for (const waiter of this.subscriptionWaiters.splice(0)) waiter()
    const disposable = new Disposable(() => this.listeners.delete(bound))
    disposables?.push(disposable)
    return disposable
  }
  fire(data: T): void {
    for (const listener of Array.from(this.listeners)) listener(data)
  }
  /**
   * Test hook (not in VS Code): resolves when the next listener subscribes, so a test can fire an event
   * exactly when the code under test is listening for it instead of racing it.
   */
  subscribed(): Promise<void> {
    return new Promise((resolve) => this.subscriptionWaiters.push(resolve))
  }
  dispose(): void {
    this.listeners.clear()
  }
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<unknown>()
  readonly token: vscode.CancellationToken = {
    isCancellationRequested: false,
    onCancellationRequested: this.emitter.event as vscode.Event<unknown>,
  }
  cancel(): void {
    ;(this.token as { isCancellationRequested: boolean }).isCancellationRequested = true
    this.emitter.fire(undefined)
  }
  dispose(): void {
    this.emitter.dispose()
  }
}
