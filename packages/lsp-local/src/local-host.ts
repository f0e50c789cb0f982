import * as nodePath from 'node:path'

import { LspError, lspOperations, type Disposer, type LspProviderStatus, type LspService } from '@codeseam/lsp'

import { resolveHostConfig, type HostOptions, type TrustLevel } from './config.js'
import { Containment } from './containment.js'
import { HostCore } from './host-core.js'
import type { AttachRoot, LocalHost, OpenWorkspaceOptions } from './host.js'
import { builtinProfiles } from './profiles.js'
import { ProfileProvider } from './provider.js'
import { LocalWorkspace } from './workspace.js'

/**
 * Creates a local language-server host: built-in profiles (unless `builtins: false`) merged with the
 * user's, one provider per enabled profile, nothing started until the first query.
 */
export async function createLocalHost(options: HostOptions = {}): Promise<LocalHost> {
  const config = await resolveHostConfig(options, options.builtins === false ? [] : await builtinProfiles())
  const core = new HostCore(config)
  const providers = config.profiles.map((profile) => new ProfileProvider(profile, core, profile.operations ?? lspOperations))
  let disposing: Promise<void> | undefined

  const openWorkspace = async (root: string, open: OpenWorkspaceOptions = {}): Promise<LocalWorkspace> => {
    if (core.disposed) throw new LspError('DISPOSED', 'the lsp-local host was disposed')
    const containment = await Containment.forRoot(root)
    const existing = core.workspaces.get(containment.root)
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
    )
    core.addWorkspace(workspace, root)
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
