import type { LspError, LspLanguageFacts, LspOperation, LspSymbolKind } from '@codeseam/lsp'
import type { ConformanceCheckId } from '@codeseam/lsp/testing'
import type { ClientCapabilities, MessageConnection } from 'vscode-languageserver-protocol/node'

import type { SupportTable } from '../profile/profile-operations.js'
import type { ProjectRootRule, ReadinessRule, ServerProfile } from '../profile/profiles.js'

import type { ConfigWatch, ProjectModel } from './project-model.js'

export type { ConfigWatch } from './project-model.js'
import type { ServerPackage } from './install.js'

/*
 * One record per built-in language server: everything codeseam knows about it, in one folder
 * (`languages/<id>/`). The built-in profiles, the trust rules, the heap caps, the install hints, the daemon
 * key's environment and the docs' language tables are all derived from these records (RFC 0016); nothing
 * else lists languages.
 */

/** Where a server's executable was found, or why it was not. */
export type Located =
  | {
      readonly found: true
      /** Absolute path (or a bare name for PATH lookup) of the executable to spawn. */
      readonly command: string
      /** Arguments before the profile's own (a script for `node`, …). */
      readonly leadingArgs?: ReadonlyArray<string>
      /** The executable's version as it reports it, when known without running workspace code. */
      readonly version?: string
      /** The major version, when the support table depends on it (clangd). */
      readonly major?: number
      /** The files are codeseam's own dependencies (see {@link ServerProfile.bundled}). */
      readonly bundled?: boolean
      /**
       * Operations its support table offers that this installation cannot answer, and why (a helper program
       * missing: bash-language-server formats only with shfmt): they are left out of the profile's operations,
       * so asking answers UNSUPPORTED_OPERATION, never an empty result.
       */
      readonly lacking?: Readonly<Partial<Record<LspOperation, string>>>
    }
  | {
      readonly found: false
      /** Why it cannot run here, in one sentence (what was looked for, and where). */
      readonly why: string
      /** The command the lookup would have run, for the profile record (never spawned). */
      readonly command: string
      readonly leadingArgs?: ReadonlyArray<string>
    }

/** The draft spawn plan an untrusted root's rule hardens in place. */
export interface DraftPlan {
  args: string[]
  /** The complete environment the server gets. */
  env: Record<string, string>
  initializationOptions: unknown
  settings: Record<string, unknown>
  /** Each change, said for status and logs. */
  hardening: string[]
  /**
   * Whether the workspace files the rule judged changed since, so that the running server must be planned
   * again (which may refuse the root): asked before each question to a running server.
   */
  stale?: () => boolean
  /** What the hardening costs in answers (JDT LS: Maven import off), said as the status's `reason` while it runs. */
  degraded?: string
}

/** What a trust rule knows about the root it hardens for. */
export interface HardenContext {
  readonly profile: ServerProfile
  /** Canonical project root the server runs in (its cwd). */
  readonly root: string
  /** Canonical workspace root: nothing inside it may be executed. */
  readonly workspaceRoot: string
  /** PATH with every entry inside the workspace removed. */
  readonly safePath: string
  /** Interpreter pyright may run, when the caller chose one. */
  readonly pythonInterpreter?: string
  readonly pythonSelection?: Readonly<Record<string, string>>
  /** Builds the UNTRUSTED error a rule throws when the root cannot be made safe. */
  refuse(why: string, fix?: string): LspError
  /** What the rule's `prepare` step said failed (undefined when it did not run: the plan is judged from the disk as it is). */
  readonly prepared?: ReadonlyArray<string>
}

/**
 * What untrusted mode does for this server: everything the workspace could make it run, switched off. It is
 * required (a record without one does not compile), and `strip` names the host variables that would hand a
 * workspace-chosen toolchain or preload to the server.
 */
export interface TrustRule {
  /** Host environment variables never passed to this server for an untrusted root. */
  readonly strip: ReadonlyArray<string>
  /** Hardens the draft in place; throws `refuse(...)` when the root cannot be made safe. */
  harden(draft: DraftPlan, context: HardenContext): void
  /**
   * An async step before `harden`, at each untrusted start (RFC 0029): fetches what the rule judges but the disk lacks
   * (JDT LS: parent POMs, from Maven Central), by `deadline`; what failed, in words, reaches `harden` as `prepared`.
   */
  prepare?(context: { readonly root: string; readonly deadline: number; readonly signal?: AbortSignal }): Promise<ReadonlyArray<string>>
  /** The evidence: why these settings are enough (docs/security.md quotes it). */
  readonly why: string
}

/**
 * How codeseam caps a server's memory (the host's `limits.nodeHeapMb`): `node` passes
 * `--max-old-space-size`, `go` sets GOMEMLIMIT (a soft limit Go's collector honours), `tsserver` also caps the
 * tsserver that typescript-language-server forks, `jvm` passes `-Xmx` (a Java server), `none` says why no knob exists (the process-tree RSS
 * ceiling still applies).
 */
export type MemoryKnob =
  | { readonly kind: 'node' }
  | { readonly kind: 'tsserver' }
  | { readonly kind: 'go' }
  | { readonly kind: 'jvm' }
  | { readonly kind: 'none'; readonly why: string }

/**
 * The language facts tools need above the seam (rename validation, symbol ranges), per LSP language id the
 * server serves: the seam's own entries (`builtInFactsFor`), so there is one definition (RFC 0018).
 */
export type LanguageGrammar = LspLanguageFacts

/** A folder of library sources outside the workspace, and what people call it. */
export interface LibraryRoot {
  readonly path: string
  readonly library: string
}

/** The fields of a built-in profile a record decides (the lookup supplies command, bundled and unavailable). */
export type RecordProfile = Omit<ServerProfile, 'id' | 'command' | 'bundled' | 'unavailable' | 'operations' | 'readiness' | 'projectRoot'>

/** A document symbol's name as people aim at it, and its container when the outline does not nest it in one. */
export interface SymbolName {
  readonly name: string
  readonly containerName?: string
}

/**
 * Names a server's outline label as people aim at it, or undefined to keep it (RFC 0024). The translation applies it
 * to every document symbol, so the outline, the names tools give locations and the names targeting takes are one.
 */
export type SymbolNaming = (label: string, kind: LspSymbolKind) => SymbolName | undefined

/** What codeseam gives a record's answers to the requests its server makes of its client. */
export interface ClientRequestContext {
  /** Canonical workspace root: the only folder answered. */
  readonly workspaceRoot: string
  /** The text the server has for an open document (what codeseam synced), by path. */
  openText(path: string): string | undefined
  /** The workspace's files of the server's languages (bounded). */
  listFiles(root: string): Promise<ReadonlyArray<string>>
  /**
   * The server's own readiness report, for a record whose server says it in a notification of its own (JDT LS's
   * `language/status`): read by the `serverStatus` readiness rule as rust-analyzer's `experimental/serverStatus` is.
   */
  status(report: { readonly quiescent: boolean; readonly health: 'ok' | 'warning' | 'error'; readonly message?: string }): void
}

/**
 * The seam conformance kit's run on a server (lsp-local's test/conformance.test.ts runs one per record that has this):
 * the seam language whose fixture it runs, what it cannot pass there, and what the run must show.
 */
export interface RecordConformance {
  /** The seam language (`python`, `cpp`, `shellscript`, …) whose conformance fixture the server runs. */
  readonly language: string
  /** Checks the server cannot pass on that fixture, and why (each asked of the bare server at the same position). */
  readonly limits?: Readonly<Partial<Record<ConformanceCheckId, string>>>
  /**
   * What the run must show, written out so that a record that starts or stops claiming an operation fails its run
   * until this agrees: the checks skipped, or (a server that answers a few operations) the checks that run and pass.
   */
  readonly expect: { readonly skipped: ReadonlyArray<ConformanceCheckId> } | { readonly runs: ReadonlyArray<ConformanceCheckId> }
}

/** One built-in language server. */
export interface LanguageRecord {
  /** The profile id (`typescript`, `gopls`, …); the provider is `local:<id>`. */
  readonly id: string
  /** Where people find it in lists (docs tables, `codeseam doctor`): ascending; a record without one comes last, by id. */
  readonly order?: number
  /** The languages, as people name them (`Go`, `TypeScript / JavaScript`). */
  readonly language: string
  /** The server, as people name it, with the pinned version when codeseam installs it. */
  readonly server: string
  /** What each operation does on this server (a new seam operation is a compile error until decided). */
  readonly support: SupportTable
  /** Finds the executable without running anything the workspace chose. */
  locate(): Promise<Located>
  /**
   * The package its server comes from and the executables it provides (install.ts derives from it the exact install
   * command shown when the executable is missing, where it lands, and the folders a lookup searches).
   */
  readonly install: ServerPackage
  /** Whether a user profile's command line is this server (a user profile for a known server takes its record). */
  recognizes(command: string, args: ReadonlyArray<string>): boolean
  /** The profile, given what the lookup found. */
  profile(located: Located): RecordProfile
  /** Which folder a server runs in (default `workspace`). */
  readonly projectRoot?: ProjectRootRule
  /**
   * One server serves every root of a workspace as its workspace folders (RFC 0025): the server resolves one
   * root's imports of another and answers across them. Without it, each root has its own server.
   */
  readonly sharesRoots?: true
  /**
   * The server searches only what it has loaded: its project model opens what makes it see a whole folder before a
   * workspace-wide answer (made once per loader; a profile's `loadAllProjects: false` turns it off).
   */
  projectModel?(): ProjectModel
  /**
   * Requests the server makes of its client that an editor answers (VS Code's Markdown server: `markdown/parse`, the
   * workspace's files), registered on its connection; answered for the workspace root only.
   */
  serveClient?(connection: MessageConnection, context: ClientRequestContext): void
  /** Client capabilities the server needs beyond every operation's (rust-analyzer: `experimental.serverStatusNotification`). */
  readonly clientCapabilities?: ClientCapabilities
  /** When the server counts as ready to answer. */
  readonly readiness: ReadinessRule
  /** Untrusted roots: required. */
  readonly trust: TrustRule
  readonly memory: MemoryKnob
  /** Host variables that decide which toolchain, modules or interpreter the server sees. */
  readonly environment: {
    /** Handed to the server (on top of the minimal environment); part of the shared daemon's key. */
    readonly passed: ReadonlyArray<string>
    /** Read by codeseam to choose what the server runs (an interpreter), never passed; part of the key. */
    readonly selects?: ReadonlyArray<string>
    /**
     * The executables looked up on PATH that decide what runs (the server, its toolchain, an interpreter): the shared
     * daemon is keyed by where PATH resolves these, not by PATH itself, so two clients whose PATHs differ only in
     * folders holding none of them (an `npx` launch) share one daemon.
     */
    readonly onPath?: RegExp
  }
  /** Files whose change invalidates the server's project model (root markers and lock files). */
  readonly projectFiles: ReadonlyArray<string>
  /**
   * Folders outside any workspace that hold the language's libraries (its standard library, a module cache, a
   * toolchain's sources): a definition that lands there is named as a library location, never read. Asked once
   * per process, without running anything the workspace chose.
   */
  libraries?(): Promise<ReadonlyArray<LibraryRoot>>
  /**
   * The only workspace/executeCommand commands a code action may run on this server (every root): the others run
   * code, start servers or write files without an edit codeseam could capture, preview and approve.
   */
  readonly allowedCommands?: ReadonlyArray<string>
  /**
   * Environment for one server, from the project's layout (gopls: a go.work codeseam writes outside the workspace
   * when the root holds several modules and no go.work of its own; clangd: a compile_commands.json with its
   * relative directories resolved). `find` lists files by name under the root; `profile` is the server's profile
   * (its arguments and extensions). Asked at every start.
   */
  workspaceEnvironment?(
    root: string,
    find: (names: ReadonlyArray<string>) => Promise<ReadonlyArray<string>>,
    profile: ServerProfile,
  ): Promise<Readonly<Record<string, string>>>
  /**
   * The settings one root's server is answered with (workspace/configuration), from its plan's (after the trust rule):
   * asked at every start (graphql: codeseam's own graphql-config, written in its cache, for a root without one).
   */
  rootSettings?(root: string, settings: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>>
  /**
   * Outline labels that are not the names people aim at (gopls: `(*DemoStruct).Value`; the Markdown server:
   * `## Setup`), named as they are: without it, the server's labels are the names.
   */
  readonly symbolName?: SymbolNaming
  /**
   * The files of the layout {@link workspaceEnvironment} read, watched while the server runs, for what it wrote
   * outside the workspace to be written again when one changes (clangd's compile_commands.json copy).
   */
  layoutWatch?(root: string): ConfigWatch | undefined
  /**
   * Operations the server answers wrongly for the files of one of its language ids (JDT LS formats Kotlin with the
   * Java formatter, and resolves a Kotlin name to the enclosing function): asked for such a file, they fail with
   * UNSUPPORTED_OPERATION saying why, never a wrong answer. Keyed by language id, then operation.
   */
  readonly refusedFor?: Readonly<Record<string, Readonly<Partial<Record<LspOperation, string>>>>>
  /** The language facts for each language id the server serves. */
  readonly grammar: ReadonlyArray<LanguageGrammar>
  /** lsp-local's own test fixture for the server (its folder under packages/lsp-local/test/fixtures), when it has one. */
  readonly fixture?: string
  /**
   * The seam conformance kit's run on this server, when the seam has a fixture for its language; one per language
   * for a server of several (JDT LS: Java and Kotlin).
   */
  readonly conformance?: RecordConformance | ReadonlyArray<RecordConformance>
  /** One line for the README's language table: what it answers and what it lacks. */
  readonly notes: string
  /** Alternatives are off until a user turns them on (default true). */
  readonly enabled?: boolean
}

/** A record's conformance runs, one per seam language it runs a fixture of. */
export function conformanceRuns(record: LanguageRecord): ReadonlyArray<RecordConformance> {
  const runs = record.conformance
  return runs === undefined ? [] : 'language' in runs ? [runs] : runs
}
