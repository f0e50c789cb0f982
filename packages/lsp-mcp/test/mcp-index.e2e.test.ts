import { appendFile, readdir, rm } from 'node:fs/promises'
import * as nodePath from 'node:path'

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { indexStoreDirectory, rootPrefix } from '@codeseam/lsp-index'
import { builtinIndexers } from '@codeseam/lsp-local'
import { copyFixture } from '@codeseam/lsp/testing'
import { afterAll, expect, test } from 'vitest'

import { runBuiltCli, startMcp, type McpProcess } from './support/mcp-process.js'

// A workspace with a stored index (`codeseam index`, the real scip-typescript) served by `codeseam mcp` and the
// official SDK client (RFC 0034): by default the answers come from the index while no TypeScript server runs, and
// say so; with --no-index they are the live server's, the same references.

type Json = any

const indexer = (await builtinIndexers()).find((i) => i.language.includes('TypeScript'))
const installed = indexer?.found === true
if (!installed && process.env['CI'] === 'true') throw new Error(`CI=true and the indexer is missing: codeseam install ${indexer?.id ?? ''}`)

let root: string | undefined
const running: McpProcess[] = []
afterAll(async () => {
  for (const mcp of running) await mcp.close()
  if (root === undefined) return
  const store = indexStoreDirectory()
  for (const name of (await readdir(store).catch(() => [] as string[])).filter((n) => n.startsWith(`${rootPrefix(root ?? '')}-`)))
    await rm(nodePath.join(store, name), { recursive: true, force: true })
  await rm(root, { recursive: true, force: true })
})

async function call(mcp: McpProcess, name: string, args: Record<string, unknown>): Promise<{ structured: Json; text: string }> {
  const result = (await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
  if (result.isError === true) throw new Error(`${name} failed: ${text}\nstderr:\n${mcp.stderr()}`)
  return { structured: result.structuredContent, text }
}

const hits = (structured: Json): string[] =>
  (structured.files as Json[]).flatMap((f) => (f.locations as Json[]).map((h) => `${f.path}:${h.line}:${h.column}`)).sort()

const typescriptServer = async (mcp: McpProcess) =>
  ((await call(mcp, 'code_status', {})).structured.servers as Json[]).find((s) => (s.extensions as string[]).includes('.ts'))

test.skipIf(!installed)(
  'with a stored index, answers come from it before any live server; --no-index answers live',
  { timeout: 300_000 },
  async () => {
    root = (await copyFixture()).root
    const built = await runBuiltCli(['index', '--root', root], { cwd: root, env: process.env, deadlineMs: 150_000 })
    expect(built.code, built.stderr).toBe(0)
    const references = { kind: 'references', target: { path: 'src/shapes.ts', symbol: 'renameMe' } }

    const withIndex = await startMcp(['--root', root])
    running.push(withIndex)
    const fromIndex = await call(withIndex, 'code_navigate', references)
    expect(fromIndex.structured.notice).toMatch(
      /answered from the index built \S+ \S+ UTC by scip-typescript \d+\.\d+\.\d+ \(typescript [\d.]+\), not by the live server/,
    )
    expect(hits(fromIndex.structured).length).toBeGreaterThan(2)
    // No TypeScript server was started for it.
    expect((await typescriptServer(withIndex))?.state).toBe('not-started')

    const live = await startMcp(['--root', root, '--no-index'])
    running.push(live)
    const fromLive = await call(live, 'code_navigate', references)
    expect(fromLive.structured.notice ?? '').not.toContain('index')
    expect(hits(fromLive.structured)).toEqual(hits(fromIndex.structured))
    expect((await typescriptServer(live))?.state).not.toBe('not-started')

    // The CLI's one-shot commands open the same session: the index by default, the live server with --no-index.
    const navigate = ['navigate', 'src/shapes.ts', '--symbol', 'renameMe', '--kind', 'references', '--root', root]
    const cli = await runBuiltCli(navigate, { cwd: root, env: process.env, deadlineMs: 120_000 })
    expect(cli.code, cli.stderr).toBe(0)
    expect(cli.stdout).toContain('answered from the index built')
    const cliLive = await runBuiltCli([...navigate, '--no-index'], { cwd: root, env: process.env, deadlineMs: 120_000 })
    expect(cliLive.code, cliLive.stderr).toBe(0)
    expect(cliLive.stdout).not.toContain('answered from the index')

    // Pages of an answer from the index (RFC 0026): a later page comes from the answer the first computed, as long as
    // the disk holds what it did then; after a plain write to another indexed file the cursor is refused as stale.
    const first = await call(withIndex, 'code_navigate', { ...references, limit: 1 })
    const cursor = first.structured.page.nextCursor as string
    expect(typeof cursor).toBe('string')
    const second = await call(withIndex, 'code_navigate', { ...references, limit: 1, cursor })
    expect([...hits(first.structured), ...hits(second.structured)]).toEqual(hits(fromIndex.structured).slice(0, 2))
    await appendFile(nodePath.join(root, 'src/geometry.ts'), '\nexport const writtenSincePageOne = 1\n')
    await expect(call(withIndex, 'code_navigate', { ...references, limit: 1, cursor })).rejects.toThrow(/the cursor is stale/)
  },
)
