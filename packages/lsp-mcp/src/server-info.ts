import { createRequire } from 'node:module'

const packageJson = createRequire(import.meta.url)('../package.json') as { name: string; version: string }

/** The server's name and version as MCP clients see them (and `codeseam --version` prints). */
export const serverInfo = { name: 'codeseam', version: packageJson.version } as const
