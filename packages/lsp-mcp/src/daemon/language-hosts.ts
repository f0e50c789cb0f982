import { createLocalHost, type LocalHost, type HostConfig, type TrustLevel } from '@codeseam/lsp-local'

/** The daemon's lsp-local hosts: one per trust level, started by the first session of that level and shared by the rest. */
export interface LanguageHosts {
  hostFor(trust: TrustLevel): Promise<LocalHost>
  /** Stops every host's language servers (a host that failed to start is skipped). */
  disposeAll(): Promise<void>
}

export function languageHosts(config: HostConfig): LanguageHosts {
  const hosts = new Map<TrustLevel, Promise<LocalHost>>()
  return {
    hostFor(trust) {
      let host = hosts.get(trust)
      if (host === undefined) {
        host = createLocalHost(config)
        hosts.set(trust, host)
        host.catch(() => hosts.delete(trust))
      }
      return host
    },
    async disposeAll() {
      await Promise.all([...hosts.values()].map((host) => host.then((h) => h.dispose()).catch(() => {})))
    },
  }
}
