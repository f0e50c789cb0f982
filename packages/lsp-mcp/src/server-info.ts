import { createRequire } from 'node:module'

const packageJson = createRequire(import.meta.url)('../package.json') as { name: string; version: string }

/** Set by the build (tsup `define`): the commit it was made from, or '' outside a git checkout; absent from sources. */
declare const __CODESEAM_COMMIT__: string | undefined
const commit = typeof __CODESEAM_COMMIT__ === 'string' && __CODESEAM_COMMIT__ !== '' ? __CODESEAM_COMMIT__ : undefined

/**
 * The packages say 0.0.0 until a release: such a build is an unreleased one, named by the commit it was built from
 * (`0.0.0-dev+1a2b3c4d5e`), so two builds of different code never claim one version (the daemon key holds it).
 */
const version = packageJson.version === '0.0.0' ? `0.0.0-dev${commit === undefined ? '' : `+${commit}`}` : packageJson.version

/** The server's name and version as MCP clients see them (and `codeseam --version` prints). */
export const serverInfo = { name: 'codeseam', version } as const
