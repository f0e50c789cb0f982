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
import { unlocatedProfiles } from './languages/index.js'
import { providersFor } from './providers.js'
import { standIn } from './stand-in.js'
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

/**
 * A host on its way ({@link startLocalHost}): a {@link LocalHost} at once, its providers and workspaces stand-ins
 * until the host itself is {@link ready}.
 */
export interface PendingLocalHost extends LocalHost {
  /** The host, once every built-in server was looked up (versions probed); rejects as {@link createLocalHost} does. */
  readonly ready: Promise<LocalHost>
  /** The host when {@link ready} has resolved, else undefined. */
  readonly current: LocalHost | undefined
}

/**
 * Starts creating a host and answers at once with it (RFC 0034, "Start"): looking up every built-in server (their
 * versions probed: about a second, mostly waiting) no longer holds up a question that does not need a server
 * (one a stored index answers). Until the host is {@link PendingLocalHost.ready}, its `providers` are stand-ins
 * (see {@link standIn}; register the host's own in their place once it is, for their exact operations) and
 * `openWorkspace` gives a workspace that reads files itself (no server runs yet: none can have a file open) and
 * hands everything to the host's workspace of the root once there is one; the rest waits for the host.
 */
export async function startLocalHost(
  options: LocalHostOptions = {},
  start: {
    /**
     * The lookup begins once this settles (a stored index being read: the work the first answer waits for gets the
     * processor first; the lookup, mostly waiting on child processes, follows). Default: at once.
     */
    readonly after?: Promise<unknown>
  } = {},
): Promise<PendingLocalHost> {
  const create = () => createLocalHost(options)
  const creating = start.after === undefined ? create() : start.after.then(create, create)
  // The host once created (its workspaces of the roots opened early may still be opening).
  let made: LocalHost | undefined
  creating.then((created) => void (made = created)).catch(() => {})
  let host: LocalHost | undefined
  // The host's workspaces of the roots opened early: the host serves (is ready) once they are open in it too.
  const opening: Array<Promise<unknown>> = []
  const ready = creating.then(async (created) => {
    for (let count = -1; count !== opening.length;) {
      count = opening.length
      await Promise.allSettled(opening)
    }
    host = created
    return created
  })
  ready.catch(() => {}) // each use answers the failure
  // The profiles the host will have, told from the records (a config that cannot be told so: wait for the host).
  const early = await resolveHostConfig(options, options.builtins === false ? [] : unlocatedProfiles()).catch(() => undefined)
  if (early === undefined) await ready
  const standIns = (early?.profiles ?? [])
    .filter((p) => p.companionOnly !== true)
    .map((p) =>
      standIn(
        p,
        ready,
        () => host,
        () => made,
      ),
    )
  const whenReady = <T>(use: (created: LocalHost) => T | Promise<T>): Promise<T> => ready.then(use)
  const openWorkspace = async (root: string, open: OpenWorkspaceOptions = {}): Promise<LspWorkspace> => {
    if (host !== undefined || early === undefined) return (host ?? (await ready)).openWorkspace(root, open)
    const containment = await Containment.forRoot(root)
    const since = host as LocalHost | undefined // it may be set by now
    if (since !== undefined) return since.openWorkspace(root, open)
    const id = open.id ?? (nodePath.basename(containment.root) || 'root')
    const reader = new LocalWorkspace(id, containment, open.trust ?? 'untrusted', { liveServersUnder: () => [] }, early.limits)
    const theirs = creating.then((created) => created.openWorkspace(root, open))
    opening.push(theirs)
    let settled: LspWorkspace | undefined
    theirs.then((workspace) => void (settled = workspace)).catch(() => {})
    const now = (): LspWorkspace => settled ?? reader
    return {
      id,
      root: containment.root,
      get containment(): Containment {
        return now().containment ?? containment
      },
      readFile: (path, signal) => now().readFile(path, signal),
      readResolved: (file, signal) => {
        const workspace = now()
        return workspace.readResolved === undefined ? workspace.readFile(file.lexical, signal) : workspace.readResolved(file, signal)
      },
      exists: (path) => now().exists(path),
      applyEdit: async (edit, applyOptions) => (await theirs).applyEdit(edit, applyOptions),
    }
  }
  return {
    ready,
    get current() {
      return host
    },
    get providers() {
      return host?.providers ?? standIns
    },
    openWorkspace,
    setTrust: (root, trust) => whenReady((created) => created.setTrust(root, trust)),
    attach: (lsp, roots) => whenReady((created) => created.attach(lsp, roots)),
    status: () => host?.status() ?? standIns.flatMap((provider) => provider.status?.() ?? []),
    statusWithMemory: () => whenReady((created) => created.statusWithMemory()),
    // A host that failed to start has nothing to stop.
    dispose: () =>
      creating.then(
        (created) => created.dispose(),
        () => undefined,
      ),
  }
}
