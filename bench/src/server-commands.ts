import * as nodePath from 'node:path'

import { builtinProfiles, type ServerProfile } from '@codeseam/lsp-local'

import type { ServerCommand } from './floor-client.js'

/** The floor's command line for a built-in profile: the same executable the host would start. */
export function serverCommandOf(profile: ServerProfile): ServerCommand {
  return {
    command: profile.command,
    args: profile.args,
    languageIdFor: (path) => profile.extensions[nodePath.extname(path).toLowerCase()] ?? 'plaintext',
    ...(profile.initializationOptions === undefined ? {} : { initializationOptions: profile.initializationOptions }),
    ...(profile.settings === undefined ? {} : { settings: profile.settings }),
  }
}

/** A built-in profile by id; throws with the reason when it cannot run here. */
export async function builtinProfile(id: string): Promise<ServerProfile> {
  const profile = (await builtinProfiles()).find((p) => p.id === id)
  if (profile === undefined) throw new Error(`lsp-local has no built-in profile "${id}"`)
  return profile
}
