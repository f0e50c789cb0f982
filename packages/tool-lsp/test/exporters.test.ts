import { Schema } from 'effect'
import { describe, expect, it } from 'vitest'

import { toAnthropicTool, toJsonSchema, toMcpTool, toOpenAiTool, type JsonSchemaObject } from '../src/index.js'
import { toOpenAiStrictSchema } from '../src/exporters.js'
import { sampleTool } from './support/sample-tool.js'
import { acceptsNull, draft07Problems, nonFiniteAdmissions, openAiStrictProblems, validateDraft07 } from './support/schema-rules.js'

describe('toJsonSchema', () => {
  it('is self-contained, closed, without integer-bound noise, and carries field descriptions', () => {
    const schema = toJsonSchema(sampleTool.input)
    expect(schema.type).toBe('object')
    expect(schema.additionalProperties).toBe(false)
    expect(JSON.stringify(schema)).not.toContain(String(Number.MAX_SAFE_INTEGER))
    const target = (schema.properties as Record<string, JsonSchemaObject>).target!
    const path = (target.properties as Record<string, JsonSchemaObject>).path!
    expect(path.description).toMatch(/relative to the workspace root/)
    expect(schema.required).toEqual(['target', 'mode'])
  })

  it('refuses a schema that admits NaN or Infinity', () => {
    expect(() => toJsonSchema(Schema.Struct({ n: Schema.Number }))).toThrow(/NaN\/Infinity/)
    expect(nonFiniteAdmissions(toJsonSchema(sampleTool.output))).toEqual([])
  })

  it('embeds definitions of recursive parts where each dialect resolves them', () => {
    const modern = toJsonSchema(sampleTool.output)
    expect(Object.keys(modern.$defs as object)).toContain('Node')
    const draft07 = toJsonSchema(sampleTool.output, { dialect: 'draft-07' })
    expect(Object.keys(draft07.definitions as object)).toContain('Node')
    expect(JSON.stringify(draft07)).not.toContain('#/$defs/')
  })
})

describe('toMcpTool', () => {
  const tool = toMcpTool(sampleTool)

  it('has the fields the MCP tools/list carries', () => {
    expect(tool.name).toBe('sample_echo')
    expect(tool.title).toBe('Echo')
    expect(tool.annotations).toEqual({
      title: 'Echo',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    })
  })

  it('compiles under a strict draft-07 validator with no newer keywords', () => {
    expect(draft07Problems(tool.inputSchema)).toEqual([])
    expect(draft07Problems(tool.outputSchema)).toEqual([])
  })

  it('validates real arguments and real results as the SDK client would', async () => {
    expect(validateDraft07(tool.inputSchema, { target: { path: 'a.ts', symbol: 'f' }, mode: 'one', depth: 2 })).toEqual([])
    expect(validateDraft07(tool.inputSchema, { target: { path: 'a.ts' }, mode: 'one', depth: 7 }).length).toBeGreaterThan(0)
    expect(validateDraft07(tool.inputSchema, { target: { path: 'a.ts' }, mode: 'one', extra: 1 }).length).toBeGreaterThan(0)
    const result = await sampleTool.execute({ target: { path: 'a.ts' }, mode: 'one' }, undefined as never)
    expect(validateDraft07(tool.outputSchema, JSON.parse(JSON.stringify(result)))).toEqual([])
    expect(validateDraft07(tool.outputSchema, { ...result, tree: { name: 1, children: [] } }).length).toBeGreaterThan(0)
  })
})

describe('toOpenAiTool', () => {
  it('strict mode: every property required, optional ones nullable, every object closed', () => {
    const tool = toOpenAiTool(sampleTool)
    if (!('function' in tool)) throw new Error('expected the chat shape')
    expect(tool.function.strict).toBe(true)
    const parameters = tool.function.parameters
    expect(openAiStrictProblems(parameters)).toEqual([])
    const properties = parameters.properties as Record<string, JsonSchemaObject>
    expect(acceptsNull(properties.depth!)).toBe(true)
    expect(acceptsNull(properties.mode!)).toBe(false)
    const target = properties.target!
    expect(acceptsNull((target.properties as Record<string, JsonSchemaObject>).symbol!)).toBe(true)
    expect(acceptsNull((target.properties as Record<string, JsonSchemaObject>).path!)).toBe(false)
    expect(nonFiniteAdmissions(parameters)).toEqual([])
  })

  it('moves unsupported constraints into the description instead of dropping them silently', () => {
    const tool = toOpenAiTool(sampleTool)
    if (!('function' in tool)) throw new Error('expected the chat shape')
    const name = (tool.function.parameters.properties as Record<string, JsonSchemaObject>).name!
    expect(JSON.stringify(name)).toContain('minLength 1')
    expect(JSON.stringify(name)).not.toContain('"minLength"')
  })

  it('makes a non-nullable optional property nullable', () => {
    const strict = toOpenAiStrictSchema({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'] })
    expect(strict.required).toEqual(['a', 'b'])
    expect((strict.properties as Record<string, JsonSchemaObject>).b).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] })
    expect(openAiStrictProblems(strict)).toEqual([])
  })

  it('refuses free-form maps in strict mode', () => {
    expect(() => toOpenAiStrictSchema({ type: 'object', additionalProperties: { type: 'string' } })).toThrow(/free-form map/)
  })

  it('has a flat Responses API shape and a non-strict form', () => {
    const flat = toOpenAiTool(sampleTool, { api: 'responses', strict: false })
    expect(flat).toMatchObject({ type: 'function', name: 'sample_echo', strict: false })
    expect('parameters' in flat && flat.parameters.required).toEqual(['target', 'mode'])
  })
})

describe('toAnthropicTool', () => {
  it('has name, description and an object input_schema', () => {
    const tool = toAnthropicTool(sampleTool)
    expect(Object.keys(tool).sort()).toEqual(['description', 'input_schema', 'name'])
    expect(tool.input_schema.type).toBe('object')
    expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
    expect(nonFiniteAdmissions(tool.input_schema)).toEqual([])
  })
})
