import { createLocalHost, createMemoryBudget, type LocalHost, type HostConfig, type TrustLevel } from '@codeseam/lsp-local'

import type { DaemonMemory } from './daemon-health.js'

/**
 * The daemon's lsp-local hosts: one per trust level, started by the first session of that level and shared by the
 * rest; every server of both counts against one memory budget (RFC 0033).
 */
export interface LanguageHosts {
  hostFor(trust: TrustLevel): Promise<LocalHost>
  /**
   * The language servers' resident memory from their last samples (each host samples its running servers off the
   * questions' path, RFC 0030) and the daemon's own; read synchronously, nothing sampled for it.
   */
  memory(): DaemonMemory
  /** Stops every host's language servers (a host that failed to start is skipped). */
  disposeAll(): Promise<void>
}

export function languageHosts(config: HostConfig): LanguageHosts {
  const hosts = new Map<TrustLevel, Promise<LocalHost>>()
  const started = new Map<TrustLevel, LocalHost>()
  const budget = createMemoryBudget()
  return {
    hostFor(trust) {
      let host = hosts.get(trust)
      if (host === undefined) {
        host = createLocalHost({ ...config, memoryBudget: budget })
        hosts.set(trust, host)
        host.then(
          (h) => started.set(trust, h),
          () => hosts.delete(trust),
        )
      }
      return host
    },
    memory() {
      const servers = [...started].flatMap(([trust, host]) =>
        host
          .status()
          .flatMap((s) =>
            s.rssBytes === undefined || s.server === undefined
              ? []
              : [{ trust, server: s.server, rssBytes: s.rssBytes, sampledAt: s.rssSampledAt ?? Date.now(), ceiling: s.memoryCeilingBytes }],
          ),
      )
      const ceilings = [...new Set(servers.flatMap((s) => (s.ceiling === undefined ? [] : [s.ceiling])))]
      const usage = budget.usage()
      return {
        ownRssBytes: process.memoryUsage.rss(),
        serversRssBytes: servers.reduce((sum, s) => sum + s.rssBytes, 0),
        servers: servers.map(({ trust, server, rssBytes, sampledAt }) => ({ trust, server, rssBytes, sampledAt })),
        ...(servers.length === 0 ? {} : { oldestSampleAt: Math.min(...servers.map((s) => s.sampledAt)) }),
        ...(ceilings.length === 1 && ceilings[0] !== undefined ? { perServerCeilingBytes: ceilings[0] } : {}),
        ...(usage.budgetBytes > 0 ? { budgetBytes: usage.budgetBytes } : {}),
      }
    },
    async disposeAll() {
      await Promise.all([...hosts.values()].map((host) => host.then((h) => h.dispose()).catch(() => {})))
    },
  }
}
