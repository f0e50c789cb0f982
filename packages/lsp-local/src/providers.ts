import { lspOperations, type LspOperation } from '@codeseam/lsp'

import type { HostCore } from './pool/host-core.js'
import type { inProcessCompanionIds } from './profile/companion-operations.js'
import type { ResolvedHostConfig } from './policy/config.js'
import { ProfileProvider } from './provider.js'
import type { BoundCompanion, Companion } from './companions/companion.js'
import { Composition } from './companions/compose.js'
import { RuffCompanion } from './companions/ruff/ruff.js'

/** How each in-process companion is made: one per host. */
const inProcess: { readonly [id in (typeof inProcessCompanionIds)[number]]: (host: HostCore) => Companion } = {
  ruff: (host) => new RuffCompanion((root) => host.workspaceFor(root)),
}

/**
 * One provider per enabled profile the seam registers, each with its companions bound: an in-process one by
 * its id, or another profile's provider (a companion-only one is never registered with the seam itself).
 */
export function providersFor(config: ResolvedHostConfig, host: HostCore): ProfileProvider[] {
  const made = new Map<string, Companion>()
  const companion = (id: string): Companion => {
    let known = made.get(id)
    if (known !== undefined) return known
    // A companion-only profile, or an enabled profile of its own (its server answers beside, the same process).
    const profile = config.profiles.find((p) => p.id === id)
    if (profile !== undefined) {
      const provider = new ProfileProvider(profile, host, profile.operations ?? lspOperations)
      known = { id, query: (request, signal) => provider.query(request, signal) }
    } else {
      // Config validation (policy/companions.ts) let through only ids of companion-only profiles and in-process companions.
      known = inProcess[id as keyof typeof inProcess](host)
    }
    made.set(id, known)
    return known
  }
  return config.profiles
    .filter((profile) => profile.companionOnly !== true)
    .map((profile) => {
      const bound: BoundCompanion[] = (profile.companions ?? []).map((c) => ({ companion: companion(c.id), operations: c.operations }))
      const composition = new Composition(`local:${profile.id}`, bound)
      const native: ReadonlyArray<LspOperation> = profile.operations ?? lspOperations
      const operations = lspOperations.filter((o) => native.includes(o) || composition.operations.includes(o))
      return new ProfileProvider(profile, host, operations, composition)
    })
}
