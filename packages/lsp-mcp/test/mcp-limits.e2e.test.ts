import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest'

import { startMcp, type McpProcess } from './support/mcp-process.js'
import { copyFixture, removeWorkspace } from './support/workspace.js'

// Per-file limits (RFC 0013) as an agent meets them, through `codeseam mcp` and the official SDK client: a
// file over `--max-file-bytes` and a binary file named like source answer a typed error naming the limit and
// how to raise it; a workspace-wide answer that reaches such a file says it was skipped, and why its snippets
// are empty. The server is never restarted for them, and a binary file in a project does not keep the
// project from loading.

const ceiling = 64 * 1024
let root: string
let mcp: McpProcess

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult
}
const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')

beforeAll(async () => {
  root = await copyFixture()
  await mkdir(nodePath.join(root, 'src/gen'))
  // Over the ceiling, inside the tsconfig project: the server reads it itself and finds the reference in it.
  const padding = Array.from({ length: 8_000 }, (_, n) => `export const v${n} = ${n}`).join('\n')
  await writeFile(
    nodePath.join(root, 'src/gen/huge.ts'),
    `import { Circle } from '../shapes'\nexport const big = new Circle(2)\n${padding}\n`,
  )
  await writeFile(nodePath.join(root, 'src/bin.ts'), Buffer.concat([Buffer.from([0]), randomBytes(32 * 1024)]))
  mcp = await startMcp(['--root', root, '--max-file-bytes', String(ceiling)])
})

beforeEach(() => {
  onTestFailed(() => console.error(`codeseam mcp stderr:\n${mcp.stderr()}`))
})

afterAll(async () => {
  await mcp?.close()
  await removeWorkspace(root)
})

describe('per-file limits through MCP', () => {
  it('a file over --max-file-bytes and a binary file answer UNAVAILABLE naming the limit and how to raise it', async () => {
    const huge = await call('code_symbols', { path: 'src/gen/huge.ts' })
    expect(huge.isError, text(huge)).toBe(true)
    expect(huge._meta?.['codeseam/error']).toMatchObject({ code: 'UNAVAILABLE' })
    expect(text(huge)).toContain('--max-file-bytes')
    const binary = await call('code_hover', { target: { path: 'src/bin.ts', line: 1 } })
    expect(binary.isError, text(binary)).toBe(true)
    expect(binary._meta?.['codeseam/error']).toMatchObject({ code: 'UNAVAILABLE' })
    expect(text(binary)).toMatch(/binary/)
  })

  it('references that reach such a file say it was skipped and why its snippet is empty', async () => {
    const result = await call('code_navigate', { target: { path: 'src/shapes.ts', symbol: 'Circle' }, kind: 'references' })
    expect(result.isError, text(result)).not.toBe(true)
    const structured = result.structuredContent as {
      files: Array<{ path: string; locations: Array<{ snippet: string }> }>
      notice?: string
    }
    const hugeFile = structured.files.find((f) => f.path === 'src/gen/huge.ts')
    expect(hugeFile?.locations.map((l) => l.snippet).every((s) => s === '')).toBe(true)
    expect(structured.notice).toMatch(/file skipped: over 64 KB \(limits\.maxFileBytes\), so its snippets are empty \(src\/gen\/huge\.ts\)/)
    expect(text(result)).toContain('so its snippets are empty')
    // The binary file sorts first in the project: it is refused, the project loads through another file, and
    // the search covers the whole project (the server reads its files itself), so nothing says otherwise.
    expect(structured.notice).not.toMatch(/searched 0 of|binary/)
    const status = await call('code_status', {})
    const server = (
      status.structuredContent as { servers: Array<{ server: string; restarts: number; projects?: { loaded: number; found: number } }> }
    ).servers.find((s) => s.server === 'typescript')
    expect(server).toMatchObject({ restarts: 0, projects: { loaded: 1, found: 1 } })
  })
})
