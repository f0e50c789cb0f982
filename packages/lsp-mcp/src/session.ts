import { realpath } from 'node:fs/promises'

import { createLsp, LspError, type LspService, type LspWorkspaceInfo } from '@codeseam/lsp'
import { createLocalHost, readConfigFile, type HostConfig, type LocalHost, type TrustLevel } from '@codeseam/lsp-local'

import { checkRootFolder, givenRoots } from './roots.js'

/**
 * A codeseam session: one `ctx.lsp` with the local language-server host attached to the given roots. The
 * MCP server and the CLI both run on one; disposing it stops every language server it started.
 */

/** Options for {@link openSession}. */
export interface SessionOptions {
  /** Workspace roots (absolute or relative to the current directory); default: the current directory. */
  readonly roots?: ReadonlyArray<string>
  /** A JSON file with an lsp-local host config (extra or overriding server profiles, limits). */
  readonly configFile?: string
  /** Trust level of every root; default `untrusted` (no profile may run code the workspace chooses). */
  readonly trust?: TrustLevel
  /** Resource limits; each given field overrides the config file's. */
  readonly limits?: HostConfig['limits']
  /** Host environment variables servers may see, on top of the config file's. */
  readonly envAllow?: ReadonlyArray<string>
}

/** The host config: the file's, with the command line's limits and environment allow-list laid over it field by field. */
async function hostConfig(options: SessionOptions): Promise<HostConfig> {
  const file: HostConfig = options.configFile === undefined ? {} : await readConfigFile(options.configFile)
  const limits = { ...file.limits, ...options.limits }
  const envAllow = [...(file.envAllow ?? []), ...(options.envAllow ?? [])]
  return { ...file, ...(Object.keys(limits).length > 0 ? { limits } : {}), ...(envAllow.length > 0 ? { envAllow } : {}) }
}

/** An open session. */
export interface CodeseamSession {
  readonly lsp: LspService
  readonly host: LocalHost
  /** The open workspaces, in the order the roots were given. */
  readonly roots: ReadonlyArray<LspWorkspaceInfo>
  readonly trust: TrustLevel
  /** Releases every registration and stops every language server (bounded, idempotent). */
  dispose(): Promise<void>
}

async function checkedRoot(root: string): Promise<string> {
  return realpath(checkRootFolder(root))
}

/** Opens a session: creates `ctx.lsp`, starts the local host (servers start lazily, on the first query) and attaches the roots. */
export async function openSession(options: SessionOptions = {}): Promise<CodeseamSession> {
  const trust = options.trust ?? 'untrusted'
  const given = givenRoots(options.roots)
  const roots = [...new Set(await Promise.all(given.map(checkedRoot)))]
  const lsp = createLsp()
  const host = await createLocalHost(await hostConfig(options))
  let detach: (() => Promise<void>) | undefined
  try {
    detach = await host.attach(
      lsp,
      roots.map((root) => ({ root, trust })),
    )
  } catch (error) {
    await host.dispose()
    await lsp.dispose()
    throw error
  }
  const open = roots.map((root) => {
    const workspace = lsp.workspace(root)
    if (workspace === undefined) throw new LspError('UNAVAILABLE', `the host did not open the workspace ${root}`)
    return { id: workspace.id, root: workspace.root }
  })
  let disposed: Promise<void> | undefined
  return {
    lsp,
    host,
    roots: open,
    trust,
    dispose() {
      disposed ??= (async () => {
        // Hold the process open until every server is stopped: the host waits on handles it unrefs (its
        // watchdog's exit), and a process with nothing else to do would exit before the stop completes.
        const hold = setInterval(() => {}, 60_000)
        try {
          await detach?.()
          await host.dispose()
          await lsp.dispose()
        } finally {
          clearInterval(hold)
        }
      })()
      return disposed
    },
  }
}
