import { describe, expect, it } from 'vitest'

import { readTools, toAnthropicTool, toJsonSchema, toMcpTool, toOpenAiTool } from '../src/index.js'
import { draft07Problems, nonFiniteAdmissions, openAiStrictProblems } from './support/schema-rules.js'

describe('every read tool exports a valid schema for every consumer', () => {
  it('lists the read tools of the issue, each read-only', () => {
    expect(readTools.map((t) => t.name)).toEqual([
      'code_symbols',
      'code_navigate',
      'code_hierarchy',
      'code_impact',
      'code_hover',
      'code_diagnostics',
      'code_inlay_hints',
      'code_completions',
      'code_status',
    ])
    for (const tool of readTools) expect(tool.hints).toMatchObject({ readOnly: true, destructive: false })
  })

  for (const tool of readTools) {
    describe(tool.name, () => {
      it('MCP: draft-07 input and output schemas a strict ajv compiles', () => {
        const mcp = toMcpTool(tool)
        expect(draft07Problems(mcp.inputSchema)).toEqual([])
        expect(draft07Problems(mcp.outputSchema)).toEqual([])
        expect(mcp.inputSchema.type).toBe('object')
        expect(mcp.outputSchema.type).toBe('object')
      })

      it('OpenAI strict: closed objects, every property required', () => {
        const openai = toOpenAiTool(tool)
        if (!('function' in openai)) throw new Error('chat shape expected')
        expect(openAiStrictProblems(openai.function.parameters)).toEqual([])
      })

      it('no NaN/Infinity anywhere; descriptions written for a model', () => {
        expect(nonFiniteAdmissions(toJsonSchema(tool.input))).toEqual([])
        expect(nonFiniteAdmissions(toJsonSchema(tool.output))).toEqual([])
        expect(tool.description.length).toBeGreaterThan(120)
        expect(toAnthropicTool(tool).input_schema.type).toBe('object')
      })
    })
  }
})
