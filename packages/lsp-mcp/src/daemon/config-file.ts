import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'

/**
 * The config file's path and content, as the daemon key takes them (runtime-dir.ts); undefined without one.
 * Throws NOT_FOUND, in the key's words, for a file that cannot be read. Light: the stdio proxy checks it before
 * its first answers, without loading what the rest of the key needs.
 */
export function checkConfigFile(configFile: string | undefined): { path: string; content: Buffer } | undefined {
  if (configFile === undefined) return undefined
  const path = nodePath.resolve(configFile)
  try {
    return { path, content: readFileSync(path) }
  } catch {
    throw new LspError('NOT_FOUND', `config file ${path} cannot be read`)
  }
}
