import type { Containment, WorkspacePath } from './containment.js'
import type { LspLanguageFacts } from './language-facts.js'
import type { LspDiagnostic, LspOperation, LspQueryRequest, LspResultFor, LspWorkspaceEdit } from './vocabulary.js'

/** A provider id: non-empty, trimmed, validated by {@link providerId}. */
export type ProviderId = string & { readonly __brand: 'ProviderId' }

/** The request a provider receives: the caller's request with an absolute `path` and the language id. */
export type LspProviderRequest<R extends LspQueryRequest = LspQueryRequest> = R & {
  /** The language id from this provider's extension map for the file the request is about. */
  readonly languageId: string
  /**
   * The file the request is about (`path`, or a hierarchy item's path), resolved and contained by the seam
   * for this request's root: use it as is, never resolve `path` again. Absent for workspace-wide requests
   * and when no workspace is open at the root (then the provider contains the path itself).
   */
  readonly file?: WorkspacePath
  /**
   * The file's text as the seam read it for this same call (target resolution), through `file`: a provider
   * may give it to its server instead of reading the file again. Absent when nothing was read.
   */
  readonly snapshot?: LspDocumentSnapshot
  /**
   * Every root of the request's workspace (RFC 0025): `root` first, then the other roots open in the same
   * service. A location in any of them is an answer; a backend may serve them with one server. Absent when a
   * provider is called outside a service (then the workspace is `root` alone).
   */
  readonly workspaceRoots?: ReadonlyArray<string>
  /** When the question was asked ({@link LspReadAlong.askedAt}), when the caller said: never later than the seam received it. */
  readonly askedAt?: number
}

/** Live state of one provider for one workspace root (or its backend as a whole when `root` is absent). */
export interface LspProviderStatus {
  readonly providerId: string
  readonly root?: string
  /** The other roots of the same workspace this server serves beside `root`, when it serves several (RFC 0025). */
  readonly sharedRoots?: ReadonlyArray<string>
  /** The profile or server behind it (e.g. `typescript`, `pyright`). */
  readonly server?: string
  readonly state: 'starting' | 'indexing' | 'ready' | 'idle' | 'crashed' | 'unavailable'
  /** Why it is unavailable or crashed, and what to do. */
  readonly reason?: string
  /** The exact command that installs the missing server, when the backend knows it (a local host's language records). */
  readonly install?: string
  /** Operations the running server negotiated (native). */
  readonly operations?: ReadonlyArray<LspOperation>
  /** Operations the provider answers without the server offering them, built from native ones (RFC 0010). */
  readonly derivedOperations?: ReadonlyArray<LspOperation>
  /** In-process providers or other servers answering some operations beside the server (e.g. ruff beside pyright). */
  readonly companions?: ReadonlyArray<{ readonly id: string; readonly operations: ReadonlyArray<LspOperation> }>
  readonly uptimeMs?: number
  readonly restarts?: number
  /**
   * Resident memory of the server's process tree, in bytes: a sample, taken at {@link rssSampledAt} (RFC 0030).
   * Absent until the backend has sampled this server (never a made-up 0).
   */
  readonly rssBytes?: number
  /** When {@link rssBytes} was sampled (milliseconds since the epoch); present whenever `rssBytes` is. */
  readonly rssSampledAt?: number
  /** The resident memory this one server's process tree may hold before the backend restarts it, in bytes (no ceiling: absent). */
  readonly memoryCeilingBytes?: number
  /**
   * The memory budget every server of the backend counts against together (RFC 0033; in a shared daemon, both trust
   * levels' servers): the budget, the running servers' last samples summed, and how many were summed. Absent: none.
   */
  readonly memoryBudget?: { readonly budgetBytes: number; readonly usedBytes: number; readonly servers: number }
  /** Languages this status covers. */
  readonly languages?: ReadonlyArray<string>
  /** Projects the server has loaded (TypeScript configs, Python project folders), when the backend knows them. */
  readonly projects?: { readonly loaded: number; readonly found: number }
  /**
   * Present while the server's projects are being loaded for a question (RFC 0032): the projects loaded so far of
   * those found (when the backend counts projects; `projectsFound` once it has planned), and the files opened so
   * far. A status change is announced as these grow, so a long first answer is never silent.
   */
  readonly loading?: { readonly projectsLoaded?: number; readonly projectsFound?: number; readonly filesOpened: number }
  /**
   * How changes made on disk by other tools reach the server before each answer (RFC 0023): its folder is
   * watched, or (a tree with too many folders to watch) its files are scanned, which is slower.
   */
  readonly diskChanges?: 'watched' | 'scanned'
}

/**
 * A backend that answers seam queries for files with the extensions it claims. It must throw
 * {@link LspError} (never return an empty result for a failure) and must never return locations outside
 * the request's root.
 */
export interface LspProvider {
  readonly id: string
  /** Extension → language id, e.g. `{ '.ts': 'typescript' }`. Keys are normalized to lowercase with a dot. */
  readonly extensions: Readonly<Record<string, string>>
  /**
   * Exact file names → language id (`{ Dockerfile: 'dockerfile', '.bashrc': 'shellscript' }`), matched before
   * extensions (RFC 0020). Each is an exclusive reservation, like an extension.
   */
  readonly fileNames?: Readonly<Record<string, string>>
  /**
   * Interpreters a `#!` line names → language id (`{ bash: 'shellscript', python3: 'python' }`), for files with
   * no extension and no name match (RFC 0020); `python3.11` is looked up as itself, `python3`, then `python`.
   */
  readonly interpreters?: Readonly<Record<string, string>>
  /** Operations this provider can answer. Anything else fails with UNSUPPORTED_OPERATION before it is called. */
  readonly operations: ReadonlyArray<LspOperation>
  /** Answers one request. `signal` aborts when the caller cancels. */
  query<R extends LspQueryRequest>(request: LspProviderRequest<R>, signal: AbortSignal): Promise<LspResultFor<R['operation']>>
  /** Current status per root. */
  status?(): ReadonlyArray<LspProviderStatus>
  /** Subscribes to status changes; returns an unsubscribe function. */
  onStatusChange?(listener: (status: LspProviderStatus) => void): () => void
  /** Called when the registration is released or the service disposed. */
  dispose?(): Promise<void> | void
  /**
   * Diagnostics of files as an edit would leave them, computed in the servers' memory only (RFC 0018). The
   * seam passes only the documents and paths of this provider's extensions. Contract: nothing on disk changes;
   * no other query (of any session) sees the speculative text while it is in a server; before the promise
   * settles — resolved, rejected, cancelled — every server's view is the disk content again. Without it,
   * the seam reports the provider's files as not checked.
   */
  speculate?(request: LspSpeculationRequest, signal: AbortSignal): Promise<LspSpeculationResult>
  /**
   * Language facts (identifier grammar, keywords, comments) this provider knows, for language ids the seam's
   * built-in table lacks or describes differently; registered with the provider, released with it.
   */
  readonly languageFacts?: ReadonlyArray<LspLanguageFacts>
  /**
   * A mark of the provider's view of `root` (RFC 0026): it changes whenever a file under the root is edited,
   * created or deleted (by anyone: noticed by the backend's watch or document store, or written by its own
   * `applyEdit`), never for a speculative check. Before it returns, the provider takes in every change it could
   * have noticed by now, so an equal mark means none of its answers under the root could differ. Optional:
   * without it no answer is kept between pages (each page computes its answer again).
   */
  changeMark?(root: string, signal: AbortSignal): Promise<string>
}

/** One file as an edit would leave it: its whole new text. */
export interface LspSpeculativeDocument {
  /** Absolute path (a file the edit creates may not exist on disk). */
  readonly path: string
  readonly text: string
}

/** A speculative check (RFC 0018): apply `documents` in memory, read diagnostics of `paths`, restore. */
export interface LspSpeculationRequest {
  readonly root: string
  /** The files the edit changes, with their would-be content. */
  readonly documents: ReadonlyArray<LspSpeculativeDocument>
  /** Files whose diagnostics to collect (the changed ones and the files that referred to what changed). Absolute. */
  readonly paths: ReadonlyArray<string>
  /** How long to wait, per file, for diagnostics computed for the speculative content. */
  readonly waitMs: number
  /** Every root of the request's workspace, `root` first (RFC 0025); set by the seam, as for queries. */
  readonly workspaceRoots?: ReadonlyArray<string>
}

/** The speculative diagnostics of one file. */
export interface LspSpeculatedFile {
  readonly path: string
  /** current: computed for the speculative content; stale/unknown: the server had not caught up; unavailable: not checked. */
  readonly freshness: 'current' | 'stale' | 'unknown' | 'unavailable'
  readonly diagnostics: ReadonlyArray<LspDiagnostic>
  /** Why a file was not checked, or what else to know. */
  readonly note?: string
}

/** The outcome of a speculative check: one entry per requested path. */
export interface LspSpeculationResult {
  readonly files: ReadonlyArray<LspSpeculatedFile>
}

/** A snapshot of one document as the backend sees it (disk for a local host, the buffer in VS Code). */
export interface LspDocumentSnapshot {
  readonly path: string
  readonly uri: string
  readonly text: string
  /** Content hash (sha-256 hex of the UTF-8 text). */
  readonly hash: string
  /** The backend's document version, when it has one (VS Code buffers, synced server documents). */
  readonly version?: number
  /**
   * The backend's opaque identity of what was read (a local host: modification time, size and inode, taken
   * from the open file), so it can tell later whether the file changed since without reading it again.
   */
  readonly revision?: string
}

/** Options for {@link LspWorkspace.applyEdit}. */
export interface LspApplyEditOptions {
  /** Content hash each file must still have (path → hash); a mismatch fails with STALE_VERSION, nothing written. */
  readonly expectedHashes?: Readonly<Record<string, string>>
  /** Why the edit is applied (for logs and undo labels). */
  readonly label?: string
}

/** What applying an edit did. */
export interface LspApplyEditResult {
  readonly files: ReadonlyArray<{
    readonly path: string
    /** Hash before (absent for a created file) and after (absent for a deleted file). */
    readonly hashBefore?: string
    readonly hashAfter?: string
    readonly editCount: number
    /** Whether the change reached disk (VS Code may hold it in a dirty buffer). */
    readonly saved: boolean
  }>
  readonly resourceOperations: ReadonlyArray<{
    readonly type: 'create' | 'rename' | 'delete'
    readonly path: string
    readonly newPath?: string
  }>
}

/**
 * A workspace root opened by a backend: its files (for target resolution, snippets and previews) and the
 * edit applier for every file under it, owned by a language provider or not.
 */
export interface LspWorkspace {
  /** Short stable id a model can name (`rootId`), e.g. the folder name. */
  readonly id: string
  /** Absolute, canonical root path. */
  readonly root: string
  /**
   * The seam's containment for this root, when the backend keeps one: the seam resolves request paths with
   * it (sharing its caches and their invalidation). Without it the seam makes its own for `root`.
   */
  readonly containment?: Containment
  /** Reads a file under the root. NOT_FOUND if missing, OUTSIDE_WORKSPACE if it escapes. */
  readFile(path: string, signal?: AbortSignal): Promise<LspDocumentSnapshot>
  /**
   * Reads a file the seam resolved for this root with {@link containment}, as is: it was contained, symlinks
   * included, a moment ago in the same call. Optional; the seam falls back to {@link readFile}.
   */
  readResolved?(file: WorkspacePath, signal?: AbortSignal): Promise<LspDocumentSnapshot>
  /** Whether a file exists under the root (false for anything outside it). */
  exists(path: string): Promise<boolean>
  /** Applies a whole edit atomically: every file or none. */
  applyEdit(edit: LspWorkspaceEdit, options?: LspApplyEditOptions): Promise<LspApplyEditResult>
}

/** What a caller that already read the request's file in this call passes along with the request. */
export interface LspReadAlong {
  /** The snapshot `resolveTarget` returned for this file; ignored unless the seam read it for the same path. */
  readonly document?: LspDocumentSnapshot
  /**
   * When the question was asked, as this process's `performance.now()` (RFC 0036): the answer reflects the disk as
   * it is then or later. A caller that read the disk for the question before querying (a change mark, RFC 0026)
   * passes it so that a provider may answer from what it read since that moment rather than read it again. Default:
   * when the provider receives the request. A moment in the future is taken as now.
   */
  readonly askedAt?: number
}
