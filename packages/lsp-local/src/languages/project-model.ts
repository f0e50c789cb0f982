import type { LspOperation, LspSearchCoverage } from '@codeseam/lsp'

import type { SkippedFiles } from '../documents/file-limits.js'
import type { ServerProfile } from '../profile/profiles.js'

/*
 * A server's project model as a record hook (issue 47): what makes a server that searches only what it has loaded
 * see a whole workspace folder before a workspace-wide answer. The one project loader (workspace/project-loader.ts)
 * keeps each load per (server, folder), reuses it while nothing was created or deleted and every file it opened is
 * still open, and hands the model what it needs through {@link ProjectLoadContext}: the model decides which files to
 * open and what that covered; it never sees the server, the workspace or the pool.
 */

/** Files the loader opened and pinned (at most the `max` asked), and why others were not. */
export interface PinnedFiles {
  readonly opened: string[]
  /** Deleted since the walk, or refused (a symbolic link out of the workspace). */
  readonly failed: number
  /** Over a per-file limit (never sent), by limit. */
  readonly skipped: SkippedFiles
  /** Every file asked for that was not opened (failed or skipped). */
  readonly notOpened: string[]
}

/** What the loader gives a project model for one load of one server folder. */
export interface ProjectLoadContext {
  /** The folder loaded: the server's own root, or another root it serves (RFC 0025). */
  readonly folder: string
  readonly profile: ServerProfile
  /** The server's own workspace folders inside {@link folder} (pyright's nested configurations), without it. */
  readonly nestedFolders: ReadonlyArray<string>
  /** How many projects the server counts for {@link folder}: its workspace folders there. */
  readonly projectCount: number
  /** When the question that asked for the load gives up. */
  readonly deadline: number
  readonly signal?: AbortSignal
  /** How many files may be pinned for this folder (the open-document limit less room for the queries' own). */
  readonly pinBudget: number
  /** The profile's source files under the folder (breadth-first, at most 20 000), and the symbolic links among them. */
  sources(): Promise<{ readonly files: string[]; readonly complete: boolean; readonly links: string[] }>
  /** Inside the workspace (a symbolic link out of it is not). */
  contains(file: string): boolean
  /** Over the per-file size ceiling, from a stat. */
  oversized(file: string): boolean
  /**
   * Opens and pins files, at most `max`: the LRU never closes them while the load holds. `projects`: each file opened
   * loads one project (the status counts it as it happens). `pin: false`: opened as a question's own file is (the
   * LRU may close it), not counted.
   */
  open(files: ReadonlyArray<string>, max?: number, options?: { readonly projects?: boolean; readonly pin?: boolean }): Promise<PinnedFiles>
  /** How many projects the load found, once planned: the status says "projects k/N" from here on (RFC 0032). */
  found(projects: number): void
  /** A symbolic link out of the root is masked before a project that lists it loads (the server would read through it). */
  maskIfEscaped(link: string): void
  /**
   * Asks the server for the outline of each open file, one after another, and resolves with those not answered: for a
   * server that holds a request until the file's folder is analysed and says nothing else when it is (terraform-ls),
   * the one wait on events there is. Bounded by {@link deadline}.
   */
  outlined(files: ReadonlyArray<string>): Promise<string[]>
  /**
   * For a question at a position (need-first): the files that declare what it names, as the server's definition
   * says, once the question's file is open; undefined when the server could not tell. Absent: no position.
   */
  declaredIn?: DeclaredIn
  /**
   * A load in the background, after a question's own projects were opened (RFC 0035): files that only some questions
   * need may be left for those questions ({@link ProjectLoadResult.deferred}).
   */
  readonly background: boolean
}

/** The files that declare what a question's position names, as its server's definition says; undefined: it cannot tell. */
export type DeclaredIn = () => Promise<ReadonlyArray<string> | undefined>

/** What a load opened and what that covered. */
export interface ProjectLoadResult {
  readonly opened: string[]
  readonly coverage: LspSearchCoverage
  /** What the load was planned from (TypeScript: the project graph), for {@link ProjectModel.current}. */
  readonly basis?: unknown
  /** Files a background load left unopened: each later question opens those it needs first (TypeScript's files of no project). */
  readonly deferred?: DeferredFiles
}

/** Files a load left for the questions that need them (RFC 0035, amended: files of no project on demand). */
export interface DeferredFiles {
  readonly files: ReadonlyArray<string>
  /**
   * What `among` (some of {@link files}) reach as the disk is at the call, read again only when one of the files left
   * at first changed since it was last read.
   */
  reach(among: ReadonlyArray<string>): Promise<DeferredReach>
}

/** What some deferred files reach, read once for one question ({@link DeferredFiles.reach}). */
export interface DeferredReach {
  /**
   * Whether any of them reaches a project at all: when none does, a question about a project's file needs none of
   * them (and what declares what it names need not be asked).
   */
  readonly any: boolean
  /**
   * Of them, those a question needs whose answer lies in the projects of `targets` (the question's file and the files
   * that declare what it names); undefined when that cannot be told (a target of no project): every one.
   */
  needed(targets: ReadonlyArray<string>): ReadonlyArray<string> | undefined
}

/**
 * Files to watch besides the languages' own, and what to do when one changes: project configs (TypeScript's
 * tsconfig*.json and `extends` targets), or the layout a record wrote a copy of (clangd's compile_commands.json).
 */
export interface ConfigWatch {
  isConfig(path: string): boolean
  onConfigChange(): void
}

/** One server's project model, made once per loader (it may keep state: TypeScript's graph cache). */
export interface ProjectModel {
  /** Opens what makes the server search everything under the folder, and says what that covered. */
  load(context: ProjectLoadContext): Promise<ProjectLoadResult>
  /**
   * Opens first what can hold an answer about `target` (RFC 0035: its project and every one that can reach it), and
   * says what that covered (`coverage.searched`); undefined when that is everything or cannot be told (load all).
   */
  loadNeeded?(context: ProjectLoadContext, target: string): Promise<ProjectLoadResult | undefined>
  /**
   * Whether a kept load's basis is still the model's (TypeScript: the graph was not read again since a config
   * changed). Without it, a kept load holds until files are created or deleted or one of its files is closed.
   */
  current?(folder: string, profile: ServerProfile, basis: unknown): boolean
  /** The config files a disk watch must report for a folder, so the model reads them again. */
  configWatch?(folder: string, profile: ServerProfile): ConfigWatch | undefined
  /** Starts reading a folder's layout ahead of the first question (a workspace just opened); failures are dropped. */
  prefetch?(folder: string, profile: ServerProfile, timeoutMs: number, signal: AbortSignal): void
  /**
   * Questions about one file that load the folder first, as workspace-wide ones do: the server's answer there depends
   * on what it analysed of other files (terraform-ls: a definition in a module reaches the modules it calls).
   */
  readonly loadsBefore?: ReadonlyArray<LspOperation>
  /** Its coverage counts projects a status line can show ("12 of 12 projects loaded"); Go packages and pyright's programs do not. */
  readonly countsProjects?: boolean
  /**
   * The server loads a project when one of its files is opened, before it answers the next request (the TypeScript
   * servers): a workspace-wide answer after this model's load covers what it opened at the first ask, and is not
   * asked again to confirm it (see confirmFirstAnswer).
   */
  readonly loadsOnOpen?: boolean
}
