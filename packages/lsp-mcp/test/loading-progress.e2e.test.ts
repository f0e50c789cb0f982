// `codeseam mcp` with the official SDK client on a workspace of many TypeScript projects: a workspace-wide call
// (references) sends progress notifications of the project load while it runs ("loading projects k/N, n files
// opened"), before its result (issue 50 item 3, RFC 0032).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, expect, test } from 'vitest'

import { startMcp, type McpProcess } from './support/mcp-process.js'

const packages = 12
let root: string
let mcp: McpProcess

beforeAll(async () => {
  root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-mcp-loading-')))
  const write = (path: string, text: string) => {
    mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true })
    writeFileSync(nodePath.join(root, path), text)
  }
  write('shared/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }))
  write('shared/src/units.ts', 'export function toMetres(feet: number): number {\n  return feet * 0.3048\n}\n')
  for (let i = 0; i < packages; i++) {
    write(`pkg${i}/tsconfig.json`, JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }))
    write(`pkg${i}/src/index.ts`, `import { toMetres } from '../../shared/src/units'\n\nexport const height${i} = toMetres(${i})\n`)
  }
  mcp = await startMcp(['--root', root])
})

afterAll(async () => {
  await mcp?.close()
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
})

test('a references call reports the project load as progress before its result', { timeout: 120_000 }, async () => {
  const messages: string[] = []
  let answered = false
  const early: string[] = []
  const result = (await mcp.client.callTool(
    { name: 'code_navigate', arguments: { target: { path: 'shared/src/units.ts', symbol: 'toMetres' }, kind: 'references' } },
    undefined,
    {
      timeout: 120_000,
      onprogress: (p) => {
        if (typeof p.message !== 'string') return
        messages.push(p.message)
        if (!answered) early.push(p.message)
      },
    },
  )) as CallToolResult
  answered = true
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true)
  const found = packages + 1
  const loading = early.filter((m) => /^typescript \(.*\): loading projects \d+\/\d+, \d+ files? opened$/.test(m))
  // The planned load first (every project found, none loaded), each figure once, in the order they grew.
  expect(loading[0]).toMatch(new RegExp(`loading projects 0/${found}, 0 files opened$`))
  expect(new Set(loading).size).toBe(loading.length)
  const loaded = loading.map((m) => Number(/projects (\d+)\//.exec(m)?.[1]))
  expect(loaded).toEqual([...loaded].sort((a, b) => a - b))
  expect(messages).toEqual(early)
})
