import { isWithin } from '@codeseam/lsp'
import type { ClientCapabilities, MessageConnection } from 'vscode-languageserver-protocol/node'

import type { FileLimits } from '../documents/file-limits.js'
import type { ClientRequestContext } from '../languages/record.js'

/** Everything needed to run one server for one project root. */
export interface LanguageServerSpec {
  /** What the host tells the server it understands (assembled from the feature records; the host hands them to the pool). */
  readonly clientCapabilities: ClientCapabilities
  readonly profileId: string
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly root: string
  /** Further workspace folders of the same server (nested project folders inside `root`). */
  readonly folders?: ReadonlyArray<string>
  /** Project folders the server covers (its root and every nested project, folder or not); default its workspace folders. */
  readonly projectCount?: number
  /** Answers to workspace/configuration requests that name no scope (a server's default workspace); default `settings`. */
  readonly unscopedSettings?: Readonly<Record<string, unknown>>
  readonly env: Readonly<Record<string, string>>
  readonly initializationOptions?: unknown
  readonly settings: Readonly<Record<string, unknown>>
  readonly maxMessageBytes: number
  readonly stderrLines: number
  readonly maxOpenDocuments: number
  /** What a file must be to be sent to the server at all (RFC 0013); none when not given. */
  readonly fileLimits?: FileLimits
  readonly livenessGraceMs: number
  /**
   * The server reports its own readiness through `experimental/serverStatus` (rust-analyzer): until it says
   * `quiescent`, it counts as busy, like an active work-done progress.
   */
  readonly serverStatus?: boolean
  /** Tell the server to ask the client for remote content (see `ServerProfile.clientContent`). */
  readonly clientContent?: boolean
  /** Answer the requests the server makes of its client (its record's `serveClient`), for these extensions' files. */
  readonly editorServices?: EditorServices | undefined
  /** The only workspace/executeCommand commands code actions may run (the language record's), when it has a list. */
  readonly allowedCommands?: ReadonlyArray<string> | undefined
  /** The workspace root the server's files must stay in (its own root when not given). */
  readonly workspaceRoot?: string
  /**
   * Further roots of the same workspace this server serves (RFC 0025): each is a workspace folder of its own,
   * and a file inside any of them may be opened on the server. Roots are never nested in one another.
   */
  readonly sharedRoots?: ReadonlyArray<string>
  /** Called when a read was refused because the file now resolves outside the workspace root. */
  readonly onEscape?: () => void
}

/** The folders whose files a server holds: its own folder, then the other workspace roots it serves (RFC 0025). */
export function serverFolders(spec: Pick<LanguageServerSpec, 'root' | 'sharedRoots'>): ReadonlyArray<string> {
  return [spec.root, ...(spec.sharedRoots ?? [])]
}

/** Every workspace root a server serves: its own, then the roots it shares (RFC 0025). */
export function serverRoots(spec: Pick<LanguageServerSpec, 'root' | 'workspaceRoot' | 'sharedRoots'>): ReadonlyArray<string> {
  return [spec.workspaceRoot ?? spec.root, ...(spec.sharedRoots ?? [])]
}

/** The root a file of the server lies in (a server may serve several roots of one workspace, RFC 0025); its own when none. */
export function rootOfFile(spec: Pick<LanguageServerSpec, 'root' | 'workspaceRoot' | 'sharedRoots'>, path: string): string {
  const roots = serverRoots(spec)
  return roots.find((root) => isWithin(root, path)) ?? spec.workspaceRoot ?? spec.root
}

/** The requests a server makes of its client that an editor answers (its record's), and the workspace files they are about. */
export interface EditorServices {
  serve(connection: MessageConnection, context: ClientRequestContext): void
  /** The workspace's files of the server's languages (bounded). */
  listFiles(root: string): Promise<ReadonlyArray<string>>
}
