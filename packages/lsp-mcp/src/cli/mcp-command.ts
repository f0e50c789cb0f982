import { parseArgs } from 'node:util'

import { loadToolManifest } from '../tool-manifest.js'
import { globalFlags, globalOptions, UsageError } from './arguments.js'
import { exitCodes, mcpHelp } from './help.js'
import type { CliIo } from './io.js'

/**
 * `codeseam mcp`: its flags, then the server. Light on purpose: the tools, effect and the language-server
 * host load in the background once the server is connected (see stdio-server.ts), never before `initialize`.
 */

/** Runs `codeseam mcp ARGS` until the server stops; resolves to the exit code (usage and start errors throw). */
export async function runMcp(args: ReadonlyArray<string>, io: CliIo, toolNames?: ReadonlyArray<string>): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        root: globalOptions.root,
        config: globalOptions.config,
        trust: globalOptions.trust,
        'max-servers': globalOptions['max-servers'],
        'server-memory-mb': globalOptions['server-memory-mb'],
        'node-heap-mb': globalOptions['node-heap-mb'],
        'max-open-documents': globalOptions['max-open-documents'],
        'env-allow': globalOptions['env-allow'],
        help: globalOptions.help,
        'read-only': { type: 'boolean' },
        'allow-edits': { type: 'boolean' },
        'disable-tool': { type: 'string', multiple: true },
      },
      strict: true,
      allowPositionals: false,
    })
  } catch (error) {
    throw new UsageError((error as Error).message, 'mcp')
  }
  const values = parsed.values
  if (values.help === true) {
    io.stdout.write(`${mcpHelp(toolNames ?? (await loadToolManifest()).map((t) => t.name))}\n`)
    return exitCodes.ok
  }
  const globals = globalFlags(values, 'mcp')
  // Loaded on demand: one-shot commands never pay for the MCP SDK.
  const { startMcpServer } = await import('../stdio-server.js')
  const server = await startMcpServer({
    // Without --root: the client's roots (MCP roots/list), or the working folder when it has none.
    ...(globals.roots.length > 0 ? { roots: globals.roots } : {}),
    cwd: io.cwd,
    ...(globals.config === undefined ? {} : { configFile: globals.config }),
    ...(globals.trust === undefined ? {} : { trust: globals.trust }),
    limits: globals.limits,
    envAllow: globals.envAllow,
    readOnly: values['read-only'] === true,
    allowEdits: values['allow-edits'] === true,
    ...(values['disable-tool'] === undefined ? {} : { disable: values['disable-tool'] }),
  })
  const reason = await server.closed
  io.stderr.write(`codeseam mcp: stopped (${reason})\n`)
  return exitCodes.ok
}
