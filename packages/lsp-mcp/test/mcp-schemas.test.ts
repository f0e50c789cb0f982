import { toMcpTool } from '@codeseam/tool-lsp'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'

import { collectTools } from '../src/tool-set.js'

// Issue 32: six mutating tools' output schemas held an empty `{}` node and code_symbols' a recursive `$ref` into
// draft-07 `definitions`: clients whose schema converters resolve no references, or refuse an empty node, could not
// take the listing. Every schema the MCP server lists is now written out in full.

/** Where a schema has a `$ref`, a definitions table or an empty node. */
function problems(node: unknown, path = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => problems(item, `${path}/${i}`))
  if (node === null || typeof node !== 'object') return []
  const entries = Object.entries(node)
  if (entries.length === 0) return [`${path}: empty schema`]
  return entries.flatMap(([key, value]) => {
    if (key === '$ref' || key === 'definitions' || key === '$defs') return [`${path}/${key}`]
    // A map of names to schemas (empty for a tool without parameters), not a schema itself.
    if (key === 'properties')
      return Object.entries(value as object).flatMap(([name, inner]) => problems(inner, `${path}/properties/${name}`))
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') return []
    return problems(value, `${path}/${key}`)
  })
}

describe('the MCP tool listing', () => {
  const tools = collectTools().map(toMcpTool)

  it('lists every tool, read and mutating', () => {
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['code_symbols', 'code_rename', 'code_actions', 'code_replace_batch']))
  })

  for (const tool of tools) {
    it(`${tool.name}: no $ref, no definitions, no empty node; a draft-07 validator compiles both schemas`, () => {
      expect(problems(tool.inputSchema)).toEqual([])
      expect(problems(tool.outputSchema)).toEqual([])
      const ajv = new Ajv({ strict: false })
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow()
      expect(() => ajv.compile(tool.outputSchema)).not.toThrow()
    })
  }

  it("code_symbols' recursive outline still validates deeper than it is written out, and still refuses a wrong node", () => {
    const schema = tools.find((t) => t.name === 'code_symbols')?.outputSchema
    const validate = new Ajv({ strict: false }).compile(schema ?? {})
    const node = (depth: number): Record<string, unknown> => ({
      name: `n${depth}`,
      kind: 'function',
      line: depth + 1,
      column: 1,
      startLine: depth + 1,
      endLine: depth + 2,
      children: depth === 0 ? [] : [node(depth - 1)],
    })
    // The shape code_symbols answers (mode, path, outline), seven levels deep.
    const rest = {
      totalFound: 8,
      page: { returned: 8, total: 8, limit: 200, truncated: false },
      readiness: { status: 'ready', warm: true, provider: 'local:typescript' },
    }
    const outline = { mode: 'outline', path: 'src/a.ts', outline: [node(7)], ...rest }
    const valid = validate(outline)
    expect(valid, JSON.stringify(validate.errors)).toBe(true)
    expect(validate({ ...outline, outline: [{ ...node(1), line: 'one' }] })).toBe(false)
    // Each level of the recursion is written out once: the listing stays small.
    expect(JSON.stringify(schema).length).toBeLessThan(20_000)
  })
})
