import { LspError } from '@codeseam/lsp'

import { companionOperations, inProcessCompanionIds } from '../profile/companion-operations.js'
import type { ServerProfile } from '../profile/profiles.js'

/** A profile's `companions` and `companionOnly` fields as written: well-formed, or INVALID_ARGUMENT naming the profile. */
export function checkCompanionFields(profile: ServerProfile): void {
  const fail = (what: string) => new LspError('INVALID_ARGUMENT', `profile "${profile.id}": ${what}`)
  if (profile.companionOnly !== undefined && typeof profile.companionOnly !== 'boolean') throw fail('companionOnly must be true or false')
  if (profile.companions === undefined) return
  if (!Array.isArray(profile.companions)) throw fail('companions must be an array of { id, operations }')
  for (const companion of profile.companions as ReadonlyArray<{ id?: unknown; operations?: unknown }>) {
    if (typeof companion?.id !== 'string' || companion.id === '') throw fail('each companion needs an id')
    const operations = companion.operations
    if (!Array.isArray(operations) || operations.length === 0) throw fail(`companion "${companion.id}" needs a non-empty operations list`)
    const other = operations.find((o) => !(companionOperations as ReadonlyArray<unknown>).includes(o))
    if (other !== undefined) {
      throw fail(`companion "${companion.id}" cannot answer ${String(other)}: companions answer only ${companionOperations.join(', ')}`)
    }
  }
}

/**
 * Every companion an enabled profile names exists: an in-process one, or an enabled profile — companion-only, or one
 * that serves files of its own too (the YAML server beside the Compose server: the same server answers both).
 */
export function checkCompanionIds(enabled: ReadonlyArray<ServerProfile>): void {
  const companionProfiles = new Set(enabled.map((p) => p.id))
  for (const profile of enabled) {
    for (const { id } of profile.companions ?? []) {
      if (profile.companionOnly === true) {
        throw new LspError('INVALID_ARGUMENT', `profile "${profile.id}" is a companion-only profile and cannot have companions of its own`)
      }
      if (!(inProcessCompanionIds as ReadonlyArray<string>).includes(id) && !companionProfiles.has(id)) {
        throw new LspError(
          'INVALID_ARGUMENT',
          `profile "${profile.id}" names companion "${id}", which is neither built in (${inProcessCompanionIds.join(', ')}) nor an enabled profile`,
        )
      }
    }
  }
}
