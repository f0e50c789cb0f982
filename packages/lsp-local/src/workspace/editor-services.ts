import { recordFor } from '../languages/index.js'
import { listFiles, profileExtensions } from '../profile/files.js'
import type { ServerProfile } from '../profile/profiles.js'
import type { EditorServices } from '../server/spec.js'

/** Files of the server's languages it is told of (the Markdown server's workspace index, for symbols and link targets). */
export const editorFileLimit = 5_000

/** The requests a profile's server makes of its client that its record answers (the Markdown record's), for its spawn spec. */
export function editorServicesOf(profile: ServerProfile): EditorServices | undefined {
  const record = recordFor(profile)
  if (record?.serveClient === undefined) return undefined
  const extensions = profileExtensions(profile)
  return {
    serve: (connection, context) => record.serveClient?.(connection, context),
    listFiles: async (root) => (await listFiles(root, { extensions }, editorFileLimit)).files,
  }
}
