import type { ServerProfile } from '../policy/profiles.js'
import type { EditorServices } from '../server/markdown-client.js'
import { listFiles, profileExtensions } from '../policy/files.js'

/** Markdown files the Markdown server is told of (the workspace index it searches for symbols and link targets). */
export const editorFileLimit = 5_000

/** The editor requests a profile's server makes (the Markdown record's `editorServices`), for its spawn spec. */
export function editorServicesOf(profile: ServerProfile): EditorServices | undefined {
  if (profile.editorServices === undefined) return undefined
  const extensions = profileExtensions(profile)
  return {
    kind: profile.editorServices,
    listFiles: async (root) => (await listFiles(root, { extensions }, editorFileLimit)).files,
  }
}
