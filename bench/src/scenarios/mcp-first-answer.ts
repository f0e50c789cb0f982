// Process start → the first complete answer through `codeseam mcp` (issue 15): spawn the CLI on a real
// repository, initialize, and call `code_navigate` references on a fixed symbol once; the answer is turned
// into the oracle's keys and judged by the real-repositories scenario (one attempt, as for its other sides).
import { performance } from 'node:perf_hooks'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

import { locationKey, unique, type SymbolTarget } from '../../../packages/lsp-local/test/oracle/index.js'
import { mcpCommand } from '../layers/mcp-layer.js'
import { withDeadline } from '../measure.js'
import { treeRss } from '../process-memory.js'

interface NavigateLocation {
  readonly line: number
  readonly column: number
  readonly endLine: number
  readonly endColumn: number
}

/** code_navigate's structured locations (1-based, end exclusive) → the oracle's location keys (0-based). */
export function navigateKeys(structured: Record<string, unknown> | undefined): string[] {
  const files = (structured?.['files'] ?? []) as ReadonlyArray<{ path: string; locations: ReadonlyArray<NavigateLocation> }>
  return unique(
    files.flatMap((file) =>
      file.locations.map((l) =>
        locationKey(file.path, {
          start: { line: l.line - 1, character: l.column - 1 },
          end: { line: l.endLine - 1, character: l.endColumn - 1 },
        }),
      ),
    ),
  )
}

/** Most references one page may hold (the tool's maximum); a longer answer is read page by page. */
const pageLimit = 500

/**
 * Spawn `codeseam mcp --root <root>` (default settings) → initialize → references, every page of it (the next pages
 * with the answer's `nextCursor`); ms to the last page and the keys, the RSS of its process tree right after the
 * answer, and whether the answer said it came from a precomputed index.
 */
export async function mcpFirstAnswer(
  root: string,
  target: SymbolTarget,
): Promise<{ ms: number; keys: string[]; rssBytes?: number; fromIndex: boolean; pages: number }> {
  const cli = mcpCommand()
  if ('missing' in cli) throw new Error(cli.missing)
  const started = performance.now()
  const transport = new StdioClientTransport({
    command: cli.command,
    args: [...cli.args, 'mcp', '--daemon', 'never', '--root', root],
    cwd: root,
    stderr: 'ignore',
  })
  const client = new Client({ name: 'codeseam-bench', version: '0.0.0' })
  try {
    await client.connect(transport)
    const keys: string[] = []
    let fromIndex = false
    let cursor: string | undefined
    let pages = 0
    let failed: string | undefined
    do {
      const result = (await client.callTool(
        {
          name: 'code_navigate',
          arguments: {
            target: { path: target.path, line: target.line + 1, column: target.character + 1, matchText: target.name },
            kind: 'references',
            limit: pageLimit,
            ...(cursor === undefined ? {} : { cursor }),
          },
        },
        undefined,
        { timeout: 300_000 },
      )) as { isError?: boolean; structuredContent?: Record<string, unknown>; content?: ReadonlyArray<{ text?: string }> }
      pages++
      if (result.isError === true) {
        failed = `!error ${result.content?.[0]?.text?.split('\n')[0] ?? 'tool error'}`
        break
      }
      const text = (result.content ?? []).map((part) => part.text ?? '').join('\n')
      // tool-lsp's note on an answer with meta.source (RFC 0034): "answered from the index built …".
      if (pages === 1) fromIndex = /answered from (the index built|a precomputed index)/.test(text)
      keys.push(...navigateKeys(result.structuredContent))
      cursor = (result.structuredContent?.['page'] as { nextCursor?: string } | undefined)?.nextCursor
    } while (cursor !== undefined)
    const ms = performance.now() - started
    const rssBytes = transport.pid === null ? undefined : treeRss([transport.pid])
    const measured = { ms, fromIndex, pages, ...(rssBytes === undefined ? {} : { rssBytes }) }
    return { ...measured, keys: failed === undefined ? unique(keys) : [...unique(keys), failed] }
  } finally {
    await withDeadline(client.close(), 30_000, 'codeseam mcp to close')
  }
}
