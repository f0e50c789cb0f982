import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { packageDir } from './lookup.js'
import type { LanguageRecord, Located } from './record.js'
import { missingDependency } from './typescript/record.js'

/** The vscode-langservers-extracted release codeseam installs: VS Code's own JSON, CSS and HTML servers. */
export const langserversExtractedVersion = '4.10.0'

/**
 * A server that is one of @codeseam/lsp-local's own npm dependencies, run by this Node.js: found when the
 * package is installed next to it (never a copy the workspace holds).
 */
export function bundledNodeServer(packageName: string, script: string): Located {
  const dir = packageDir(packageName)
  const path = dir === undefined ? `${packageName}/${script}` : nodePath.join(dir, script)
  return dir === undefined
    ? { found: false, command: process.execPath, leadingArgs: [path], why: missingDependency(packageName) }
    : { found: true, command: process.execPath, leadingArgs: [path], bundled: true, ...versionOf(dir) }
}

/** The installed package's own version (its package.json), read without running it. */
function versionOf(dir: string): { version?: string } {
  try {
    const version = (JSON.parse(readFileSync(nodePath.join(dir, 'package.json'), 'utf8')) as { version?: unknown }).version
    return typeof version === 'string' ? { version } : {}
  } catch {
    return {}
  }
}

/** Whether a user profile's command line runs `script` of `packageName` (or its bin, `binName`). */
export function runsBundled(command: string, args: ReadonlyArray<string>, packageName: string, binName: string): boolean {
  const script = args.find((a) => !a.startsWith('-')) ?? ''
  return nodePath.basename(command) === binName || (script.split(/[\\/]/).includes(packageName) && nodePath.basename(script) === binName)
}

/**
 * The record parts of a bundled server: found beside @codeseam/lsp-local (`script` of `packageName`), installed
 * with its dependencies, and recognised in a user profile by that script or its bin, `binName`.
 */
export function bundledServerRecord(
  packageName: string,
  script: string,
  binName: string,
): Pick<LanguageRecord, 'locate' | 'install' | 'recognizes'> {
  return {
    locate: async () => bundledNodeServer(packageName, script),
    install: { dependency: packageName, bin: [binName] },
    recognizes: (command, args) => runsBundled(command, args, packageName, binName),
  }
}
