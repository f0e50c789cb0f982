import { readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

import { processTree } from '../process-memory.js'
import { jsonBytes, type ReadLayer } from './read-layer.js'
import { pageTruncated, toolCallFor, totalFound, verifyToolOutput } from './tool-calls.js'

interface CallResult {
  readonly isError?: boolean
  readonly structuredContent?: Record<string, unknown>
  readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string }>
}

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = nodePath.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/**
 * How to start `codeseam mcp`: the built CLI when it is at least as new as the sources (what users run),
 * else the sources through the bench's TypeScript hooks.
 */
export function mcpCommand(): { command: string; args: string[]; entry: 'dist' | 'source' } | { missing: string } {
  // Decided once per run: sources edited while the bench runs must not switch the entry point midway.
  chosen ??= chooseMcpCommand()
  return chosen
}

let chosen: ReturnType<typeof chooseMcpCommand> | undefined

function chooseMcpCommand(): { command: string; args: string[]; entry: 'dist' | 'source' } | { missing: string } {
  let packageDir: string
  try {
    packageDir = nodePath.dirname(createRequire(import.meta.url).resolve('@codeseam/lsp-mcp/package.json'))
  } catch {
    return { missing: '@codeseam/lsp-mcp is not installed' }
  }
  const dist = nodePath.join(packageDir, 'dist', 'cli.js')
  const source = nodePath.join(packageDir, 'src', 'cli.ts')
  let distTime = 0
  try {
    distTime = statSync(dist).mtimeMs
  } catch {
    // not built
  }
  let sourceTime = 0
  try {
    sourceTime = newestMtime(nodePath.join(packageDir, 'src'))
  } catch {
    if (distTime === 0) return { missing: '@codeseam/lsp-mcp has neither dist/cli.js nor src/cli.ts' }
  }
  if (distTime > 0 && distTime >= sourceTime) return { command: process.execPath, args: [dist], entry: 'dist' }
  const register = fileURLToPath(new URL('../../register.mjs', import.meta.url))
  return { command: process.execPath, args: ['--import', register, source], entry: 'source' }
}

/** `codeseam mcp --read-only` over stdio, driven by the MCP SDK client. Output bytes: the whole tool result. */
export async function startMcpLayer(root: string): Promise<{ layer: ReadLayer; entry: 'dist' | 'source' } | { missing: string }> {
  const command = mcpCommand()
  if ('missing' in command) return command
  const transport = new StdioClientTransport({
    command: command.command,
    args: [...command.args, 'mcp', '--daemon', 'never', '--root', root, '--trust', 'trusted', '--read-only'],
    cwd: root,
    stderr: 'ignore',
  })
  const client = new Client({ name: 'codeseam-bench', version: '0.0.0' })
  try {
    await client.connect(transport)
    const { tools } = await client.listTools()
    for (const name of ['code_navigate', 'code_hover', 'code_symbols', 'code_hierarchy']) {
      if (!tools.some((tool) => tool.name === name)) {
        await client.close()
        return { missing: `codeseam mcp does not list ${name}` }
      }
    }
  } catch (error) {
    await client.close().catch(() => undefined)
    return { missing: `codeseam mcp (${command.entry}) did not start: ${(error as Error).message}` }
  }
  const pid = transport.pid
  let closing: Promise<void> | undefined
  return {
    entry: command.entry,
    layer: {
      layer: 'mcp',
      inProcess: false,
      async run(query) {
        const call = toolCallFor(query)
        const result = (await client.callTool({ name: call.name, arguments: call.arguments }, undefined, {
          timeout: 120_000,
        })) as CallResult
        if (result.isError === true) throw new Error(`${call.name} failed over MCP: ${result.content?.[0]?.text ?? ''}`)
        return result
      },
      verify: (query, answer) => verifyToolOutput(query, (answer as CallResult).structuredContent),
      locationCount: (answer) => totalFound((answer as CallResult).structuredContent),
      truncated: (answer) => pageTruncated((answer as CallResult).structuredContent),
      outputBytes: jsonBytes,
      pids: () => (pid === null ? [] : processTree(pid)),
      stop: () => (closing ??= client.close()),
    },
  }
}
