import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest'

import { startMcp, type McpProcess } from './support/mcp-process.js'
import { copyFixture, lineOf, positionOf, removeWorkspace } from './support/workspace.js'

// Operations no server offers, through `codeseam mcp` and the official SDK client (RFC 0010): native TS 7 has
// no type hierarchy, pyright neither, nor implementation. codeseam derives them, and its text says so.

type Json = any

let root: string
let mcp: McpProcess

async function call(name: string, args: Record<string, unknown>): Promise<{ structured: Json; text: string }> {
  const result = (await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
  if (result.isError === true) throw new Error(`${name} failed: ${text}`)
  return { structured: result.structuredContent, text }
}

beforeAll(async () => {
  root = await copyFixture()
  mcp = await startMcp(['--root', root])
})

beforeEach(() => {
  onTestFailed(() => console.error(`codeseam mcp stderr:\n${mcp.stderr()}`))
})

afterAll(async () => {
  await mcp?.close()
  await removeWorkspace(root)
})

const where = (nodes: Json[]) => nodes.map((n) => `${n.name} ${n.path}:${n.line}`).sort()

describe('derived operations through MCP', () => {
  it('code_hierarchy supertypes and subtypes on TypeScript (native TS 7 has no type hierarchy)', async () => {
    const up = await call('code_hierarchy', { target: { path: 'src/shapes.ts', symbol: 'Circle' }, kind: 'supertypes' })
    expect(where(up.structured.direct)).toEqual([`Shape src/shapes.ts:${await lineOf(root, 'src/shapes.ts', 'interface Shape')}`])
    expect(up.text).toContain('derived by codeseam')
    const down = await call('code_hierarchy', { target: { path: 'src/shapes.ts', symbol: 'Shape' }, kind: 'subtypes' })
    expect(where(down.structured.direct)).toEqual(
      [
        `Circle src/shapes.ts:${await lineOf(root, 'src/shapes.ts', 'Circle implements')}`,
        `Square src/shapes.ts:${await lineOf(root, 'src/shapes.ts', 'Square implements')}`,
      ].sort(),
    )
  })

  it('code_hierarchy on Python: bases across modules, Generic listed by name, subtypes two levels deep', async () => {
    const up = await call('code_hierarchy', { target: { path: 'py/pets.py', symbol: 'Dog' }, kind: 'supertypes' })
    expect(where(up.structured.direct)).toEqual([`Pet py/pets.py:${await lineOf(root, 'py/pets.py', 'class Pet')}`])
    expect(up.structured.unresolved).toEqual(['Generic'])
    expect(up.text).toContain('Generic  (declared base with no declaration in the workspace)')
    const shelter = await call('code_hierarchy', { target: { path: 'py/pets.py', symbol: 'Shelter' }, kind: 'supertypes' })
    expect(where(shelter.structured.direct)).toEqual([
      `Inventory py/inventory.py:${await lineOf(root, 'py/inventory.py', 'class Inventory')}`,
    ])
    const down = await call('code_hierarchy', { target: { path: 'py/pets.py', symbol: 'Pet' }, kind: 'subtypes', depth: 2 })
    expect(where(down.structured.direct)).toEqual([`Dog py/pets.py:${await lineOf(root, 'py/pets.py', 'class Dog')}`])
    expect(down.structured.graph.nodes.map((n: Json) => n.name).sort()).toEqual(['Dog', 'Pet', 'Puppy'])
  })

  it('code_navigate implementation on Python: every overriding method, transitively', async () => {
    const at = await positionOf(root, 'py/pets.py', 'sound')
    const result = await call('code_navigate', {
      target: { path: 'py/pets.py', line: at.line, matchText: 'sound' },
      kind: 'implementation',
    })
    const found = (result.structured.files as Json[]).flatMap((f) => f.locations.map((l: Json) => `${f.path}:${l.line}`)).sort()
    expect(found).toEqual(
      [
        `py/pets.py:${(await positionOf(root, 'py/pets.py', 'sound', { occurrence: 2 })).line}`,
        `py/pets.py:${(await positionOf(root, 'py/pets.py', 'sound', { occurrence: 3 })).line}`,
      ].sort(),
    )
    expect(result.text).toContain('derived by codeseam')
  })

  it('code_navigate implementation on TypeScript stays native', async () => {
    const result = await call('code_navigate', { target: { path: 'src/shapes.ts', symbol: 'Shape' }, kind: 'implementation' })
    expect(result.text).not.toContain('derived by codeseam')
    expect(result.structured.totalFound).toBe(2)
  })
})
