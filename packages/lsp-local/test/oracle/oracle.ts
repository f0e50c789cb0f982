// The completeness oracle: a bare language server (native TypeScript 7, pyright, gopls, rust-analyzer or JDT LS)
// driven by a minimal vscode-jsonrpc client, started with the workspace folders (and, for gopls, rust-analyzer and
// JDT LS, the exact spawn plan: settings, initialization options, environment) codeseam uses, with EVERY source
// file of the workspace opened before it is asked anything. Its answers are the reference that codeseam's first answer
// after a cold start must equal (issue 13). Everything it returns is normalised into sorted, de-duplicated
// string keys with workspace-relative paths and 0-based ranges (see keys.ts), so it compares with the seam.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { symbolKindFromNumber } from '@codeseam/lsp'

import { clientCapabilitiesFor } from '../../src/features/client-capabilities.js'
import { builtinProfiles, recordFor } from '../../src/languages/index.js'
import { serverEnvironment } from '../../src/policy/environment.js'
import { defaultResourceLimits, withHeapCap } from '../../src/policy/limits.js'
import type { ServerProfile } from '../../src/profile/profiles.js'
import { planSpawn, prepareUntrusted, type TrustLevel } from '../../src/policy/trust.js'
import { section } from '../../src/server/handshake.js'
import { layoutEnvironment, nestedProjects, nestedSettings } from '../../src/workspace/nested-projects.js'

import {
  ApplyWorkspaceEditRequest,
  DefinitionRequest,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  HoverRequest,
  NotificationType,
  ResponseError,
  CallHierarchyIncomingCallsRequest,
  CallHierarchyPrepareRequest,
  CodeLensRefreshRequest,
  ConfigurationRequest,
  DiagnosticRefreshRequest,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  ExitNotification,
  ImplementationRequest,
  InitializeRequest,
  InitializedNotification,
  InlayHintRefreshRequest,
  PrepareRenameRequest,
  PublishDiagnosticsNotification,
  ReferencesRequest,
  RegistrationRequest,
  RenameRequest,
  SemanticTokensRefreshRequest,
  ShowDocumentRequest,
  ShowMessageRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  SymbolKind,
  UnregistrationRequest,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
  WorkspaceSymbolRequest,
  createProtocolConnection,
  type ClientCapabilities,
  type Diagnostic,
  type DocumentSymbol,
  type Hover,
  type Location,
  type LocationLink,
  type ProtocolConnection,
  type SymbolInformation,
  type WorkspaceEdit,
  type WorkspaceSymbol,
} from 'vscode-languageserver-protocol/node'

import {
  callKey,
  diagnosticKey,
  documentSymbolKey,
  symbolKeyName,
  cappedKeys,
  droppedKey,
  fileOperationKey,
  hoverKey,
  locationKey,
  outsideEditKey,
  renameRefusedKey,
  serverErrorKey,
  severityName,
  textEditKey,
  unique,
  workspaceSymbolKey,
} from './keys.js'

export type OracleLanguage = 'typescript' | 'python' | 'go' | 'rust' | 'java'

/** The languages whose servers are toolchain servers, configured from the built-in profile's spawn plan. */
export type ToolchainLanguage = Extract<OracleLanguage, 'go' | 'rust' | 'java'>

export function isToolchainLanguage(language: OracleLanguage): language is ToolchainLanguage {
  return language === 'go' || language === 'rust' || language === 'java'
}

/** The built-in profile that serves each toolchain language. */
export const toolchainProfileIds: Readonly<Record<ToolchainLanguage, string>> = { go: 'gopls', rust: 'rust-analyzer', java: 'jdtls' }

/**
 * The operations the oracle answers. TypeScript and Python: the workspace-wide five (implementation:
 * TypeScript only; pyright has no provider). Go and Rust: those and definition, hover, document symbols,
 * diagnostics and formatting (issue 28).
 */
export const oracleOperations = [
  'workspaceSymbols',
  'references',
  'rename',
  'implementation',
  'incomingCalls',
  'definition',
  'hover',
  'documentSymbols',
  'diagnostics',
  'format',
] as const
export type OracleOperation = (typeof oracleOperations)[number]

const workspaceWide: ReadonlyArray<OracleOperation> = ['workspaceSymbols', 'references', 'rename', 'implementation', 'incomingCalls']

export function operationsFor(language: OracleLanguage): ReadonlyArray<OracleOperation> {
  if (isToolchainLanguage(language)) return oracleOperations
  return language === 'python' ? workspaceWide.filter((operation) => operation !== 'implementation') : workspaceWide
}

/** Source extensions per language (what codeseam's profiles route to each server). */
export const sourceExtensions: Readonly<Record<OracleLanguage, ReadonlyArray<string>>> = {
  typescript: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
  python: ['.py', '.pyi'],
  go: ['.go'],
  rust: ['.rs'],
  java: ['.java'],
}

/** The marker files that make a folder a Python project of its own (codeseam's pyright root markers). */
export const pythonProjectMarkers: ReadonlyArray<string> = ['pyproject.toml', 'setup.py', 'setup.cfg', 'pyrightconfig.json']

/**
 * Folders that hold no source of the workspace: dependencies, build output, VCS, caches, and dot-folders.
 * Kept here on purpose rather than imported from src: the oracle defines "every source file" on its own.
 */
export const nonSourceFolders: ReadonlySet<string> = new Set([
  'node_modules',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
  'venv',
  '__pycache__',
  '.next',
  '.turbo',
])

/** Every file under `root` whose name passes `match`, skipping non-source and dot-folders; sorted, absolute. */
export function walkFiles(root: string, match: (name: string) => boolean): string[] {
  const found: string[] = []
  const visit = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      const path = nodePath.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!nonSourceFolders.has(entry.name) && !entry.name.startsWith('.')) visit(path)
      } else if (entry.isFile() && match(entry.name)) {
        found.push(path)
      }
    }
  }
  visit(root)
  return found.sort()
}

/** Every source file of a language under the root (.d.ts and .pyi included: they are source too). */
export function sourceFilesOf(root: string, language: OracleLanguage): string[] {
  const extensions = sourceExtensions[language]
  return walkFiles(root, (name) => extensions.includes(nodePath.extname(name).toLowerCase()))
}

/** The Python workspace folders codeseam serves: the root plus every nested folder holding a project marker. */
export function pythonFolders(root: string): string[] {
  const markers = walkFiles(root, (name) => pythonProjectMarkers.includes(name))
  return unique([root, ...markers.map((file) => nodePath.dirname(file))]).sort()
}

/**
 * The workspace folders alone, synchronously (for the benchmark's bare client): TypeScript the root; pyright the
 * root plus nested marker folders with a configuration of their own (as {@link workspaceLayoutOf}).
 */
export function workspaceFoldersOf(root: string, language: OracleLanguage): string[] {
  if (language === 'typescript') return [root]
  const own = (folder: string) => {
    const read = (file: string) => {
      try {
        return readFileSync(nodePath.join(folder, file), 'utf8')
      } catch {
        return undefined
      }
    }
    return read('pyrightconfig.json') !== undefined || read('pyproject.toml')?.includes('[tool.pyright') === true
  }
  return pythonFolders(root).filter((folder) => folder === root || own(folder))
}

/** Which workspace folders and settings a language server gets from codeseam (the same for the oracle). */
export interface WorkspaceLayout {
  readonly folders: ReadonlyArray<string>
  /** Answers to configuration requests that name a scope (and to didChangeConfiguration). */
  readonly settings: Readonly<Record<string, unknown>>
  /** Answers to requests without a scope (pyright's default workspace). */
  readonly unscoped: Readonly<Record<string, unknown>>
}

/**
 * TypeScript: the root only. pyright: the root plus the nested folders with a configuration of their own, and
 * the other nested project folders as search paths — computed by lsp-local's own rule for its pyright
 * profile, so the oracle is configured exactly as codeseam's server is (only its answers are independent).
 */
export async function workspaceLayoutOf(root: string, language: OracleLanguage, trust: TrustLevel = 'untrusted'): Promise<WorkspaceLayout> {
  if (language === 'typescript') return { folders: [root], settings, unscoped: settings }
  if (isToolchainLanguage(language)) return (await toolchainLaunch(root, language, trust)).layout
  const pyright = (await builtinProfiles()).find((profile) => profile.id === 'pyright')
  if (pyright === undefined) throw new Error('no built-in pyright profile')
  const nested = await nestedProjects(root, pyright)
  const layout = nestedSettings(root, pyright, settings, nested)
  return { folders: [root, ...nested.folders], settings: layout.settings, unscoped: layout.unscoped ?? layout.settings }
}

/** The built-in profile of a toolchain language as this machine has it (its `unavailable` says what to install). */
export async function toolchainProfile(language: ToolchainLanguage): Promise<ServerProfile> {
  const id = toolchainProfileIds[language]
  const profile = (await builtinProfiles()).find((candidate) => candidate.id === id)
  if (profile === undefined) throw new Error(`no built-in ${id} profile`)
  return profile
}

/** What codeseam's host starts for a toolchain language at a trust level, and how it answers configuration. */
export interface ToolchainLaunch {
  readonly profile: ServerProfile
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly env: Readonly<Record<string, string>>
  readonly initializationOptions: unknown
  readonly layout: WorkspaceLayout
  /** What the trust level changed (planSpawn's own account), for the report. */
  readonly hardening: ReadonlyArray<string>
}

/**
 * gopls, rust-analyzer and JDT LS as codeseam's host starts them for `root` at `trust`: the built-in profile, its
 * spawn plan from lsp-local's own `planSpawn` (so untrusted roots get exactly the settings, initialization options
 * and environment codeseam gives them: no build scripts or proc macros for rust-analyzer, the local toolchain
 * and a read-only module graph for gopls, no Gradle import and codeseam's own Maven settings for JDT LS), the
 * environment the host builds (serverEnvironment, the layout's environment, the heap cap), and the workspace
 * folders of lsp-local's nested-project rule, after the record's `prepare` step (prepareUntrusted) as the host runs it.
 * Only the answers are the oracle's own.
 */
export async function toolchainLaunch(root: string, language: ToolchainLanguage, trust: TrustLevel): Promise<ToolchainLaunch> {
  const profile = await toolchainProfile(language)
  if (profile.unavailable !== undefined) throw new Error(`the ${profile.id} server is unavailable: ${profile.unavailable}`)
  // The record's step before an untrusted plan, as the host's start runs it (JDT LS: the parent POMs, fetched into
  // codeseam's Maven repository): without it, on a repository that lacks them, the oracle's plan turns the Maven
  // import off (every file a non-project file) while codeseam's, fetched, imports the project.
  const prepared = await prepareUntrusted(profile, { root, trust, deadline: Date.now() + 60_000 })
  const plan = planSpawn(profile, { root, trust, env: serverEnvironment([], profile), ...(prepared === undefined ? {} : { prepared }) })
  // The layout's own environment as the host adds it (gopls: the go.work codeseam writes over several modules).
  const withLayout = { ...plan, env: { ...plan.env, ...(await layoutEnvironment(root, profile)) } }
  const capped = withHeapCap(profile, withLayout, defaultResourceLimits().nodeHeapMb)
  const nested = await nestedProjects(root, profile)
  const layout = nestedSettings(root, profile, plan.settings, nested)
  return {
    profile,
    command: plan.command,
    args: capped.args,
    env: capped.env,
    initializationOptions: capped.initializationOptions,
    layout: { folders: [root, ...nested.folders], settings: layout.settings, unscoped: layout.unscoped ?? layout.settings },
    hardening: plan.hardening,
  }
}

/**
 * JDT LS keeps its Eclipse workspace (the imported projects, their metadata and index) in a data folder per root,
 * in codeseam's cache: the trusted plan names it in JDK_JAVA_OPTIONS (`-Dosgi.instance.area`), the untrusted one
 * with `-data`. Two servers on one data folder share one Eclipse workspace: the second would find the project
 * imported and indexed by the first (codeseam's cold start would not be cold), and Equinox locks the folder. The
 * oracle's server gets `folder` instead, in both places; nothing else of the plan changes.
 */
export function withOwnDataFolder(launch: ToolchainLaunch, folder: string): ToolchainLaunch {
  const args: string[] = []
  for (let i = 0; i < launch.args.length; i++) {
    if (launch.args[i] === '-data') i++
    else args.push(launch.args[i] as string)
  }
  const env = { ...launch.env }
  const options = env['JDK_JAVA_OPTIONS']
  if (options !== undefined) env['JDK_JAVA_OPTIONS'] = options.replace(/-Dosgi\.instance\.area=[^"\s]*/g, `-Dosgi.instance.area=${folder}`)
  return { ...launch, args: [...args, '-data', folder], env }
}

/**
 * The data folders a JDT LS launch names (`-data`, `-Dosgi.instance.area` in JDK_JAVA_OPTIONS): codeseam's own for
 * the root, in its cache, to remove once a test's temporary root is gone.
 */
export function dataFoldersOf(launch: Pick<ToolchainLaunch, 'args' | 'env'>): string[] {
  const folders: string[] = []
  const data = launch.args.indexOf('-data')
  if (data >= 0 && launch.args[data + 1] !== undefined) folders.push(launch.args[data + 1] as string)
  for (const match of (launch.env['JDK_JAVA_OPTIONS'] ?? '').matchAll(/-Dosgi\.instance\.area=([^"\s]+)/g))
    if (match[1] !== undefined) folders.push(match[1])
  return unique(folders)
}

/** How to start the bare server: the same executables codeseam's built-in profiles resolve. */
export async function serverCommand(language: Exclude<OracleLanguage, ToolchainLanguage>): Promise<{ command: string; args: string[] }> {
  const require = createRequire(import.meta.url)
  if (language === 'typescript') {
    // As profiles.ts's nativeTypeScriptExe: the `typescript-native` alias's own lookup of its binary.
    const dir = nodePath.dirname(require.resolve('typescript-native/package.json'))
    const module = (await import(pathToFileURL(nodePath.join(dir, 'lib', 'getExePath.js')).href)) as { default: () => string }
    return { command: module.default(), args: ['--lsp', '--stdio'] }
  }
  const dir = nodePath.dirname(require.resolve('pyright/package.json'))
  return { command: process.execPath, args: [nodePath.join(dir, 'langserver.index.js'), '--stdio'] }
}

const languageIds: Readonly<Record<string, string>> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
}

/** What the oracle tells the server it understands: the forms codeseam asks for (links, hierarchical symbols, prepare rename). */
const capabilities: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  window: { workDoneProgress: true },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    applyEdit: false,
    workspaceEdit: { documentChanges: true },
    symbol: { symbolKind: { valueSet: Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind) } },
  },
  textDocument: {
    synchronization: { didSave: false, willSave: false },
    references: {},
    implementation: { linkSupport: true },
    definition: { linkSupport: true },
    rename: { prepareSupport: true },
    callHierarchy: {},
    documentSymbol: {
      hierarchicalDocumentSymbolSupport: true,
      symbolKind: { valueSet: Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind) },
    },
    publishDiagnostics: { versionSupport: true },
  },
}

/**
 * Answers to workspace/configuration, as codeseam's default (untrusted) settings have them: pyright's
 * analysis settings (pyright's defaults too), and native TS 7's automatic type acquisition off (it would run
 * `npm install` for the workspace's packages; with no registry it never finishes and its progress never ends).
 */
const noTypeAcquisition = { disableAutomaticTypeAcquisition: true, tsserver: { automaticTypeAcquisition: { enabled: false } } }
const settings: Readonly<Record<string, unknown>> = {
  python: { analysis: { diagnosticMode: 'openFilesOnly', autoSearchPaths: true } },
  'js/ts': { tsserver: { automaticTypeAcquisition: { enabled: false } } },
  typescript: noTypeAcquisition,
  javascript: noTypeAcquisition,
}

/** A symbol to ask about: where its name is, workspace-relative, 0-based. */
export interface SymbolTarget {
  readonly path: string
  readonly name: string
  readonly kind: string
  readonly line: number
  readonly character: number
}

/** The normalised answers for one symbol: per operation, sorted unique keys. */
export type SymbolAnswers = Partial<Record<OracleOperation, ReadonlyArray<string>>>

/** The fixed new name every rename asks for (both sides). */
export const renameTo = 'renamedByOracle'

/**
 * The new name a rename asks for (both sides): {@link renameTo}, capitalised for an exported Go name (a rename
 * that unexports a name used by another package is refused by gopls, which would test nothing else).
 */
export function renameToFor(target: Pick<SymbolTarget, 'name'>, language: OracleLanguage): string {
  if (language === 'go' && /^\p{Lu}/u.test(target.name)) return `${renameTo.charAt(0).toUpperCase()}${renameTo.slice(1)}`
  return renameTo
}

/** The formatting options both sides send (codeseam's default when the caller gives none). */
export const formattingOptions = { tabSize: 2, insertSpaces: true } as const

export interface OracleOptions {
  /** Upper bound for start-up plus the wait for every file to be loaded (ms). Default 240 000. */
  readonly loadTimeoutMs?: number
  /** Upper bound for one request (ms). Default 120 000. */
  readonly requestTimeoutMs?: number
  /** gopls and rust-analyzer: the trust level whose spawn plan the server gets (as codeseam's host would). Default untrusted. */
  readonly trust?: TrustLevel
  /**
   * gopls and rust-analyzer: how long the server must stay silent (no diagnostics published, no progress, and for
   * rust-analyzer still quiescent) before it counts as having taken every open file in. Default 3 000 ms.
   */
  readonly settleMs?: number
  /** Files of the workspace NOT to open (a deliberately incomplete oracle, to see the comparison fail). */
  readonly withhold?: (file: string) => boolean
  /**
   * TypeScript and Python: the workspace folders the server is given, instead of the root's own layout (several
   * roots of one workspace under a common `root`, RFC 0025). Every source file under `root` is still opened.
   */
  readonly folders?: ReadonlyArray<string>
}

/** rust-analyzer's own status notification (sent to clients that set `experimental.serverStatusNotification`). */
const serverStatusNotification = new NotificationType<{ health: string; quiescent: boolean; message?: string }>('experimental/serverStatus')

/**
 * JDT LS's status notification: `Starting` while it imports the projects, `ServiceReady` once it answers from them,
 * `Error` when the import failed (it sends no work-done progress). Read here on its own, not through the record's
 * client, so the oracle's readiness is not codeseam's.
 */
const languageStatusNotification = new NotificationType<{ type: string; message?: string }>('language/status')

/** A diagnostics push, as the oracle keeps the last one per document. */
interface Published {
  readonly version: number | undefined
  readonly diagnostics: ReadonlyArray<Diagnostic>
}

/**
 * One bare server over one workspace, every source file open. `start` returns once the server is quiet:
 * pyright has published diagnostics for every open file; native TS 7 has answered a document-symbol
 * request for every file and has no work-done progress running; gopls has published diagnostics for every
 * open file and runs no progress; rust-analyzer says it is quiescent. For gopls and rust-analyzer, the server
 * must then also stay silent for a settle window (see {@link OracleOptions.settleMs}).
 */
export class OracleServer {
  readonly files: ReadonlyArray<string>
  readonly folders: ReadonlyArray<string>
  /** The trust level the server was configured for (gopls and rust-analyzer; the others run codeseam's untrusted settings). */
  readonly trust: TrustLevel
  /** Wall-clock time from spawn to settled, ms. */
  loadMs = 0
  private readonly published = new Map<string, Published>()
  private readonly publishWaiters = new Set<() => void>()
  private readonly progress = new Set<string | number>()
  private readonly progressWaiters = new Set<() => void>()
  private readonly symbolsCache = new Map<string, DocumentSymbol[]>()
  private readonly answerCache = new Map<string, Promise<string[]>>()
  private readonly exited: Promise<never>
  /** The server answers textDocument/diagnostic (statically or by registration): diagnostics are pulled, as codeseam pulls them. */
  private pullDiagnostics = false
  /** rust-analyzer's last status: undefined until its first. */
  private serverStatus: { quiescent: boolean; message?: string } | undefined
  /** JDT LS: its `language/status` types in order (ServiceReady once it answers from the imported projects). */
  private readonly languageStatus: string[] = []
  /** Folders of the oracle's own, removed once the server is gone (JDT LS's data folder). */
  private readonly ownFolders: string[] = []
  /** When the server last published diagnostics, reported progress or changed status (performance.now()). */
  private lastActivity = 0
  private stderr = ''

  private constructor(
    readonly root: string,
    readonly language: OracleLanguage,
    private readonly child: ChildProcess,
    private readonly connection: ProtocolConnection,
    private readonly options: Required<Omit<OracleOptions, 'withhold' | 'folders'>> & Pick<OracleOptions, 'withhold'>,
    private readonly layout: WorkspaceLayout,
    private readonly initializationOptions: unknown,
  ) {
    const withhold = options.withhold
    this.files = sourceFilesOf(root, language).filter((file) => withhold === undefined || !withhold(file))
    this.folders = layout.folders
    this.trust = options.trust
    this.exited = new Promise<never>((_, reject) => {
      child.once('error', reject)
      child.once('exit', (code, signal) =>
        reject(new Error(`the oracle's ${language} server exited (${String(code ?? signal)})\n${this.stderr.slice(-2_000)}`)),
      )
    })
    this.exited.catch(() => {})
  }

  /** gopls and rust-analyzer: the spawn plan of codeseam's built-in profile (and its client capabilities). */
  private get toolchain(): boolean {
    return isToolchainLanguage(this.language)
  }

  /** Starts the server in `root` (an absolute, canonical path), opens every source file and waits until it is quiet. */
  static async start(root: string, language: OracleLanguage, options: OracleOptions = {}): Promise<OracleServer> {
    const started = performance.now()
    const trust = options.trust ?? 'untrusted'
    let command: string
    let args: ReadonlyArray<string>
    let env: Readonly<Record<string, string>> | undefined
    let layout: WorkspaceLayout
    let initializationOptions: unknown = null
    let ownFolder: string | undefined
    if (isToolchainLanguage(language)) {
      let launch = await toolchainLaunch(root, language, trust)
      if (language === 'java') {
        ownFolder = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-oracle-jdtls-data-')))
        launch = withOwnDataFolder(launch, ownFolder)
      }
      ;({ command, args, env, layout } = launch)
      initializationOptions = launch.initializationOptions ?? null
    } else {
      ;({ command, args } = await serverCommand(language))
      const own = await workspaceLayoutOf(options.folders?.[0] ?? root, language)
      layout = options.folders === undefined ? own : { ...own, folders: options.folders }
    }
    const child = spawn(command, [...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], ...(env === undefined ? {} : { env }) })
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!))
    const server = new OracleServer(
      root,
      language,
      child,
      connection,
      {
        loadTimeoutMs: options.loadTimeoutMs ?? 240_000,
        requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
        trust,
        settleMs: options.settleMs ?? 3_000,
        ...(options.withhold === undefined ? {} : { withhold: options.withhold }),
      },
      layout,
      initializationOptions,
    )
    if (ownFolder !== undefined) server.ownFolders.push(ownFolder)
    child.stderr!.on('data', (chunk: Buffer) => {
      server.stderr = (server.stderr + chunk.toString('utf8')).slice(-20_000)
    })
    server.listen()
    try {
      await server.initialize()
      await server.openAll()
    } catch (error) {
      await server.dispose()
      throw error
    }
    server.loadMs = performance.now() - started
    return server
  }

  /** Every server→client request is answered (native TS 7 blocks until its configuration request is). */
  private listen(): void {
    const { connection } = this
    const folders = () => this.folders.map((folder) => ({ uri: pathToFileURL(folder).href, name: nodePath.basename(folder) }))
    const active = () => {
      this.lastActivity = performance.now()
      for (const waiter of this.progressWaiters) waiter()
    }
    connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map((item) => section(item.scopeUri === undefined ? this.layout.unscoped : this.layout.settings, item.section) ?? null),
    )
    connection.onRequest(WorkspaceFoldersRequest.type, () => folders())
    connection.onRequest(RegistrationRequest.type, (params) => {
      if (params.registrations.some((registration) => registration.method === DocumentDiagnosticRequest.method)) this.pullDiagnostics = true
    })
    connection.onRequest(UnregistrationRequest.type, () => undefined)
    // Work-done progress the server starts (native TS 7's project loading, gopls's package loading): followed until it ends.
    connection.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
      connection.onProgress(WorkDoneProgress.type, params.token, (value) => {
        if (value.kind === 'begin') this.progress.add(params.token)
        else if (value.kind === 'end') this.progress.delete(params.token)
        active()
      })
    })
    connection.onNotification(serverStatusNotification, (params) => {
      this.serverStatus = params
      active()
    })
    connection.onNotification(languageStatusNotification, (params) => {
      this.languageStatus.push(params.type)
      active()
    })
    connection.onRequest(ApplyWorkspaceEditRequest.type, () => ({ applied: false, failureReason: 'the oracle applies nothing' }))
    connection.onRequest(ShowMessageRequest.type, () => null)
    connection.onRequest(ShowDocumentRequest.type, () => ({ success: false }))
    connection.onRequest(DiagnosticRefreshRequest.type, () => undefined)
    connection.onRequest(InlayHintRefreshRequest.type, () => undefined)
    connection.onRequest(CodeLensRefreshRequest.type, () => undefined)
    connection.onRequest(SemanticTokensRefreshRequest.type, () => undefined)
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.published.set(params.uri, { version: params.version, diagnostics: params.diagnostics })
      this.lastActivity = performance.now()
      for (const waiter of this.publishWaiters) waiter()
    })
    connection.onUnhandledNotification(() => {})
    connection.listen()
  }

  private async initialize(): Promise<void> {
    const folders = this.folders.map((folder) => ({ uri: pathToFileURL(folder).href, name: nodePath.basename(folder) }))
    const result = await this.request(
      'initialize',
      (c) =>
        c.sendRequest(InitializeRequest.type, {
          processId: process.pid,
          rootUri: pathToFileURL(this.folders[0] ?? this.root).href,
          workspaceFolders: folders,
          // gopls and rust-analyzer shape their answers by what the client says it understands (links, markdown
          // hovers, resource operations, serverStatus): they are told what codeseam's host tells them.
          capabilities: isToolchainLanguage(this.language)
            ? clientCapabilitiesFor({ id: toolchainProfileIds[this.language], command: '', args: [] })
            : capabilities,
          initializationOptions: this.initializationOptions,
          locale: 'en',
        }),
      this.options.loadTimeoutMs,
    )
    if (result.capabilities.diagnosticProvider !== undefined) this.pullDiagnostics = true
    await this.connection.sendNotification(InitializedNotification.type, {})
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: this.layout.settings })
  }

  /** Opens every source file, then waits until the server has taken them all in. */
  private async openAll(): Promise<void> {
    const deadline = Date.now() + this.options.loadTimeoutMs
    // JDT LS files a document opened before its Maven import ends under its invisible project ("jdt.ls-java-project",
    // "… is a non-project file, only syntax errors are reported"), which a loaded machine made happen to a whole
    // javapoet oracle: the files open once the import has ended (ServiceReady), as in an editor opened on a project.
    if (this.language === 'java')
      await this.until(
        () => this.languageStatus.includes('ServiceReady'),
        this.progressWaiters,
        deadline,
        () => `JDT LS not ServiceReady before the files were opened (language/status so far: ${this.languageStatus.join(', ') || 'none'})`,
      )
    for (const file of this.files) {
      const text = readFileSync(file, 'utf8')
      await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: {
          uri: pathToFileURL(file).href,
          languageId: languageIds[nodePath.extname(file).toLowerCase()] ?? 'plaintext',
          version: 1,
          text,
        },
      })
    }
    if (this.toolchain) {
      await this.settle(deadline)
      for (const file of this.files) this.symbolsCache.set(file, await this.fetchDocumentSymbols(file))
      return
    }
    if (this.language === 'python') {
      // pyright pushes diagnostics for an open file once it has analysed it: wait for every file's.
      await this.until(
        () => this.files.every((file) => this.published.has(pathToFileURL(file).href)),
        this.publishWaiters,
        deadline,
        () => {
          const missing = this.files.filter((file) => !this.published.has(pathToFileURL(file).href))
          return `pyright published no diagnostics for ${missing.length} open files (e.g. ${missing.slice(0, 3).join(', ')})`
        },
      )
    }
    // An answer for every file: the server has loaded the project of each (native TS 7 serves every request
    // from a snapshot that includes every open file's project). The outlines are kept for symbol selection.
    for (const file of this.files) this.symbolsCache.set(file, await this.fetchDocumentSymbols(file))
    await this.until(
      () => this.progress.size === 0,
      this.progressWaiters,
      deadline,
      () => `work-done progress still running: ${[...this.progress].join(', ')}`,
    )
  }

  /**
   * gopls and rust-analyzer, every file open: loaded once no progress runs (gopls: the packages of every module
   * an open file is in; rust-analyzer: its status says quiescent — the cargo workspace, build scripts and proc
   * macros at the trust level, every crate indexed), gopls has published diagnostics for every open file, and
   * the server has then been silent for the settle window (diagnostics come in passes).
   */
  private async settle(deadline: number): Promise<void> {
    const everyFilePublished = this.language === 'go' || this.language === 'java'
    const quiet = () =>
      this.progress.size === 0 &&
      (this.language !== 'rust' || this.serverStatus?.quiescent === true) &&
      (this.language !== 'java' || this.languageStatus.includes('ServiceReady')) &&
      (!everyFilePublished || this.files.every((file) => this.published.has(pathToFileURL(file).href)))
    const why = () => {
      const missing = this.files.filter((file) => !this.published.has(pathToFileURL(file).href))
      return [
        this.progress.size > 0 ? `work-done progress still running: ${[...this.progress].join(', ')}` : '',
        this.language === 'rust' && this.serverStatus?.quiescent !== true
          ? `rust-analyzer not quiescent (${this.serverStatus?.message ?? 'no status yet'})`
          : '',
        this.language === 'java' && !this.languageStatus.includes('ServiceReady')
          ? `JDT LS not ServiceReady (language/status so far: ${this.languageStatus.join(', ') || 'none'})`
          : '',
        everyFilePublished && missing.length > 0
          ? `the ${this.language} server published no diagnostics for ${missing.length} open files (e.g. ${missing[0]})`
          : '',
      ]
        .filter((part) => part !== '')
        .join('; ')
    }
    for (;;) {
      await this.until(quiet, this.progressWaiters, deadline, why, this.publishWaiters)
      const silentFor = performance.now() - this.lastActivity
      if (silentFor >= this.options.settleMs) {
        if (quiet()) return
        continue
      }
      if (Date.now() + (this.options.settleMs - silentFor) > deadline)
        throw new Error(`the oracle's ${this.language} server did not settle in ${this.options.loadTimeoutMs} ms: it kept publishing`)
      await new Promise((resolve) => setTimeout(resolve, this.options.settleMs - silentFor))
    }
  }

  /** Resolves once `done()` holds, re-checked whenever a waiter fires; fails at the deadline or on exit. */
  private until(
    done: () => boolean,
    waiters: Set<() => void>,
    deadline: number,
    why: () => string,
    alsoWaiters?: Set<() => void>,
  ): Promise<void> {
    if (done()) return Promise.resolve()
    let waiter: (() => void) | undefined
    let timer: NodeJS.Timeout | undefined
    return Promise.race([
      new Promise<void>((resolve, reject) => {
        waiter = () => done() && resolve()
        waiters.add(waiter)
        alsoWaiters?.add(waiter)
        timer = setTimeout(
          () => reject(new Error(`the oracle's ${this.language} server did not settle in ${this.options.loadTimeoutMs} ms: ${why()}`)),
          Math.max(0, deadline - Date.now()),
        )
      }),
      this.exited,
    ]).finally(() => {
      if (waiter !== undefined) {
        waiters.delete(waiter)
        alsoWaiters?.delete(waiter)
      }
      clearTimeout(timer)
    })
  }

  /** One request (sent by `send` with a typed descriptor), bounded by a deadline and by the server's exit. */
  private request<R>(
    what: string,
    send: (connection: ProtocolConnection) => Promise<R>,
    timeoutMs = this.options.requestTimeoutMs,
  ): Promise<R> {
    let timer: NodeJS.Timeout | undefined
    return Promise.race([
      send(this.connection),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the oracle's ${this.language} server did not answer ${what} within ${timeoutMs} ms`)),
          timeoutMs,
        )
      }),
      this.exited,
    ]).finally(() => clearTimeout(timer))
  }

  private uri(path: string): string {
    return pathToFileURL(nodePath.isAbsolute(path) ? path : nodePath.join(this.root, path)).href
  }

  private at(target: SymbolTarget) {
    return { textDocument: { uri: this.uri(target.path) }, position: { line: target.line, character: target.character } }
  }

  /** Workspace-relative path of a URI inside the root, else undefined (codeseam drops those too). */
  relative(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined
    const path = fileURLToPath(uri)
    const relative = nodePath.relative(this.root, path)
    if (relative === '' || relative.startsWith('..') || nodePath.isAbsolute(relative)) return undefined
    return relative.split(nodePath.sep).join('/')
  }

  /**
   * Text for people with the root's own paths made workspace-relative, as answers speak (JDT LS's hovers end in a
   * `file:///root/src/…#line` link to the declaration; codeseam's seam rewrites every path under the root in free
   * text). The oracle's own rule, kept simple: the root's `file:` URI and path, followed by a separator, go.
   */
  private prose(text: string): string {
    let out = text
    for (const prefix of [`${pathToFileURL(this.root).href}/`, `file://${this.root}/`, `${this.root}/`]) out = out.split(prefix).join('')
    return out
  }

  /**
   * The `!dropped N` key for N locations outside the root: gopls and rust-analyzer only, whose answers point
   * into GOROOT, the module cache, the cargo registry and the toolchain's sources, and whose seam answers say
   * how many they dropped (meta.droppedOutsideWorkspace). TypeScript and Python answers compare as before.
   */
  private dropped(count: number): string[] {
    return this.toolchain ? droppedKey(count) : []
  }

  private async fetchDocumentSymbols(file: string): Promise<DocumentSymbol[]> {
    const answer = await this.request('documentSymbol', (c) =>
      c.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: this.uri(file) } }),
    )
    return (answer ?? []).map((symbol) =>
      'location' in symbol
        ? { name: symbol.name, kind: symbol.kind, range: symbol.location.range, selectionRange: symbol.location.range, children: [] }
        : symbol,
    )
  }

  /** The outline of a file as the server gave it once everything was open (absolute or relative path). */
  documentSymbols(path: string): ReadonlyArray<DocumentSymbol> {
    const absolute = nodePath.isAbsolute(path) ? path : nodePath.join(this.root, path)
    return this.symbolsCache.get(absolute) ?? []
  }

  private locationKeys(answer: Location | ReadonlyArray<Location | LocationLink> | null): string[] {
    const list = answer === null ? [] : Array.isArray(answer) ? (answer as ReadonlyArray<Location | LocationLink>) : [answer as Location]
    let outside = 0
    const keys = list.flatMap((entry) => {
      // A link's full target range is what codeseam's translator reports as the location's range.
      const uri = 'targetUri' in entry ? entry.targetUri : entry.uri
      const range = 'targetUri' in entry ? entry.targetRange : entry.range
      const path = this.relative(uri)
      if (path === undefined) outside++
      return path === undefined ? [] : [locationKey(path, range)]
    })
    return unique([...keys, ...this.dropped(outside)])
  }

  async references(target: SymbolTarget): Promise<string[]> {
    // includeDeclaration: true, as codeseam's operations.ts asks.
    return this.locationKeys(
      await this.request('references', (c) =>
        c.sendRequest(ReferencesRequest.type, { ...this.at(target), context: { includeDeclaration: true } }),
      ),
    )
  }

  async implementation(target: SymbolTarget): Promise<string[]> {
    return this.locationKeys(await this.request('implementation', (c) => c.sendRequest(ImplementationRequest.type, this.at(target))))
  }

  async definition(target: SymbolTarget): Promise<string[]> {
    return this.locationKeys(await this.request('definition', (c) => c.sendRequest(DefinitionRequest.type, this.at(target))))
  }

  /** The hover's text exactly (trimmed) and its range; none when the server has nothing (or only whitespace) to say. */
  async hover(target: SymbolTarget): Promise<string[]> {
    const answer: Hover | null = await this.request('hover', (c) => c.sendRequest(HoverRequest.type, this.at(target)))
    if (answer === null || answer === undefined) return []
    const text = this.prose(hoverText(answer.contents))
    return text.trim() === '' ? [] : [hoverKey(text, answer.range)]
  }

  /**
   * A file's outline, every symbol at every depth with its parent chain, as the server gives it now; its labels named
   * as the language's record names them (gopls' `(*T).M` is `M` in `T`: RFC 0024).
   */
  async documentSymbolKeys(path: string): Promise<string[]> {
    const relative = this.relative(this.uri(path)) ?? path
    const keys: string[] = []
    // The record's naming (gopls' `(*T).M`, JDT LS's `m(int) : void`), as codeseam's translator applies it.
    const naming = this.toolchain
      ? recordFor({ id: toolchainProfileIds[this.language as ToolchainLanguage], command: '', args: [] })?.symbolName
      : undefined
    const nameOf = (label: string, kind: SymbolKind): string => {
      const named = naming?.(label, symbolKindFromNumber(kind))
      return named === undefined || named.name === '' ? label : symbolKeyName(named.name, named.containerName || undefined)
    }
    const visit = (symbol: DocumentSymbol, chain: ReadonlyArray<string>) => {
      const name = nameOf(symbol.name, symbol.kind)
      keys.push(documentSymbolKey(chain, name, symbol.kind, relative, symbol.range, symbol.selectionRange, symbol.detail))
      for (const child of symbol.children ?? []) visit(child, [...chain, name])
    }
    const answer: ReadonlyArray<DocumentSymbol | SymbolInformation> =
      (await this.request('documentSymbol', (c) => c.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: this.uri(path) } }))) ??
      []
    for (const symbol of answer) {
      if ('location' in symbol) {
        keys.push(
          documentSymbolKey(
            [],
            nameOf(symbol.name, symbol.kind),
            symbol.kind,
            relative,
            symbol.location.range,
            symbol.location.range,
            undefined,
          ),
        )
      } else {
        visit(symbol, [])
      }
    }
    return unique(keys)
  }

  /**
   * A file's diagnostics once everything was settled — pulled (textDocument/diagnostic) from a server that offers
   * it, as codeseam then asks, else as the server last published them: (file, range, severity, code, message);
   * related locations outside the root counted as dropped, as codeseam's translator does.
   */
  async diagnostics(path: string): Promise<string[]> {
    const relative = this.relative(this.uri(path)) ?? path
    let diagnostics: ReadonlyArray<Diagnostic> = this.published.get(this.uri(path))?.diagnostics ?? []
    if (this.pullDiagnostics) {
      const report = await this.request('diagnostic', (c) =>
        c.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: this.uri(path) } }),
      )
      diagnostics = report.kind === 'full' ? report.items : []
    }
    let outside = 0
    const keys = diagnostics.map((diagnostic) => {
      for (const related of diagnostic.relatedInformation ?? []) if (this.relative(related.location.uri) === undefined) outside++
      const message = this.prose(typeof diagnostic.message === 'string' ? diagnostic.message : hoverText(diagnostic.message))
      return diagnosticKey(relative, diagnostic.range, severityName(diagnostic.severity), diagnostic.code, message)
    })
    return unique([...keys, ...this.dropped(outside)])
  }

  /** The whole-document formatting edits, with codeseam's default options. */
  async format(path: string): Promise<string[]> {
    const relative = this.relative(this.uri(path)) ?? path
    const edits =
      (await this.request('formatting', (c) =>
        c.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri: this.uri(path) }, options: { ...formattingOptions } }),
      )) ?? []
    return unique(edits.map((edit) => textEditKey(relative, edit.range, edit.newText)))
  }

  /** prepareRename, then rename to {@link renameToFor}: every edited (file, range, new text). */
  async rename(target: SymbolTarget): Promise<string[]> {
    let prepared: unknown
    try {
      prepared = await this.request('prepareRename', (c) => c.sendRequest(PrepareRenameRequest.type, this.at(target)))
    } catch (error) {
      if (error instanceof Error && /did not answer|exited/.test(error.message)) throw error
      return [renameRefusedKey]
    }
    if (prepared === null || prepared === undefined) return [renameRefusedKey]
    const newName = renameToFor(target, this.language)
    const edit = await this.request('rename', (c) => c.sendRequest(RenameRequest.type, { ...this.at(target), newName }))
    return this.editKeys(edit)
  }

  /** An edit's keys; one touching anything outside the root is refused whole (as codeseam refuses it). */
  private editKeys(edit: WorkspaceEdit | null): string[] {
    if (edit === null) return []
    const keys: string[] = []
    let outside = false
    const inside = (uri: string): string => {
      const path = this.relative(uri)
      if (path === undefined) outside = true
      return path ?? uri
    }
    for (const change of edit.documentChanges ?? []) {
      if ('textDocument' in change) {
        const path = inside(change.textDocument.uri)
        for (const text of change.edits) keys.push(textEditKey(path, text.range, 'newText' in text ? text.newText : text.snippet.value))
      } else if (change.kind === 'rename') {
        keys.push(fileOperationKey('rename', inside(change.oldUri), inside(change.newUri)))
      } else {
        keys.push(fileOperationKey(change.kind, inside(change.uri)))
      }
    }
    if (edit.documentChanges === undefined) {
      for (const [uri, edits] of Object.entries(edit.changes ?? {})) {
        const path = inside(uri)
        for (const text of edits) keys.push(textEditKey(path, text.range, text.newText))
      }
    }
    return outside ? [outsideEditKey] : unique(keys)
  }

  /** prepareCallHierarchy, then incoming calls of every item: (caller file, caller selection range, call-site ranges). */
  async incomingCalls(target: SymbolTarget): Promise<string[]> {
    const items =
      (await this.request('prepareCallHierarchy', (c) => c.sendRequest(CallHierarchyPrepareRequest.type, this.at(target)))) ?? []
    const keys: string[] = []
    let outside = 0
    for (const item of items) {
      // An item outside the root is dropped (codeseam never gets to ask for its callers).
      if (this.relative(item.uri) === undefined) {
        outside++
        continue
      }
      const calls = (await this.request('incomingCalls', (c) => c.sendRequest(CallHierarchyIncomingCallsRequest.type, { item }))) ?? []
      for (const call of calls) {
        const path = this.relative(call.from.uri)
        if (path === undefined) outside++
        else keys.push(callKey(path, call.from.selectionRange, call.fromRanges))
      }
    }
    return unique([...keys, ...this.dropped(outside)])
  }

  /** Workspace symbols for a query: (name, kind, file, range), files of this language only. */
  async workspaceSymbols(query: string): Promise<string[]> {
    const answer: ReadonlyArray<SymbolInformation | WorkspaceSymbol> =
      (await this.request('workspaceSymbol', (c) => c.sendRequest(WorkspaceSymbolRequest.type, { query }))) ?? []
    const capped = cappedKeys(this.language, answer.length)
    if (capped !== undefined) return capped
    const extensions = sourceExtensions[this.language]
    let outside = 0
    const keys = answer.flatMap((symbol) => {
      const path = this.relative(symbol.location.uri)
      if (path === undefined) outside++
      if (path === undefined || !extensions.includes(nodePath.extname(path).toLowerCase())) return []
      const range =
        'range' in symbol.location ? symbol.location.range : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }
      return [workspaceSymbolKey(symbol.name, symbol.kind, path, range)]
    })
    return unique([...keys, ...this.dropped(outside)])
  }

  /** Every operation of the language for one symbol; a failed request becomes an `!error` key (never an empty answer). */
  async answers(target: SymbolTarget, operations: ReadonlyArray<OracleOperation> = operationsFor(this.language)): Promise<SymbolAnswers> {
    const out: Partial<Record<OracleOperation, ReadonlyArray<string>>> = {}
    for (const operation of operations) {
      try {
        out[operation] = await this.ask(operation, target)
      } catch (error) {
        if (/exited/.test((error as Error).message)) throw error
        out[operation] =
          this.toolchain && error instanceof ResponseError
            ? [serverErrorKey(error.code, error.message)]
            : [`!error ${(error as Error).message.split('\n')[0] ?? ''}`]
      }
    }
    return out
  }

  /** One operation for one symbol; answers are cached (nothing changes under the oracle). File-wide operations, per file. */
  ask(operation: OracleOperation, target: SymbolTarget): Promise<string[]> {
    const fileWide = operation === 'documentSymbols' || operation === 'diagnostics' || operation === 'format'
    const key = fileWide ? `${operation} ${target.path}` : `${operation} ${target.path}:${target.line}:${target.character} ${target.name}`
    let answer = this.answerCache.get(key)
    if (answer === undefined) {
      answer = this.compute(operation, target)
      this.answerCache.set(key, answer)
      answer.catch(() => this.answerCache.delete(key))
    }
    return answer
  }

  private compute(operation: OracleOperation, target: SymbolTarget): Promise<string[]> {
    switch (operation) {
      case 'workspaceSymbols':
        return this.workspaceSymbols(target.name)
      case 'references':
        return this.references(target)
      case 'rename':
        return this.rename(target)
      case 'implementation':
        return this.implementation(target)
      case 'incomingCalls':
        return this.incomingCalls(target)
      case 'definition':
        return this.definition(target)
      case 'hover':
        return this.hover(target)
      case 'documentSymbols':
        return this.documentSymbolKeys(target.path)
      case 'diagnostics':
        return this.diagnostics(target.path)
      case 'format':
        return this.format(target.path)
    }
  }

  /** shutdown → exit → end of input; killed if it does not leave within a few seconds. */
  async dispose(): Promise<void> {
    const gone = new Promise<void>((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) resolve()
      else this.child.once('exit', () => resolve())
    })
    const within = (ms: number) =>
      Promise.race([gone.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())])
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), within(3_000)])
      await this.connection.sendNotification(ExitNotification.type)
    } catch {
      // a server that cannot shut down politely is killed below
    }
    this.child.stdin?.end()
    if (!(await within(3_000))) {
      this.child.kill('SIGKILL')
      await within(3_000)
    }
    this.connection.dispose()
    for (const folder of this.ownFolders) rmSync(folder, { recursive: true, force: true })
  }
}

/**
 * A hover's (or a markup diagnostic message's) contents as one text, by the protocol's own rules: MarkupContent
 * is its value; a MarkedString with a language is a fenced code block; several are joined by a blank line.
 */
export function hoverText(contents: Hover['contents'] | { kind: string; value: string }): string {
  if (typeof contents === 'string') return contents
  if (Array.isArray(contents))
    return contents
      .map((part) => hoverText(part as Hover['contents']))
      .filter((text) => text !== '')
      .join('\n\n')
  if ('kind' in contents) return contents.value
  return `\`\`\`${contents.language}\n${contents.value}\n\`\`\``
}
