import { readFile, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import type { CallToolResult, ElicitRequest } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, beforeEach, expect, it, onTestFailed } from 'vitest'

import { startMcp, type McpProcess } from './support/mcp-process.js'
import { copyFixture, lineOf, removeWorkspace } from './support/workspace.js'

// ruff beside pyright through `codeseam mcp` (the bundled CLI, ruff's WebAssembly resolved at run time) and the
// official SDK client: every edit goes through the transaction engine (preview, approval, atomic apply, receipt).

type Json = any

let root: string
let mcp: McpProcess
const elicitations: ElicitRequest[] = []
const orders = 'py/orders.py'
const read = (path: string) => readFile(nodePath.join(root, path), 'utf8')

async function call(name: string, args: Record<string, unknown>): Promise<Json> {
  const result = (await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
  if (result.isError === true) throw new Error(`${name} failed: ${text}`)
  return result.structuredContent
}

beforeAll(async () => {
  root = await copyFixture()
  await writeFile(
    nodePath.join(root, orders),
    'import sys\nimport os\nimport json\n\n\ndef total(prices:list[float])->float:\n    return sum(prices)\n\n\nprint(os.sep, sys.argv)\n',
  )
  mcp = await startMcp(['--root', root], {
    elicit: (request) => {
      elicitations.push(request)
      return { action: 'accept', content: { approveAll: false } }
    },
  })
})

beforeEach(() => {
  onTestFailed(() => console.error(`codeseam mcp stderr:\n${mcp.stderr()}`))
})

afterAll(async () => {
  await mcp?.close()
  await removeWorkspace(root)
})

it('code_actions applies ruff organize imports, then fix-all, each previewed, approved and receipted', async () => {
  const line = await lineOf(root, orders, 'import sys')
  const listed = await call('code_actions', { path: orders, line, only: ['source.organizeImports'] })
  const organize = (listed.actions as Json[]).find((a) => a.kind === 'source.organizeImports')
  expect(organize?.title).toBe('Ruff: Organize imports')
  const approvals = elicitations.length
  const sorted = await call('code_actions', { path: orders, line, only: ['source.organizeImports'], apply: organize.id })
  expect(sorted.receipt.status).toBe('applied')
  expect(sorted.receipt.approval.decision).toBe('approved')
  expect(elicitations.length).toBe(approvals + 1)
  expect(elicitations.at(-1)?.params.message).toContain('+import os')
  const text = await read(orders)
  expect(text.indexOf('import json')).toBeLessThan(text.indexOf('import os'))
  expect(text.indexOf('import os')).toBeLessThan(text.indexOf('import sys'))

  const fixAll = await call('code_actions', { path: orders, line: 1, only: ['source.fixAll'] })
  const action = (fixAll.actions as Json[]).find((a) => a.kind === 'source.fixAll')
  const fixed = await call('code_actions', { path: orders, line: 1, only: ['source.fixAll'], apply: action.id })
  expect(fixed.receipt.status).toBe('applied')
  expect(await read(orders)).not.toContain('import json')
})

it('code_format formats a Python file with ruff, and an already formatted file reports unchanged', async () => {
  const formatted = await call('code_format', { path: orders })
  expect(formatted.receipt.status).toBe('applied')
  expect(await read(orders)).toContain('def total(prices: list[float]) -> float:')
  const again = await call('code_format', { path: orders })
  expect(again.receipt.status).toBe('unchanged')
  const before = await read('py/inventory.py')
  expect((await call('code_format', { path: 'py/inventory.py' })).receipt.status).toBe('unchanged')
  expect(await read('py/inventory.py')).toBe(before)
})

it('code_diagnostics shows pyright and ruff side by side', async () => {
  await writeFile(nodePath.join(root, 'py/lint.py'), 'label = f"three"\ncount: int = "three"\n')
  const result = await call('code_diagnostics', { path: 'py/lint.py' })
  const sources = new Set((result.files ?? [result]).flatMap((f: Json) => (f.diagnostics ?? []).map((d: Json) => d.source)))
  expect([...sources].sort()).toEqual(['Pyright', 'Ruff'])
  expect(JSON.stringify(result)).toContain('F541')
})
