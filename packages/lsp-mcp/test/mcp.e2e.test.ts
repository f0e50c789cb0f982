import { readFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import type { CallToolResult, ElicitRequest, ElicitResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import Ajv from 'ajv'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest'

import { collectTools } from '../src/tool-set.js'
import { startMcp, type McpProcess } from './support/mcp-process.js'
import { copyFixture, lineOf, positionOf, removeWorkspace } from './support/workspace.js'

// `codeseam mcp` as a child process, the official SDK client, real language servers (native TS 7, pyright)
// on a copy of the fixture workspace. Every answer is checked against positions found by text.

type Json = any

let root: string
let mcp: McpProcess
const elicitations: ElicitRequest[] = []
let nextAnswer: ElicitResult = { action: 'decline' }
const progress: string[] = []

async function callRaw(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await mcp.client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
    onprogress: (p) => {
      if (typeof p.message === 'string') progress.push(p.message)
    },
  })) as CallToolResult
}

async function call(name: string, args: Record<string, unknown>): Promise<Json> {
  const result = await callRaw(name, args)
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
  if (result.isError === true) throw new Error(`${name} failed: ${text}`)
  expect(text.length).toBeGreaterThan(0)
  return result.structuredContent
}

const read = (path: string) => readFile(nodePath.join(root, path), 'utf8')

beforeAll(async () => {
  root = await copyFixture()
  mcp = await startMcp(['--root', root], {
    elicit: (request) => {
      elicitations.push(request)
      return nextAnswer
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

describe('tools/list', () => {
  let tools: Tool[]
  beforeAll(async () => {
    tools = (await mcp.client.listTools()).tools
  })

  it('lists every collected tool once, read tools and mutating tools', () => {
    const expected = collectTools().map((t) => t.name)
    expect(tools.map((t) => t.name)).toEqual(expected)
    expect(new Set(expected).size).toBe(expected.length)
    for (const name of ['code_navigate', 'code_symbols', 'code_hover', 'code_diagnostics', 'code_status', 'code_rename', 'code_format']) {
      expect(expected).toContain(name)
    }
  })

  it('gives every tool input and output schemas a draft-07 validator compiles, and honest annotations', () => {
    const ajv = new Ajv({ strict: false, allErrors: true })
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object')
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow()
      expect(tool.outputSchema, tool.name).toBeDefined()
      expect(() => ajv.compile(tool.outputSchema ?? {}), tool.name).not.toThrow()
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toMatch(/prefixItems|\$defs|"NaN"|"Infinity"/)
      const definition = collectTools().find((t) => t.name === tool.name)
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(definition?.hints.readOnly)
    }
    const navigate = ajv.compile(tools.find((t) => t.name === 'code_navigate')?.inputSchema ?? {})
    expect(navigate({ target: { path: 'src/main.ts', symbol: 'report' }, kind: 'references' })).toBe(true)
    expect(navigate({ target: { path: 'src/main.ts' }, kind: 'everything' })).toBe(false)
  })
})

describe('read tools against real servers', () => {
  it('code_navigate finds every reference of totalArea, at the positions the text has', async () => {
    const result = await call('code_navigate', { target: { path: 'src/shapes.ts', symbol: 'totalArea' }, kind: 'references' })
    const at = (path: string) =>
      (result.files as Json[])
        .filter((f) => f.path === path)
        .flatMap((f) => f.locations.map((l: Json) => ({ line: l.line, column: l.column })))
    expect(at('src/main.ts')).toContainEqual(await positionOf(root, 'src/main.ts', 'totalArea(shapes'))
    expect(at('src/broken.ts')).toContainEqual(await positionOf(root, 'src/broken.ts', 'totalArea([]'))
    expect(at('src/shapes.ts')).toContainEqual(await positionOf(root, 'src/shapes.ts', 'totalArea(shapes:'))
    expect(result.target).toMatchObject({
      path: 'src/shapes.ts',
      symbol: 'totalArea',
      ...(await positionOf(root, 'src/shapes.ts', 'totalArea(shapes:')),
    })
  })

  it('code_navigate goes from a use to the definition', async () => {
    const line = await lineOf(root, 'src/main.ts', 'new Circle(1)')
    const result = await call('code_navigate', { target: { path: 'src/main.ts', line, matchText: 'Circle' }, kind: 'definition' })
    const locations = (result.files as Json[]).flatMap((f) =>
      f.locations.map((l: Json) => ({ path: f.path, line: l.line, column: l.column })),
    )
    expect(locations).toContainEqual({ path: 'src/shapes.ts', ...(await positionOf(root, 'src/shapes.ts', 'Circle implements')) })
  })

  it('code_hover gives the signature of a TypeScript method and of a Python function (pyright)', async () => {
    const ts = await call('code_hover', { target: { path: 'src/shapes.ts', symbol: 'Circle.area' } })
    expect(ts.signature).toContain('Circle.area(): number')
    expect(ts.target).toMatchObject(await positionOf(root, 'src/shapes.ts', 'area(): number {'))
    const py = await call('code_hover', { target: { path: 'py/inventory.py', symbol: 'restock' } })
    expect(py.signature).toContain('def restock(inventory: Inventory) -> int')
    expect(py.target.line).toBe(await lineOf(root, 'py/inventory.py', 'def restock'))
  })

  it('code_symbols outlines a file and searches the workspace', async () => {
    const outline = await call('code_symbols', { path: 'src/shapes.ts' })
    const circle = (outline.outline as Json[]).find((s) => s.name === 'Circle')
    expect(circle).toMatchObject({ kind: 'class', ...(await positionOf(root, 'src/shapes.ts', 'Circle implements')) })
    expect((circle.children as Json[]).map((c) => c.name)).toContain('area')
    const search = await call('code_symbols', { query: 'Square' })
    const square = (search.matches as Json[]).find((m) => m.name === 'Square' && m.path === 'src/shapes.ts')
    expect(square).toMatchObject(await positionOf(root, 'src/shapes.ts', 'Square implements'))
  })

  it('code_hierarchy lists the callers of totalArea with their call sites', async () => {
    const result = await call('code_hierarchy', { target: { path: 'src/shapes.ts', symbol: 'totalArea' }, kind: 'callers', depth: 1 })
    const caller = (result.direct as Json[]).find((n) => n.name === 'describeShapes')
    expect(caller).toMatchObject({ path: 'src/main.ts', ...(await positionOf(root, 'src/main.ts', 'describeShapes()')) })
    expect(caller.callSites).toContainEqual(expect.objectContaining(await positionOf(root, 'src/main.ts', 'totalArea(shapes')))
  })

  it('code_diagnostics reports the type error where it is', async () => {
    const result = await call('code_diagnostics', { path: 'src/broken.ts' })
    const diagnostics = (result.files as Json[]).flatMap((f) => f.diagnostics)
    const error = diagnostics.find((d: Json) => d.severity === 'error')
    expect(error).toMatchObject(await positionOf(root, 'src/broken.ts', 'wrongCount'))
    expect(error.message).toContain("not assignable to type 'number'")
    expect(result.counts.error).toBe(1)
  })

  it('code_inlay_hints shows parameter names where the arguments are', async () => {
    const result = await call('code_inlay_hints', { path: 'src/main.ts' })
    const scale = (result.hints as Json[]).find((h) => h.label === 'scale:')
    expect(scale).toMatchObject({
      kind: 'parameter',
      ...(await positionOf(root, 'src/main.ts', 'shapes, 1)', { offset: 'shapes, '.length })),
    })
  })

  it('code_completions offers the members of a number', async () => {
    const line = await lineOf(root, 'src/main.ts', 'toFixed')
    const result = await call('code_completions', { target: { path: 'src/main.ts', line, matchText: 'toFixed' } })
    const labels = (result.items as Json[]).map((i) => i.label)
    expect(labels).toEqual(expect.arrayContaining(['toFixed', 'toPrecision']))
  })

  it('code_status shows the servers that answered, ready, for this root', async () => {
    const result = await call('code_status', {})
    const rootId = nodePath.basename(root)
    // Workspaces are named by id only: no absolute path in the answer.
    expect(result.workspaces).toContainEqual({ id: rootId })
    expect(JSON.stringify(result)).not.toContain(root)
    const typescript = (result.servers as Json[]).find((s) => s.provider === 'local:typescript' && s.rootId === rootId)
    expect(typescript?.state, JSON.stringify(result.servers)).toBe('ready')
    const pyright = (result.servers as Json[]).find((s) => s.provider === 'local:pyright' && s.rootId === rootId)
    expect(pyright?.state).toBe('ready')
  })

  it('reported progress while the language servers started', () => {
    expect(progress.some((m) => /typescript.*starting the language server/.test(m))).toBe(true)
  })

  it('reports a failure as an error result with its stable code, not as an empty answer', async () => {
    const result = (await mcp.client.callTool({
      name: 'code_hover',
      arguments: { target: { path: 'src/shapes.ts', symbol: 'NoSuchThing' } },
    })) as CallToolResult
    expect(result.isError).toBe(true)
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('NOT_FOUND') })
    expect(result._meta?.['codeseam/error']).toMatchObject({ code: 'NOT_FOUND' })
    const outside = (await mcp.client.callTool({ name: 'code_symbols', arguments: { path: '../outside.ts' } })) as CallToolResult
    expect(outside.isError).toBe(true)
    expect(outside._meta?.['codeseam/error']).toMatchObject({ code: 'OUTSIDE_WORKSPACE' })
  })
})

describe('mutating tools with elicitation', () => {
  it('code_rename dryRun previews without asking or writing', async () => {
    const before = await read('src/main.ts')
    const asked = elicitations.length
    const { receipt } = await call('code_rename', {
      target: { path: 'src/shapes.ts', symbol: 'totalArea' },
      newName: 'sumOfAreas',
      dryRun: true,
    })
    expect(receipt.status).toBe('previewed')
    expect((receipt.preview.files as Json[]).map((f) => f.path).sort()).toEqual(['src/broken.ts', 'src/main.ts', 'src/shapes.ts'])
    expect(elicitations.length).toBe(asked)
    expect(await read('src/main.ts')).toBe(before)
  })

  it('code_rename declined by the user writes nothing and says so', async () => {
    const before = await read('src/main.ts')
    nextAnswer = { action: 'decline' }
    const result = await callRaw('code_rename', { target: { path: 'src/shapes.ts', symbol: 'totalArea' }, newName: 'sumOfAreas' })
    expect(result.isError).toBe(true)
    const error = result._meta?.['codeseam/error'] as Json
    expect(error.code).toBe('APPROVAL_DENIED')
    expect(error.data.receipt.status).toBe('denied')
    expect(error.data.receipt.approval.deniedReason).toContain('declined')
    expect(elicitations.at(-1)?.params.message).toContain('+export function sumOfAreas')
    expect(await read('src/main.ts')).toBe(before)
  })

  it('code_rename approved by the user renames across files', async () => {
    nextAnswer = { action: 'accept', content: { approveAll: false } }
    const { receipt } = await call('code_rename', { target: { path: 'src/shapes.ts', symbol: 'totalArea' }, newName: 'sumOfAreas' })
    expect(receipt.status).toBe('applied')
    expect(receipt.approval.decision).toBe('approved')
    const main = await read('src/main.ts')
    expect(main).toContain('sumOfAreas(shapes, 1)')
    expect(main).not.toContain('totalArea')
    expect(await read('src/shapes.ts')).toContain('export function sumOfAreas(')
    const references = await call('code_navigate', { target: { path: 'src/shapes.ts', symbol: 'sumOfAreas' }, kind: 'references' })
    expect(references.totalFound).toBe(5)
  })

  it('code_format, code_insert, code_replace and code_replace_batch apply what the user approved', async () => {
    nextAnswer = { action: 'accept', content: { approveAll: false } }
    const format = await call('code_format', { path: 'src/broken.ts' })
    expect(format.receipt.status).toBe('applied')
    expect(await read('src/broken.ts')).toContain('export function formatted(value: number) {')

    const insert = await call('code_insert', {
      target: { path: 'src/main.ts', symbol: 'report' },
      position: 'after',
      text: 'export function shout(): string {\n  return describeShapes().toUpperCase()\n}\n',
    })
    expect(insert.receipt.status).toBe('applied')
    const main = await read('src/main.ts')
    expect(main.indexOf('export function shout()')).toBeGreaterThan(main.indexOf('export function report()'))

    const replace = await call('code_replace', {
      target: { path: 'src/main.ts', symbol: 'report' },
      text: 'export function report(): void {\n  console.info(describeShapes())\n}\n',
    })
    expect(replace.receipt.status).toBe('applied')
    expect(await read('src/main.ts')).toContain('console.info(describeShapes())')

    const batch = await call('code_replace_batch', {
      edits: [
        { target: { path: 'src/shapes.ts', symbol: 'Square.area' }, text: 'area(): number {\n    return this.side ** 2\n  }' },
        { target: { path: 'src/shapes.ts', symbol: 'Circle.area' }, text: 'area(): number {\n    return Math.PI * this.radius ** 2\n  }' },
      ],
    })
    expect(batch.receipt.status).toBe('applied')
    const shapes = await read('src/shapes.ts')
    expect(shapes).toContain('return this.side ** 2')
    expect(shapes).toContain('return Math.PI * this.radius ** 2')
    const diagnostics = await call('code_diagnostics', { path: 'src/shapes.ts' })
    expect(diagnostics.counts.error).toBe(0)
  })

  it('code_actions lists organize imports and applies it by id', async () => {
    const line = await lineOf(root, 'src/imports.ts', 'import {')
    const listed = await call('code_actions', { path: 'src/imports.ts', line, only: ['source.organizeImports'] })
    const action = (listed.actions as Json[]).find((a) => a.kind === 'source.organizeImports')
    expect(action).toBeDefined()
    nextAnswer = { action: 'accept', content: { approveAll: false } }
    const applied = await call('code_actions', { path: 'src/imports.ts', line, only: ['source.organizeImports'], apply: action.id })
    expect(applied.receipt.status).toBe('applied')
    expect(await read('src/imports.ts')).not.toContain('Square')
  })
})
