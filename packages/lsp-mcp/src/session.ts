import { realpath } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { createLsp, LspError, type Disposer, type LspProvider, type LspService, type LspWorkspaceInfo } from '@codeseam/lsp'
import type { LoadedIndex } from '@codeseam/lsp-index'
import {
  readConfigFile,
  startLocalHost,
  type HostConfig,
  type LocalHost,
  type PendingLocalHost,
  type TrustLevel,
} from '@codeseam/lsp-local'

import { Quiet } from './quiet.js'
import { checkRootFolder, givenRoots } from './roots.js'

/**
 * A codeseam session: one `ctx.lsp` with the local language-server host attached to the session's roots. The
 * MCP server and the CLI both run on one; disposing it stops every language server it started. A session of
 * the shared daemon (`codeseam serve`) runs on the daemon's host instead: it sees only its own roots, and
 * its servers are shared with every other session of the same trust on the same root.
 */

/** Options for {@link openSession}. */
export interface SessionOptions {
  /** Workspace roots (absolute or relative to the current directory); default: the current directory. An empty list opens none (roots come later, see {@link CodeseamSession.setRoots}). */
  readonly roots?: ReadonlyArray<string>
  /** A JSON file with an lsp-local host config (extra or overriding server profiles, limits). */
  readonly configFile?: string
  /** Trust level of every root; default `untrusted` (no profile may run code the workspace chooses). */
  readonly trust?: TrustLevel
  /** Resource limits; each given field overrides the config file's. */
  readonly limits?: HostConfig['limits']
  /** Host environment variables servers may see, on top of the config file's. */
  readonly envAllow?: ReadonlyArray<string>
  /**
   * A host shared with other sessions (the daemon's host of this session's trust level). The session uses
   * its servers and never disposes it; `configFile`, `limits` and `envAllow` are then the host's business.
   */
  readonly host?: LocalHost
  /** When given, every root must be one of these folders or inside one (a daemon's `--root` ceiling). */
  readonly within?: ReadonlyArray<string>
  /**
   * Answer from a stored index of a root when there is one (`codeseam index`, RFC 0034): files unchanged since
   * indexing from the index, the rest from the live server. Default true; `--no-index` turns it off. The index is a
   * file in codeseam's cache, only read: nothing from the workspace runs for it.
   */
  readonly index?: boolean
}

/** The host config: the file's, with the command line's limits and environment allow-list laid over it field by field. */
export async function hostConfig(options: Pick<SessionOptions, 'configFile' | 'limits' | 'envAllow'>): Promise<HostConfig> {
  const file: HostConfig = options.configFile === undefined ? {} : await readConfigFile(options.configFile)
  const limits = { ...file.limits, ...options.limits }
  const envAllow = [...(file.envAllow ?? []), ...(options.envAllow ?? [])]
  return { ...file, ...(Object.keys(limits).length > 0 ? { limits } : {}), ...(envAllow.length > 0 ? { envAllow } : {}) }
}

/** What {@link CodeseamSession.setRoots} changed: canonical root paths. */
export interface RootsChange {
  readonly opened: ReadonlyArray<string>
  readonly closed: ReadonlyArray<string>
}

/** An open session. */
export interface CodeseamSession {
  readonly lsp: LspService
  readonly host: LocalHost
  /** The open workspaces now, in the order the roots were given. */
  readonly roots: ReadonlyArray<LspWorkspaceInfo>
  readonly trust: TrustLevel
  /**
   * Resolves once the host has started (every built-in server looked up, its version probed) and its own providers
   * serve the session: until then questions go through stand-ins (RFC 0034, "Start"), and a status would show
   * servers not yet looked up. Never rejects (a host that failed to start answers its error to each question).
   */
  readonly started: Promise<void>
  /**
   * Makes the open roots exactly these (client roots that changed): opens the new ones, closes the others.
   * Every root is checked first (an existing folder, inside the session's ceiling); on a bad one nothing changes.
   */
  setRoots(roots: ReadonlyArray<string>): Promise<RootsChange>
  /** Releases every registration and stops every language server the session started (bounded, idempotent). */
  dispose(): Promise<void>
}

async function checkedRoot(root: string): Promise<string> {
  return realpath(checkRootFolder(root))
}

function isWithin(root: string, folder: string): boolean {
  const relative = nodePath.relative(folder, root)
  return relative === '' || (!relative.startsWith('..') && !nodePath.isAbsolute(relative))
}

type IndexModule = typeof import('@codeseam/lsp-index')

/** `provider` with `query` calling `signal` first. Every other member is the provider's own (methods bound to it). */
function signalling(provider: LspProvider, signal: () => void): LspProvider {
  return withQuery(provider, (request, abort) => {
    signal()
    return provider.query(request, abort)
  })
}

/** `provider` whose questions `quiet` counts while they are in flight. */
function tracked(provider: LspProvider, quiet: Quiet): LspProvider {
  return withQuery(provider, (request, abort) => quiet.track(() => provider.query(request, abort)))
}

/** `provider` with its `query` replaced, everything else its own. */
function withQuery(provider: LspProvider, query: LspProvider['query']): LspProvider {
  return new Proxy(provider, {
    get(target, key) {
      if (key === 'query') return query
      const value: unknown = Reflect.get(target, key, target)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
}

/**
 * Registers `providers` on `lsp`, at once (nothing awaited: a host's stand-ins are replaced by its own providers in
 * one step). With the index module, the provider of `.ts` files is composed with the stored index of each root
 * (`@codeseam/lsp-index`): registered once, in its place. With `standIns` (the host's stand-ins, before its lookup),
 * `needsServer` is called when a question goes to a provider of the host (not answered from an index) and `quiet`
 * counts every question while it is in flight (see {@link hostDelayMs}).
 */
function registerProviders(
  lsp: LspService,
  providers: ReadonlyArray<LspProvider>,
  composed: IndexModule | undefined,
  indexFor: (root: string) => Promise<LoadedIndex | undefined>,
  standIns?: { readonly needsServer: () => void; readonly quiet: Quiet },
): Disposer {
  const releases: Disposer[] = []
  try {
    for (const provider of providers) {
      const live = standIns === undefined ? provider : signalling(provider, standIns.needsServer)
      const withIndex =
        composed !== undefined && '.ts' in provider.extensions ? composed.createIndexAndLiveProvider({ live, indexFor }) : live
      releases.push(lsp.registerProvider(standIns === undefined ? withIndex : tracked(withIndex, standIns.quiet)))
    }
  } catch (error) {
    // Releasing deregisters at once (what it awaits is the provider's own dispose).
    for (const release of releases) void release()
    throw error
  }
  let released: Promise<void> | undefined
  return () => (released ??= Promise.all(releases.map((release) => release())).then(() => undefined))
}

/**
 * With a stored index of a root, the host's lookup of every built-in server (their versions probed: child processes
 * spawned, a fifth of a second of the processor on tanstack-query, issue 52) begins once the index is ready and no
 * question has been in flight for this long, or as soon as a question needs a live server: answers from the index,
 * a long one's pages among them, do not share the processor with it.
 */
const hostDelayMs = 500

/** Opens a session: creates `ctx.lsp`, starts the local host (servers start lazily, on the first query) and attaches the roots. */
export async function openSession(options: SessionOptions = {}): Promise<CodeseamSession> {
  const trust = options.trust ?? 'untrusted'
  const within = options.within === undefined ? undefined : await Promise.all(options.within.map(checkedRoot))
  const canonical = async (roots: ReadonlyArray<string>): Promise<string[]> => {
    const checked = [...new Set(await Promise.all(roots.map(checkedRoot)))]
    for (const root of checked) {
      if (within !== undefined && !within.some((folder) => isWithin(root, folder))) {
        throw new LspError('OUTSIDE_WORKSPACE', `${root} is outside the roots this codeseam daemon serves (${within.join(', ')})`, {
          data: { served: within },
        })
      }
    }
    return checked
  }
  const initial = await canonical(options.roots !== undefined && options.roots.length === 0 ? [] : givenRoots(options.roots))
  // The stored index of each root is read and the disk compared with it while the host starts (its servers'
  // versions are probed then: the process mostly waits), so the first question finds both done. Held until the
  // session ends; the composed provider asks for a root's index here first. A host of the session's own answers at
  // once with stand-ins for its providers and workspaces (RFC 0034, "Start"): a question the index answers does not
  // wait for every server's lookup; its own providers replace the stand-ins once it is ready.
  // The lookup begins once the initial roots' indexes are read (the processor goes to what the first answer waits
  // for; the lookup mostly waits on child processes).
  const composed = options.index === false ? undefined : await import('@codeseam/lsp-index').catch(() => undefined)
  const prepared = new Map<string, Promise<LoadedIndex | undefined>>()
  const prepare = (roots: ReadonlyArray<string>) => {
    if (composed === undefined) return
    for (const root of roots) if (!prepared.has(root)) prepared.set(root, composed.prepareStoredIndex(root))
  }
  const indexFor = (root: string): Promise<LoadedIndex | undefined> =>
    prepared.get(root) ?? composed?.loadStoredIndex(root) ?? Promise.resolve(undefined)
  prepare(initial)
  let needsServer: () => void = () => {}
  const needed = new Promise<void>((resolve) => (needsServer = resolve))
  const quiet = new Quiet()
  const after = Promise.all(initial.map((root) => prepared.get(root))).then((loaded) =>
    loaded.some((index) => index !== undefined) ? Promise.race([needed, quiet.pause(hostDelayMs)]) : undefined,
  )
  const starting = options.host === undefined ? hostConfig(options).then((config) => startLocalHost(config, { after })) : undefined
  starting?.catch(() => {})
  const lsp = createLsp()
  const shared = options.host !== undefined
  const pending: PendingLocalHost | undefined = await starting
  const host: LocalHost = options.host ?? (pending as PendingLocalHost)
  const open = new Map<string, { readonly info: LspWorkspaceInfo; readonly release: Disposer }>()
  let detachProviders: Disposer | undefined
  const openRoot = async (root: string) => {
    const workspace = await host.openWorkspace(root, { trust })
    const release = lsp.registerWorkspace(workspace)
    open.set(root, { info: { id: workspace.id, root: workspace.root }, release })
  }
  const first = host.providers
  try {
    detachProviders = registerProviders(lsp, first, composed, indexFor, pending === undefined ? undefined : { needsServer, quiet })
    for (const root of initial) await openRoot(root)
  } catch (error) {
    await Promise.all([...open.values()].map((entry) => entry.release()))
    await detachProviders?.()
    if (!shared) await host.dispose()
    await lsp.dispose()
    throw error
  }
  let disposed: Promise<void> | undefined
  let started: Promise<void> = Promise.resolve()
  if (pending !== undefined && first !== pending.current?.providers) {
    // The stand-ins out, the host's own providers in, in one step: no question finds a file without its provider.
    started = pending.ready.then(
      (created) => {
        if (disposed !== undefined) return
        const standIns = detachProviders
        void standIns?.()
        try {
          detachProviders = registerProviders(lsp, created.providers, composed, indexFor)
        } catch (error) {
          // Not expected (the stand-ins claim what the host's providers do): keep the stand-ins, which ask the host's.
          detachProviders = registerProviders(lsp, first, composed, indexFor)
          process.stderr.write(`codeseam: the language-server host's providers could not replace their stand-ins: ${String(error)}\n`)
        }
      },
      () => {},
    )
  }
  let order = initial
  // One change at a time: a `list_changed` arriving while the previous one is applied waits its turn.
  let changing: Promise<unknown> = Promise.resolve()
  const setRoots = (roots: ReadonlyArray<string>): Promise<RootsChange> => {
    const run = async (): Promise<RootsChange> => {
      if (disposed !== undefined) throw new LspError('DISPOSED', 'the codeseam session was closed')
      const next = await canonical(roots)
      const opened = next.filter((root) => !open.has(root))
      const closed = [...open.keys()].filter((root) => !next.includes(root))
      for (const root of closed) {
        const entry = open.get(root)
        open.delete(root)
        await entry?.release()
      }
      prepare(opened)
      for (const root of closed) prepared.delete(root)
      for (const root of opened) await openRoot(root)
      order = next
      return { opened, closed }
    }
    const result = changing.then(run, run)
    changing = result.catch(() => {})
    return result
  }
  return {
    lsp,
    host,
    get roots() {
      return order.flatMap((root) => {
        const entry = open.get(root)
        return entry === undefined ? [] : [entry.info]
      })
    },
    trust,
    started,
    setRoots,
    dispose() {
      disposed ??= (async () => {
        // Hold the process open until every server is stopped: the host waits on handles it unrefs (its
        // watchdog's exit), and a process with nothing else to do would exit before the stop completes.
        const hold = setInterval(() => {}, 60_000)
        try {
          await changing
          await Promise.all([...open.values()].map((entry) => entry.release()))
          open.clear()
          prepared.clear()
          await detachProviders?.()
          if (!shared) await host.dispose()
          await lsp.dispose()
        } finally {
          clearInterval(hold)
        }
      })()
      return disposed
    },
  }
}
