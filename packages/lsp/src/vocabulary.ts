/**
 * The closed vocabulary of the seam: operations, requests, results. Positions are zero-based lines and
 * UTF-16 code units, as in the Language Server Protocol. Paths are absolute file-system paths; `uri` fields
 * are `file:` URIs of the same files.
 */

/** A zero-based position: line, and UTF-16 code-unit offset within the line. */
export interface LspPosition {
  readonly line: number
  readonly character: number
}

/** A half-open range between two positions. */
export interface LspRange {
  readonly start: LspPosition
  readonly end: LspPosition
}

/** A place in a file. For links, `originSelectionRange` and `targetSelectionRange` are kept. */
export interface LspLocation {
  readonly uri: string
  /** Absolute path of `uri`. */
  readonly path: string
  /** The full target range (for a link, `targetRange`). */
  readonly range: LspRange
  /** For a link: the part of the target to highlight, usually the name. */
  readonly targetSelectionRange?: LspRange
  /** For a link: the span at the origin the link was computed for. */
  readonly originSelectionRange?: LspRange
}

/** A location in a library outside the workspace: where it is, and which library; its text is never read. */
export interface LspLibraryLocation {
  /** Absolute path, outside every workspace root. */
  readonly path: string
  readonly range: LspRange
  /** Which library, as people name it (`Go standard library`, `Go module cache`, `Rust toolchain sources`, …). */
  readonly library: string
}

/** Symbol kinds by name, in LSP SymbolKind order (1 = file … 26 = typeParameter). */
export const lspSymbolKinds = [
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enumMember',
  'struct',
  'event',
  'operator',
  'typeParameter',
] as const

/** A symbol kind by name. */
export type LspSymbolKind = (typeof lspSymbolKinds)[number]

/** Maps an LSP numeric SymbolKind to its name; numbers outside 1–26 become `object`. */
export function symbolKindFromNumber(kind: number): LspSymbolKind {
  return lspSymbolKinds[kind - 1] ?? 'object'
}

/** Maps a symbol kind name back to the LSP number. */
export function symbolKindToNumber(kind: LspSymbolKind): number {
  return lspSymbolKinds.indexOf(kind) + 1
}

/** Every operation of the seam. The union is closed: adding one breaks every exhaustive handler. */
export const lspOperations = [
  'definition',
  'typeDefinition',
  'declaration',
  'implementation',
  'references',
  'hover',
  'signatureHelp',
  'documentSymbols',
  'workspaceSymbols',
  'prepareCallHierarchy',
  'incomingCalls',
  'outgoingCalls',
  'prepareTypeHierarchy',
  'supertypes',
  'subtypes',
  'diagnostics',
  'inlayHints',
  'completion',
  'codeActions',
  'prepareRename',
  'rename',
  'format',
  'resolveCodeAction',
] as const

/** One operation of the seam. */
export type LspOperation = (typeof lspOperations)[number]

// ---------------------------------------------------------------------------------------------------------
// Requests

/** Every request names the workspace root it runs in (an absolute path of an open workspace). */
export interface LspRequestBase {
  readonly root: string
}

/** A request about one file. `path` is absolute or relative to `root`. */
export interface LspFileRequest extends LspRequestBase {
  readonly path: string
}

/** A request at one position in one file. */
export interface LspPositionRequest extends LspFileRequest {
  readonly position: LspPosition
}

/** An item returned by prepareCallHierarchy / prepareTypeHierarchy or a follow-up, passed back as is. */
export interface LspHierarchyItem {
  /** Stable id: the same symbol yields the same id across calls. */
  readonly id: string
  readonly name: string
  readonly kind: LspSymbolKind
  readonly detail?: string
  readonly uri: string
  readonly path: string
  readonly range: LspRange
  readonly selectionRange: LspRange
  /** Provider-private, JSON-serializable data needed to continue from this item. */
  readonly data?: unknown
}

/** A hierarchy follow-up: walks one level from an item. */
export interface LspHierarchyRequest extends LspRequestBase {
  readonly item: LspHierarchyItem
}

/** Formatting preferences sent with a format request. */
export interface LspFormattingOptions {
  readonly tabSize: number
  readonly insertSpaces: boolean
}

/** The request for each operation: each carries exactly the fields it needs. */
export interface LspRequestByOperation {
  readonly definition: LspPositionRequest
  readonly typeDefinition: LspPositionRequest
  readonly declaration: LspPositionRequest
  readonly implementation: LspPositionRequest
  /** References always include the declaration. */
  readonly references: LspPositionRequest
  readonly hover: LspPositionRequest
  readonly signatureHelp: LspPositionRequest
  readonly documentSymbols: LspFileRequest
  /** A non-empty query; fans out to every provider that supports it. */
  readonly workspaceSymbols: LspRequestBase & { readonly query: string }
  readonly prepareCallHierarchy: LspPositionRequest
  readonly incomingCalls: LspHierarchyRequest
  readonly outgoingCalls: LspHierarchyRequest
  readonly prepareTypeHierarchy: LspPositionRequest
  readonly supertypes: LspHierarchyRequest
  readonly subtypes: LspHierarchyRequest
  /**
   * Diagnostics of one file (`path`), or of the workspace when `path` is absent (fans out to every
   * provider). `waitMs` bounds how long to wait for diagnostics of the current document versions.
   */
  readonly diagnostics: LspRequestBase & {
    readonly path?: string
    readonly waitMs?: number
    /** Workspace diagnostics: at most this many files are opened to get them analysed. */
    readonly maxFiles?: number
  }
  /** Hints in `range`, or in the whole document. */
  readonly inlayHints: LspFileRequest & { readonly range?: LspRange }
  readonly completion: LspPositionRequest & { readonly triggerCharacter?: string }
  /** Actions for a range; `only` filters by kind prefix (e.g. `quickfix`, `source.organizeImports`). */
  readonly codeActions: LspFileRequest & { readonly range: LspRange; readonly only?: ReadonlyArray<string> }
  readonly prepareRename: LspPositionRequest
  readonly rename: LspPositionRequest & { readonly newName: string }
  /** Formats the document, or `range` of it. */
  readonly format: LspFileRequest & { readonly range?: LspRange; readonly options?: LspFormattingOptions }
  /** Computes everything an action from `codeActions` does. `actionId` is that action's opaque id. */
  readonly resolveCodeAction: LspFileRequest & { readonly actionId: string }
}

/** A request, discriminated on `operation`. */
export type LspQueryRequest = {
  [O in LspOperation]: { readonly operation: O } & LspRequestByOperation[O]
}[LspOperation]

/** The request type of one operation. */
export type LspRequestFor<O extends LspOperation> = Extract<LspQueryRequest, { readonly operation: O }>

// ---------------------------------------------------------------------------------------------------------
// Results

/** How far to trust a result. */
/**
 * How much of the workspace a workspace-wide answer (references, rename, implementation, incoming calls,
 * workspace symbols) searched. A server searches only what it has loaded: an answer over fewer projects
 * than exist misses every reference in the others, so an incomplete one says so.
 */
export interface LspSearchCoverage {
  /** Projects searched (TypeScript configs loaded, server folders asked), of `projectsFound`. */
  readonly projectsSearched: number
  readonly projectsFound: number
  /** Source files that belong to no project and were not opened (over the open-document limit), so not searched. */
  readonly filesNotSearched?: number
  /** Workspace-relative folders whose server was not asked (e.g. every server busy under limits.maxServers). */
  readonly rootsNotSearched?: ReadonlyArray<string>
  /** Files never sent to a server because they break a per-file limit, counted by limit (RFC 0013). */
  readonly filesSkipped?: ReadonlyArray<LspFilesSkipped>
  /**
   * What was searched when not everything (absent: every project found, RFC 0035): `projectsReachingTarget` — the
   * target's project and every project that can reach it (project references, workspace package links, path
   * aliases, relative imports), `projects` of them; then `projectsSearched` counts those searched and `complete`
   * means the answer is complete over them (a project that cannot reach the target holds no answer).
   */
  readonly searched?: { readonly kind: 'projectsReachingTarget'; readonly projects: number }
  /** Everything found was searched (with `searched`: every project that can reference the target was). */
  readonly complete: boolean
}

/**
 * Files a workspace-wide answer left out because they break a per-file limit (RFC 0013): larger than
 * `maxFileBytes`, a line longer than `maxLineLength` (a minified bundle), binary content (a NUL byte in the
 * first 8 KB), or text that is not UTF-8 (`notUtf8`: an 8-bit encoding such as Latin-1). `ceiling` is the limit in force (bytes, characters); none for binary.
 */
export interface LspFilesSkipped {
  readonly limit: 'maxFileBytes' | 'maxLineLength' | 'binary' | 'notUtf8'
  readonly count: number
  readonly ceiling?: number
}

export interface LspResultMeta {
  readonly providerId: string
  /** ready: fully loaded; indexing: still loading (results may be partial); degraded: answered after trouble. */
  readonly status: 'ready' | 'indexing' | 'degraded'
  /** Whether the server had already answered queries before (cold answers are slower, sometimes partial). */
  readonly warm: boolean
  /** Whether the provider cut the result short. */
  readonly truncated: boolean
  /** The version of the document the result was computed against, when known. */
  readonly documentVersion?: number
  /** The content hash of the document the result was computed against, when known. */
  readonly contentHash?: string
  /** The file changed on disk while the query ran: positions may be off. */
  readonly stale?: boolean
  /** Locations the server returned outside the workspace (or with non-file URIs), dropped. */
  readonly droppedOutsideWorkspace?: number
  /**
   * Locations outside the workspace in a library the backend knows (a language's standard library, a module
   * cache, a toolchain): named, never read, and not counted in `droppedOutsideWorkspace`.
   */
  readonly libraryLocations?: ReadonlyArray<LspLibraryLocation>
  /** Workspace-wide answers: how much of the workspace was searched. */
  readonly coverage?: LspSearchCoverage
  /**
   * What the provider took in from the disk before answering, when anything changed there since its last
   * question (files written, created or deleted by other tools), or when it left out locations in files that
   * are gone (RFC 0023).
   */
  readonly disk?: LspDiskCatchUp
  /** Providers that failed during a fan-out, with their error. */
  readonly failures?: ReadonlyArray<{ readonly providerId: string; readonly code: string; readonly message: string }>
  /** Present when no server offered the operation and the provider built the answer from others (RFC 0010). */
  readonly derived?: LspDerivation
  /**
   * Where the answer came from, when a provider answers from a precomputed index beside a live server (RFC 0034):
   * the index, the live server, or both merged, and which files the index holds stale. Optional: a provider with
   * one source of answers need not set it.
   */
  readonly source?: LspAnswerSource
  readonly elapsedMs: number
}

/** Where an answer came from (see {@link LspResultMeta.source}, RFC 0034). */
export interface LspAnswerSource {
  /** `index`: the precomputed index alone; `live`: the live server alone; `both`: the index's, merged with the live server's for stale files. */
  readonly origin: 'index' | 'live' | 'both'
  /** The index the answer (or its index part) came from; absent when the answer is the live server's alone and no index was used. */
  readonly index?: LspIndexBuild
  /**
   * Files (absolute paths) the index holds stale that this answer concerned: changed or deleted since indexing, or
   * added since. Their part of the answer is the live server's (a deleted file is left out); at most 100 are named.
   */
  readonly staleFiles?: ReadonlyArray<string>
  /** How many stale files there were, when more than `staleFiles` names. */
  readonly staleCount?: number
  /**
   * Files under the root, unchanged since indexing, that the index does not hold (no project the indexer loaded
   * included them): a workspace-wide answer from the index did not search them, where a live server that opens
   * files of no project would have. Absent when there are none or the index's sidecar does not list them.
   */
  readonly notIndexed?: number
}

/** A precomputed index: when and by what it was built. */
export interface LspIndexBuild {
  /** When indexing started (ISO 8601, UTC). */
  readonly indexedAt: string
  /** The indexer, e.g. `{ name: 'scip-typescript', version: '0.4.0' }`. */
  readonly indexer: { readonly name: string; readonly version: string }
  /** The compiler the indexer ran, e.g. `typescript 5.9.3`, when known. */
  readonly compiler?: string
}

/** What a provider took in from the disk before an answer (see {@link LspResultMeta.disk}). */
export interface LspDiskCatchUp {
  /** Files created, changed or deleted on disk since the provider's last question, told to its servers first. */
  readonly filesChanged: number
  /** How they were found: the folder's watch, or a scan of its files (a tree too large to watch). */
  readonly method: 'watch' | 'scan'
  /** Locations in files that no longer exist on disk, left out after the server was asked once more. */
  readonly locationsDropped?: number
}

/**
 * How a derived answer was built: the operations it was computed from (e.g. a type hierarchy from document
 * symbols, the class header's text and definitions), so a reader can weigh it against a native answer.
 */
export interface LspDerivation {
  /** The native operations the answer was built from, in the order they were asked. */
  readonly from: ReadonlyArray<LspOperation>
  /**
   * Declared bases that resolved to no declaration (an uninstalled package, `Generic[T]`, a call
   * expression), by the name written in the source: returned as name-only entries, counted, never guessed.
   */
  readonly unresolved?: ReadonlyArray<string>
}

/** Hover content, markdown or plain text. */
export interface LspHover {
  readonly contents: string
  readonly format: 'markdown' | 'plaintext'
  readonly range?: LspRange
}

/** A parameter of a signature; `label` is its text within the signature label. */
export interface LspParameterInformation {
  readonly label: string
  readonly documentation?: string
}

/** One signature of a call. */
export interface LspSignatureInformation {
  readonly label: string
  readonly documentation?: string
  readonly parameters: ReadonlyArray<LspParameterInformation>
  readonly activeParameter?: number
}

/** Signature help at a call site. */
export interface LspSignatureHelp {
  readonly signatures: ReadonlyArray<LspSignatureInformation>
  readonly activeSignature: number
  readonly activeParameter: number
}

/** A node of a document outline. */
export interface LspDocumentSymbol {
  /** The name as people aim at it (a Go method's `Value`, a Markdown header's `Setup`), not a server's label. */
  readonly name: string
  readonly kind: LspSymbolKind
  readonly detail?: string
  /**
   * The symbol's container when the outline does not nest it in one: a Go method's receiver type (`DemoStruct`
   * for `func (d *DemoStruct) Value()`, which gopls lists beside the type). Targeting qualifies it with this.
   */
  readonly containerName?: string
  readonly range: LspRange
  readonly selectionRange: LspRange
  readonly children: ReadonlyArray<LspDocumentSymbol>
}

/** A symbol found by workspace search. */
export interface LspWorkspaceSymbol {
  readonly name: string
  readonly kind: LspSymbolKind
  readonly containerName?: string
  readonly location: LspLocation
}

/** A call in a call hierarchy: the other end and the call-site ranges (in the caller's file). */
export interface LspHierarchyCall {
  readonly item: LspHierarchyItem
  readonly fromRanges: ReadonlyArray<LspRange>
}

/** Diagnostic severity by name. */
export type LspDiagnosticSeverity = 'error' | 'warning' | 'information' | 'hint'

/** One diagnostic. */
export interface LspDiagnostic {
  readonly range: LspRange
  readonly severity: LspDiagnosticSeverity
  readonly message: string
  readonly code?: string | number
  readonly source?: string
  readonly tags?: ReadonlyArray<'unnecessary' | 'deprecated'>
  readonly related?: ReadonlyArray<{ readonly location: LspLocation; readonly message: string }>
}

/** The diagnostics of one file and how fresh they are. */
export interface LspFileDiagnostics {
  readonly uri: string
  readonly path: string
  /** Document version the diagnostics were computed for, when known. */
  readonly version?: number
  /** current: computed for the document as it is now; stale: for an older version; unknown: cannot tell. */
  readonly freshness: 'current' | 'stale' | 'unknown'
  readonly diagnostics: ReadonlyArray<LspDiagnostic>
}

/** Which files a diagnostics answer actually covers. */
export interface LspDiagnosticsCoverage {
  /** Files whose analysis is included (paths). */
  readonly analysed: ReadonlyArray<string>
  /** Files that could have been analysed (when the provider knows). */
  readonly eligible?: number
  /** Eligible files never sent to a server because they break a per-file limit, counted by limit (RFC 0013). */
  readonly filesSkipped?: ReadonlyArray<LspFilesSkipped>
  /** Some eligible files that were not analysed (a bounded answer's first few, paths), when the provider knows them. */
  readonly notAnalysed?: ReadonlyArray<string>
  /** Whether every eligible file was analysed. */
  readonly complete: boolean
}

/** A label part of an inlay hint. */
export interface LspInlayHintLabelPart {
  readonly value: string
  readonly tooltip?: string
  readonly location?: LspLocation
}

/** An inlay hint: an inferred type or parameter name shown inline. */
export interface LspInlayHint {
  readonly position: LspPosition
  readonly label: string | ReadonlyArray<LspInlayHintLabelPart>
  readonly kind?: 'type' | 'parameter'
  readonly paddingLeft?: boolean
  readonly paddingRight?: boolean
  readonly textEdits?: ReadonlyArray<LspTextEdit>
}

/** A completion item. */
export interface LspCompletionItem {
  readonly label: string
  readonly kind?: string
  readonly detail?: string
  readonly documentation?: string
  readonly insertText?: string
  readonly sortText?: string
}

/** A code action as listed. `id` is opaque and bound to the document version it was computed for. */
export interface LspCodeAction {
  readonly id: string
  readonly title: string
  readonly kind?: string
  readonly isPreferred?: boolean
  /** Why the action cannot run now; a disabled action cannot be resolved. */
  readonly disabledReason?: string
  readonly hasEdit: boolean
  readonly hasCommand: boolean
}

/** One text edit. `snippet` marks a snippet edit whose placeholders must be removed before applying. */
export interface LspTextEdit {
  readonly range: LspRange
  readonly newText: string
  readonly annotationId?: string
  readonly snippet?: boolean
}

/** Edits to one document, computed against `version` (null: unknown / the file on disk). */
export interface LspTextDocumentEdit {
  readonly type: 'edit'
  readonly uri: string
  readonly path: string
  readonly version: number | null
  readonly edits: ReadonlyArray<LspTextEdit>
}

/** Create a file. */
export interface LspCreateFile {
  readonly type: 'create'
  readonly uri: string
  readonly path: string
  readonly options?: { readonly overwrite?: boolean; readonly ignoreIfExists?: boolean }
  readonly annotationId?: string
}

/** Rename (move) a file or folder. */
export interface LspRenameFile {
  readonly type: 'rename'
  readonly oldUri: string
  readonly oldPath: string
  readonly newUri: string
  readonly newPath: string
  readonly options?: { readonly overwrite?: boolean; readonly ignoreIfExists?: boolean }
  readonly annotationId?: string
}

/** Delete a file or folder. */
export interface LspDeleteFile {
  readonly type: 'delete'
  readonly uri: string
  readonly path: string
  readonly options?: { readonly recursive?: boolean; readonly ignoreIfNotExists?: boolean }
  readonly annotationId?: string
}

/** One step of a workspace edit, in order. */
export type LspWorkspaceEditOperation = LspTextDocumentEdit | LspCreateFile | LspRenameFile | LspDeleteFile

/** Why a change was made; `needsConfirmation` means a person must approve it. */
export interface LspChangeAnnotation {
  readonly label: string
  readonly description?: string
  readonly needsConfirmation?: boolean
}

/** A normalized workspace edit: ordered operations plus change annotations. */
export interface LspWorkspaceEdit {
  readonly operations: ReadonlyArray<LspWorkspaceEditOperation>
  readonly annotations?: Readonly<Record<string, LspChangeAnnotation>>
}

/** The outcome of a command run while resolving a code action. */
export interface LspCommandOutcome {
  readonly title: string
  readonly command: string
  /** What the command returned (JSON). */
  readonly result?: unknown
  /** Edits the server asked the client to apply while the command ran, captured rather than applied. */
  readonly appliedEdits: ReadonlyArray<LspWorkspaceEdit>
}

/** Every result variant, discriminated on `kind`. Each carries {@link LspResultMeta}. */
export type LspQueryResult =
  | { readonly kind: 'locations'; readonly locations: ReadonlyArray<LspLocation>; readonly meta: LspResultMeta }
  | { readonly kind: 'hover'; readonly hover: LspHover | null; readonly meta: LspResultMeta }
  | { readonly kind: 'signatureHelp'; readonly signatureHelp: LspSignatureHelp | null; readonly meta: LspResultMeta }
  | { readonly kind: 'documentSymbols'; readonly symbols: ReadonlyArray<LspDocumentSymbol>; readonly meta: LspResultMeta }
  | { readonly kind: 'workspaceSymbols'; readonly symbols: ReadonlyArray<LspWorkspaceSymbol>; readonly meta: LspResultMeta }
  | { readonly kind: 'hierarchyItems'; readonly items: ReadonlyArray<LspHierarchyItem>; readonly meta: LspResultMeta }
  | { readonly kind: 'hierarchyCalls'; readonly calls: ReadonlyArray<LspHierarchyCall>; readonly meta: LspResultMeta }
  | {
      readonly kind: 'diagnostics'
      readonly files: ReadonlyArray<LspFileDiagnostics>
      readonly coverage: LspDiagnosticsCoverage
      readonly meta: LspResultMeta
    }
  | { readonly kind: 'inlayHints'; readonly hints: ReadonlyArray<LspInlayHint>; readonly meta: LspResultMeta }
  | {
      readonly kind: 'completion'
      readonly items: ReadonlyArray<LspCompletionItem>
      readonly isIncomplete: boolean
      readonly meta: LspResultMeta
    }
  | { readonly kind: 'codeActions'; readonly actions: ReadonlyArray<LspCodeAction>; readonly meta: LspResultMeta }
  | {
      readonly kind: 'prepareRename'
      /** canRename false: `reason` is the server's own words when it gave any. */
      readonly rename:
        | { readonly canRename: true; readonly range: LspRange; readonly placeholder: string }
        | { readonly canRename: false; readonly reason: string }
      readonly meta: LspResultMeta
    }
  | { readonly kind: 'workspaceEdit'; readonly edit: LspWorkspaceEdit; readonly meta: LspResultMeta }
  | {
      readonly kind: 'codeActionResolution'
      readonly title: string
      /** The action's own edit (empty operations when it has none). */
      readonly edit: LspWorkspaceEdit
      /** For command-bearing actions: what running the command did. */
      readonly command?: LspCommandOutcome
      readonly meta: LspResultMeta
    }

/** A result kind. */
export type LspResultKind = LspQueryResult['kind']

/** The result kind of each operation: the type-level map that makes `query` precisely typed. */
export const resultKindByOperation = {
  definition: 'locations',
  typeDefinition: 'locations',
  declaration: 'locations',
  implementation: 'locations',
  references: 'locations',
  hover: 'hover',
  signatureHelp: 'signatureHelp',
  documentSymbols: 'documentSymbols',
  workspaceSymbols: 'workspaceSymbols',
  prepareCallHierarchy: 'hierarchyItems',
  incomingCalls: 'hierarchyCalls',
  outgoingCalls: 'hierarchyCalls',
  prepareTypeHierarchy: 'hierarchyItems',
  supertypes: 'hierarchyItems',
  subtypes: 'hierarchyItems',
  diagnostics: 'diagnostics',
  inlayHints: 'inlayHints',
  completion: 'completion',
  codeActions: 'codeActions',
  prepareRename: 'prepareRename',
  rename: 'workspaceEdit',
  format: 'workspaceEdit',
  resolveCodeAction: 'codeActionResolution',
} as const satisfies { readonly [O in LspOperation]: LspResultKind }

/** The result of one operation. */
export type LspResultFor<O extends LspOperation> = Extract<LspQueryResult, { readonly kind: (typeof resultKindByOperation)[O] }>

/** How an operation selects its provider. */
export type LspOperationScope =
  /** By the extension of `path`. */
  | 'file'
  /** By the extension of `item.path`. */
  | 'item'
  /** Fans out to every provider that supports it. */
  | 'workspace'
  /** By `path` when given, else fans out (diagnostics). */
  | 'fileOrWorkspace'

/**
 * Facts about each operation that the registry, providers and tools use.
 * - `scope`: how the registry picks the provider ({@link LspOperationScope}).
 * - `producesEdit`: the answer is an edit a caller may apply.
 * - `coversEveryProject`: a complete answer must search every project under the root (a reference in any
 *   of them counts), so a provider loads them all first and reports {@link LspSearchCoverage}.
 */
export const operationInfo = {
  definition: { scope: 'file', producesEdit: false, coversEveryProject: false },
  typeDefinition: { scope: 'file', producesEdit: false, coversEveryProject: false },
  declaration: { scope: 'file', producesEdit: false, coversEveryProject: false },
  implementation: { scope: 'file', producesEdit: false, coversEveryProject: true },
  references: { scope: 'file', producesEdit: false, coversEveryProject: true },
  hover: { scope: 'file', producesEdit: false, coversEveryProject: false },
  signatureHelp: { scope: 'file', producesEdit: false, coversEveryProject: false },
  documentSymbols: { scope: 'file', producesEdit: false, coversEveryProject: false },
  workspaceSymbols: { scope: 'workspace', producesEdit: false, coversEveryProject: true },
  prepareCallHierarchy: { scope: 'file', producesEdit: false, coversEveryProject: false },
  incomingCalls: { scope: 'item', producesEdit: false, coversEveryProject: true },
  outgoingCalls: { scope: 'item', producesEdit: false, coversEveryProject: false },
  prepareTypeHierarchy: { scope: 'file', producesEdit: false, coversEveryProject: false },
  supertypes: { scope: 'item', producesEdit: false, coversEveryProject: false },
  subtypes: { scope: 'item', producesEdit: false, coversEveryProject: false },
  diagnostics: { scope: 'fileOrWorkspace', producesEdit: false, coversEveryProject: false },
  inlayHints: { scope: 'file', producesEdit: false, coversEveryProject: false },
  completion: { scope: 'file', producesEdit: false, coversEveryProject: false },
  codeActions: { scope: 'file', producesEdit: false, coversEveryProject: false },
  prepareRename: { scope: 'file', producesEdit: false, coversEveryProject: false },
  rename: { scope: 'file', producesEdit: true, coversEveryProject: true },
  format: { scope: 'file', producesEdit: true, coversEveryProject: false },
  resolveCodeAction: { scope: 'file', producesEdit: true, coversEveryProject: false },
} as const satisfies {
  readonly [O in LspOperation]: {
    readonly scope: LspOperationScope
    readonly producesEdit: boolean
    readonly coversEveryProject: boolean
  }
}
