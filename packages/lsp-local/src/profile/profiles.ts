import type { LspOperation } from '@codeseam/lsp'

import type { CompanionOperation } from './companion-operations.js'

/**
 * When a server counts as ready to answer. `initialized`: as soon as the initialize handshake is done
 * (servers that block requests until their project is loaded). `progressQuiet`: additionally wait until
 * no work-done progress is active, bounded by `readinessTimeoutMs`. `serverStatus`: until the server's own
 * `experimental/serverStatus` notification says it is quiescent (rust-analyzer), bounded the same way.
 * `configured`: until the server has asked for its configuration (`workspace/configuration`) and been answered
 * (bash-language-server analyses nothing before that), bounded the same way.
 */
export type ReadinessRule = 'initialized' | 'progressQuiet' | 'serverStatus' | 'configured'

/**
 * Which directory a server runs in for a given file. `workspace`: one server for the whole workspace root
 * (servers that find nested projects themselves, like TypeScript). `workspaceFolders`: one server for the
 * workspace root, with every nested folder holding one of `rootMarkers` passed to it as a further LSP
 * workspace folder (each keeps its own configuration and imports: pyright). `nearest`: one server per
 * nearest ancestor of the file, inside the workspace, that holds one of `rootMarkers`.
 */
export type ProjectRootRule = 'workspace' | 'workspaceFolders' | 'nearest'

/** What changes when a root is untrusted: `refuse` refuses to start, otherwise these settings replace the trusted ones. */
export type UntrustedPolicy =
  | 'refuse'
  | {
      readonly args?: ReadonlyArray<string>
      readonly initializationOptions?: unknown
      readonly settings?: Readonly<Record<string, unknown>>
      readonly env?: Readonly<Record<string, string>>
    }

/**
 * A language server described as plain data. Everything needed to start it, talk to it and hold it to
 * its contract; no code. A fixture server is one such record.
 */
export interface ServerProfile {
  /** Stable id, e.g. `typescript`; the provider id becomes `local:<id>`. */
  readonly id: string
  /** Executable: an absolute path, or a bare name looked up on PATH (never run through a shell). */
  readonly command: string
  readonly args: ReadonlyArray<string>
  /** Extension (with dot) → LSP language id. */
  readonly extensions: Readonly<Record<string, string>>
  /** Exact file names → language id (`Dockerfile`, `.bashrc`), matched before extensions (RFC 0020). */
  readonly fileNames?: Readonly<Record<string, string>>
  /** Interpreters a `#!` line names → language id, for files with no extension and no name match (RFC 0020). */
  readonly interpreters?: Readonly<Record<string, string>>
  /** Files whose presence marks a project root (used with `projectRoot: 'nearest'`). */
  readonly rootMarkers?: ReadonlyArray<string>
  /** Default `workspace`. */
  readonly projectRoot?: ProjectRootRule
  /**
   * With `projectRoot: 'workspaceFolders'`: a setting (dotted path, an array of folders) that lists the nested
   * project folders (and their `src` folders) in the answer to configuration requests that name no scope.
   * pyright analyses a file that no workspace folder's configuration includes in a default workspace of its
   * own, which asks without a scope; with the folders as `python.analysis.extraPaths` its imports resolve as
   * they would in a server started in that folder.
   */
  readonly nestedFoldersSetting?: string
  /**
   * With `projectRoot: 'workspaceFolders'`: what makes a nested marker folder a workspace folder of its own (a
   * file, optionally holding some text); other nested marker folders only add search paths
   * (`nestedFoldersSetting`). Default: every nested marker folder is a workspace folder.
   */
  readonly ownConfig?: ReadonlyArray<{ readonly file: string; readonly contains?: string }>
  readonly initializationOptions?: unknown
  /**
   * Answers to workspace/configuration, by section. A request for section `a.b` gets `settings['a.b']`, or
   * `settings.a.b` walked as a path; an unknown section gets null. Also sent once with
   * workspace/didChangeConfiguration after initialize.
   */
  readonly settings?: Readonly<Record<string, unknown>>
  /** Extra environment variables for the server (added to the minimal environment). */
  readonly env?: Readonly<Record<string, string>>
  /** Names of host environment variables passed through in addition to the host-wide allow-list. */
  readonly envAllow?: ReadonlyArray<string>
  /**
   * Operations the server must answer (its minimum set). The provider declares exactly these; the
   * integration tests hold built-ins to them. Default: every operation, checked against the server's
   * capabilities at run time.
   */
  readonly operations?: ReadonlyArray<LspOperation>
  /** Default `initialized`. */
  readonly readiness?: ReadinessRule
  /** Upper bound for the readiness wait, ms (default 60 000). */
  readonly readinessTimeoutMs?: number
  /**
   * Before workspace-wide queries, make the server load everything its record's project model says (servers that
   * search only what they have loaded: TypeScript's projects, pyright's files of no configuration, one file of
   * every Go package; docs/lsp-local.md, "The project model"). Default true for a server codeseam knows;
   * `false` turns it off. A server with no record has no project model.
   */
  readonly loadAllProjects?: boolean
  /**
   * The server finds the workspace's files only in a deferred analysis pass after its configuration, which every
   * request postpones (pyright): a workspace-wide answer is trusted only once that pass was signalled, or the
   * server stayed quiet for a second with nothing pending (see AnalysisPasses). Other servers' answers are
   * trusted once two agree.
   */
  readonly deferredDiscovery?: boolean
  /**
   * The server reads a file it is told changed on disk (`didChangeWatchedFiles`) on a thread of its own, after the
   * next request may already have run (rust-analyzer's file loader): changes are also sent as document content,
   * which it takes in before the next request — a file changed or created is opened with its text from disk, a
   * deleted one emptied, then closed (docs/lsp-local.md, "Keeping up with the disk").
   */
  readonly changesThroughDocuments?: boolean
  /**
   * The server holds each request until it has analysed the document's module (terraform-ls waits on that folder's
   * jobs), and publishes diagnostics only when they change: an empty answer is final, never waited on for a push
   * that may not come.
   */
  readonly answersWhenAnalysed?: boolean
  /**
   * Others answering some operations beside this profile's server, per operation: an in-process companion
   * by id (`ruff`), or another enabled profile (one marked {@link companionOnly}, or one serving files of its own).
   * `format` and `documentSymbols` go to the companion alone,
   * `codeActions` and `diagnostics` are merged, `resolveCodeAction` goes to whoever listed the action; the
   * server answers everything else. `[]` turns them off.
   */
  readonly companions?: ReadonlyArray<CompanionRef>
  /** A profile that serves only as another profile's companion: not a provider of its own, its extensions claim nothing. */
  readonly companionOnly?: boolean
  /**
   * The server is told at start to ask the client for remote content instead of downloading it
   * (yaml-language-server's `yaml/registerContentRequest`); codeseam refuses every such request, so nothing is
   * downloaded. Servers that ask without being told (the JSON server) need no flag.
   */
  readonly clientContent?: boolean
  /** Behaviour for untrusted roots. Default: run with the trusted settings (the profile runs no workspace code). */
  readonly untrusted?: UntrustedPolicy
  /** Set when the profile cannot run here (e.g. its executable is missing): why, and what to install. */
  readonly unavailable?: string
  /** The exact command that installs the server (built-ins: from the language record), shown when it is unavailable. */
  readonly install?: string
  /** Disabled profiles are ignored. Default true for built-ins except alternatives. */
  readonly enabled?: boolean
  /**
   * Set only by {@link builtinProfiles}: the command and script were resolved from codeseam's own
   * dependencies, so they are codeseam's files even when codeseam is installed inside the workspace it
   * serves. User profiles never carry it; overriding `command` or `args` clears it.
   */
  readonly bundled?: boolean
}

/** A companion a profile names, and the operations it answers (format, codeActions, resolveCodeAction, diagnostics). */
export interface CompanionRef {
  readonly id: string
  readonly operations: ReadonlyArray<CompanionOperation>
}
