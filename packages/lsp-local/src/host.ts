import * as nodePath from 'node:path'

import {
  Containment,
  declareTelemetryIds,
  LspError,
  type Disposer,
  type LspProvider,
  type LspProviderStatus,
  type LspService,
  type LspWorkspace,
} from '@codeseam/lsp'

import { resolveHostConfig, type HostOptions, type TrustLevel } from './policy/config.js'
import type { MemoryBudget } from './pool/budget.js'
import { HostCore } from './pool/host-core.js'
import { builtinProfiles } from './policy/builtin-profiles.js'
import { negotiatedOperations } from './features/capabilities.js'
import { clientCapabilitiesFor } from './features/client-capabilities.js'
import { providersFor } from './providers.js'
import { LocalWorkspace } from './workspace/workspace.js'

/** How to open one workspace root. */
export interface OpenWorkspaceOptions {
  /** Short id models can name (default: the folder name). */
  readonly id?: string
  /** Default `untrusted`. */
  readonly trust?: TrustLevel
}

/** A root given to {@link LocalHost.attach}: a path, or a path with options. */
export type AttachRoot = string | ({ readonly root: string } & OpenWorkspaceOptions)

/**
 * The local language-server host: one {@link LspProvider} per enabled profile (the seam gives each
 * extension to exactly one provider) and one {@link LspWorkspace} per opened root.
 */
export interface LocalHost {
  /** One provider per enabled profile, id `local:<profile id>`. Register them with `lsp.registerProvider`. */
  readonly providers: ReadonlyArray<LspProvider>
  /** Opens (or returns the already open) workspace for a root; the root is canonicalized with realpath. */
  openWorkspace(root: string, options?: OpenWorkspaceOptions): Promise<LspWorkspace>
  /** Changes a root's trust level; its running servers are stopped so the next query starts them with the new settings. */
  setTrust(root: string, trust: TrustLevel): Promise<void>
  /** Registers every provider and opens and registers each root; the disposer releases all of it (servers keep running until {@link dispose}). */
  attach(lsp: LspService, roots: ReadonlyArray<AttachRoot>): Promise<Disposer>
  /** Status of every (root, profile) server, plus unavailable profiles. */
  status(): ReadonlyArray<LspProviderStatus>
  /** Like {@link status}, with the resident memory of each server's process tree (reads /proc). */
  statusWithMemory(): Promise<ReadonlyArray<LspProviderStatus>>
  /** Stops every server (shutdown → exit → SIGTERM → SIGKILL, bounded). Idempotent. */
  dispose(): Promise<void>
}

/** What creating a host takes: its configuration, and what it shares with other hosts of the process. */
export interface LocalHostOptions extends HostOptions {
  /**
   * A memory budget shared with other hosts ({@link createMemoryBudget}; a daemon's two trust levels, RFC 0033):
   * every server of each counts against one total. Without it the host keeps its own, of `limits.memoryBudgetBytes`.
   */
  readonly memoryBudget?: MemoryBudget
}

/**
 * Creates a local language-server host: built-in profiles (unless `builtins: false`) merged with the
 * user's, one provider per enabled profile, nothing started until the first query.
 */
export async function createLocalHost(options: LocalHostOptions = {}): Promise<LocalHost> {
  const builtins = options.builtins === false ? [] : await builtinProfiles()
  // Built-in profile ids name no one's code: spans carry them as they are (a user's own profile is hashed).
  declareTelemetryIds(builtins.flatMap((p) => [p.id, `local:${p.id}`]))
  const config = await resolveHostConfig(options, builtins)
  const core = new HostCore(config, { clientCapabilities: clientCapabilitiesFor, negotiatedOperations }, options.memoryBudget)
  const providers = providersFor(config, core)
  let disposing: Promise<void> | undefined

  const openWorkspace = async (root: string, open: OpenWorkspaceOptions = {}): Promise<LocalWorkspace> => {
    if (core.disposed) throw new LspError('DISPOSED', 'the lsp-local host was disposed')
    const containment = await Containment.forRoot(root)
    const existing = core.openAt(containment.root)
    if (existing !== undefined) {
      if (open.trust !== undefined && open.trust !== existing.trust) await setTrust(containment.root, open.trust)
      core.addWorkspace(existing, root)
      return existing
    }
    const workspace = new LocalWorkspace(
      open.id ?? (nodePath.basename(containment.root) || 'root'),
      containment,
      open.trust ?? 'untrusted',
      core,
      core.config.limits,
    )
    core.addWorkspace(workspace, root)
    core.prefetchProjects(workspace)
    return workspace
  }

  const setTrust = async (root: string, trust: TrustLevel): Promise<void> => {
    const workspace = core.workspaceFor(root)
    if (workspace.trust === trust) return
    workspace.trust = trust
    // Servers started under the old level keep its settings: stop them; the next query starts fresh ones.
    await core.stopSlotsUnder(workspace.root)
  }

  const host: LocalHost = {
    providers,
    openWorkspace,
    setTrust,
    async attach(lsp: LspService, roots: ReadonlyArray<AttachRoot>): Promise<Disposer> {
      const releases: Disposer[] = []
      try {
        for (const provider of providers) releases.push(lsp.registerProvider(provider))
        for (const entry of roots) {
          const { root, ...open } = typeof entry === 'string' ? { root: entry } : entry
          releases.push(lsp.registerWorkspace(await openWorkspace(root, open)))
        }
      } catch (error) {
        await Promise.all(releases.map((release) => release()))
        throw error
      }
      let released: Promise<void> | undefined
      return () => (released ??= Promise.all(releases.map((release) => release())).then(() => undefined))
    },
    status(): ReadonlyArray<LspProviderStatus> {
      return providers.flatMap((provider) => provider.status())
    },
    statusWithMemory(): Promise<ReadonlyArray<LspProviderStatus>> {
      return core.statusWithMemory()
    },
    dispose(): Promise<void> {
      disposing ??= core.dispose()
      return disposing
    },
  }
  return host
}
