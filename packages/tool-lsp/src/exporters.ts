import { LspError } from '@codeseam/lsp'
import { JsonSchema, Schema } from 'effect'

import type { AnyTool } from './definition.js'

/**
 * Exports a tool definition in the form each consumer actually accepts. Every exporter returns plain JSON
 * objects with every reference resolvable from the schema itself.
 */

/** A JSON Schema node. */
export type JsonSchemaObject = { [key: string]: unknown }

/** Options for {@link toJsonSchema}. */
export interface ToJsonSchemaOptions {
  /** draft-2020-12 (default) or draft-07 (MCP clients validate with a draft-07 validator). */
  readonly dialect?: 'draft-2020-12' | 'draft-07'
  /** Whether objects reject properties the schema does not list (default true: models get told, not ignored). */
  readonly closed?: boolean
  /** Adds the `$schema` meta-schema URI. */
  readonly withSchemaUri?: boolean
}

const maxSafe = Number.MAX_SAFE_INTEGER

/** Drops noise the generator adds (±2^53 integer bounds, duplicate union members) so models see intent only. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy)
  if (node === null || typeof node !== 'object') return node
  const out: JsonSchemaObject = {}
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'maximum' && value === maxSafe) || (key === 'minimum' && value === -maxSafe)) continue
    out[key] = tidy(value)
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = out[key]
    if (Array.isArray(members)) {
      const seen = new Set<string>()
      const unique = members.filter((m) => {
        const id = JSON.stringify(m)
        if (seen.has(id)) return false
        seen.add(id)
        return true
      })
      out[key] = unique
    }
  }
  return out
}

/** Refuses schemas that accept NaN or ±Infinity (Schema.Number emits them as string alternatives). */
function assertFiniteNumbers(node: unknown, path: string): void {
  if (Array.isArray(node)) {
    node.forEach((child, index) => assertFiniteNumbers(child, `${path}[${index}]`))
    return
  }
  if (node === null || typeof node !== 'object') return
  const record = node as JsonSchemaObject
  const values = Array.isArray(record.enum) ? record.enum : 'const' in record ? [record.const] : []
  if (values.some((v) => v === 'NaN' || v === 'Infinity' || v === '-Infinity')) {
    throw new LspError(
      'INVALID_ARGUMENT',
      `schema at ${path || '/'} admits NaN/Infinity: use Schema.Finite or Schema.Int instead of Schema.Number`,
    )
  }
  for (const [key, value] of Object.entries(record)) assertFiniteNumbers(value, `${path}/${key}`)
}

function schemaUri(dialect: 'draft-2020-12' | 'draft-07'): string {
  return dialect === 'draft-07' ? JsonSchema.META_SCHEMA_URI_DRAFT_07 : JsonSchema.META_SCHEMA_URI_DRAFT_2020_12
}

/** The JSON Schema of an Effect Schema, self-contained (definitions embedded at the root). */
export function toJsonSchema(schema: Schema.Top, options: ToJsonSchemaOptions = {}): JsonSchemaObject {
  const dialect = options.dialect ?? 'draft-2020-12'
  const ast = schema.ast
  if (ast._tag === 'Objects' && ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    // An empty struct means "no arguments"; the generator describes it as "any non-nullish value", which no
    // tool consumer accepts as a parameters schema.
    const empty: JsonSchemaObject = { type: 'object', properties: {}, additionalProperties: options.closed === false }
    return options.withSchemaUri === true ? { $schema: schemaUri(dialect), ...empty } : empty
  }
  const document2020 = Schema.toJsonSchemaDocument(schema, { onExcessProperty: options.closed === false ? 'ignore' : 'error' })
  const document = dialect === 'draft-07' ? JsonSchema.toDocumentDraft07(document2020) : document2020
  const root: JsonSchemaObject = { ...(tidy(document.schema) as JsonSchemaObject) }
  const definitions = Object.entries(document.definitions)
  if (definitions.length > 0) {
    const tidied = Object.fromEntries(definitions.map(([name, definition]) => [name, tidy(definition)]))
    // draft-07 resolves `#/definitions/…`, 2020-12 resolves `#/$defs/…`; the converter rewrote refs to match.
    root[dialect === 'draft-07' ? 'definitions' : '$defs'] = tidied
  }
  assertFiniteNumbers(root, '')
  if (options.withSchemaUri === true) {
    return { $schema: schemaUri(dialect), ...root }
  }
  return root
}

function assertObjectRoot(tool: AnyTool, schema: JsonSchemaObject, which: string): JsonSchemaObject {
  if (schema.type !== 'object') {
    throw new LspError(
      'INVALID_ARGUMENT',
      `tool "${tool.name}": its ${which} schema must be an object schema (got ${JSON.stringify(schema.type)})`,
    )
  }
  return schema
}

// ---------------------------------------------------------------------------------------------------------
// MCP

/** An MCP `Tool` as listed by `tools/list` (protocol 2025-06-18). */
export interface McpTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: JsonSchemaObject
  readonly outputSchema: JsonSchemaObject
  readonly annotations: {
    readonly title: string
    readonly readOnlyHint: boolean
    readonly destructiveHint: boolean
    readonly idempotentHint: boolean
    readonly openWorldHint: boolean
  }
}

/** Any JSON value, said explicitly (an empty `{}` schema node is refused by some clients' schema converters). */
const anyJsonValue: JsonSchemaObject = { type: ['string', 'number', 'boolean', 'object', 'array', 'null'] }

/** How deep a recursive definition (an outline's children) is written out before its nodes are just objects. */
const inlinedRecursionDepth = 4

/**
 * A schema every MCP client can read: no `$ref` (several clients' converters resolve none, and a recursive one
 * loops them) and no empty `{}` node. Each reference is written out in place, a recursive one to
 * {@link inlinedRecursionDepth} levels and then as a bare object (the output schema is open, so deeper nodes still
 * validate); an empty node says "any JSON value".
 */
export function forMcpClients(schema: JsonSchemaObject): JsonSchemaObject {
  const definitions = {
    ...((schema['definitions'] ?? {}) as Record<string, JsonSchemaObject>),
    ...((schema['$defs'] ?? {}) as Record<string, JsonSchemaObject>),
  }
  const visit = (node: unknown, expanding: ReadonlyArray<string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, expanding))
    if (node === null || typeof node !== 'object') return node
    const object = node as JsonSchemaObject
    if (Object.keys(object).length === 0) return anyJsonValue
    const ref = object['$ref']
    if (typeof ref === 'string') {
      const name = ref.replace(/^#\/(definitions|\$defs)\//, '')
      const definition = definitions[name]
      if (definition === undefined) return object
      const { $ref: _ref, ...siblings } = object
      const depth = expanding.filter((n) => n === name).length
      const body = depth >= inlinedRecursionDepth ? { type: definition['type'] ?? 'object' } : visit(definition, [...expanding, name])
      return Object.keys(siblings).length === 0
        ? body
        : { ...(body as JsonSchemaObject), ...(visit(siblings, expanding) as JsonSchemaObject) }
    }
    const out: JsonSchemaObject = {}
    for (const [key, value] of Object.entries(object)) {
      if (key === 'definitions' || key === '$defs') continue
      // Values, not schemas.
      if (key === 'default' || key === 'examples' || key === 'const' || key === 'enum') {
        out[key] = value
        continue
      }
      // `properties` maps names to schemas: an empty one there is a schema too.
      out[key] =
        key === 'properties' && value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value as JsonSchemaObject).map(([name, inner]) => [name, visit(inner, expanding)]))
          : visit(value, expanding)
    }
    return out
  }
  return visit(schema, []) as JsonSchemaObject
}

/**
 * The MCP tool listing. Schemas are draft-07 (the official SDK client validates with a draft-07 validator:
 * no `prefixItems`, no `$defs`); the output schema is open to extra properties so a newer server never
 * fails an older client's structuredContent validation.
 */
export function toMcpTool(tool: AnyTool): McpTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: assertObjectRoot(tool, forMcpClients(toJsonSchema(tool.input, { dialect: 'draft-07' })), 'input'),
    outputSchema: assertObjectRoot(tool, forMcpClients(toJsonSchema(tool.output, { dialect: 'draft-07', closed: false })), 'output'),
    annotations: {
      title: tool.title,
      readOnlyHint: tool.hints.readOnly,
      destructiveHint: tool.hints.destructive,
      idempotentHint: tool.hints.idempotent,
      openWorldHint: tool.hints.openWorld,
    },
  }
}

// ---------------------------------------------------------------------------------------------------------
// OpenAI

/** Options for {@link toOpenAiTool}. */
export interface OpenAiToolOptions {
  /** Strict mode (structured outputs): default true. */
  readonly strict?: boolean
  /** `chat` (Chat Completions, nested `function`) or `responses` (Responses API, flat). Default `chat`. */
  readonly api?: 'chat' | 'responses'
}

/** The function parameters OpenAI receives. */
export interface OpenAiFunction {
  readonly name: string
  readonly description: string
  readonly parameters: JsonSchemaObject
  readonly strict: boolean
}

/** A Chat Completions tool or a Responses API tool. */
export type OpenAiTool = { readonly type: 'function'; readonly function: OpenAiFunction } | ({ readonly type: 'function' } & OpenAiFunction)

// Keywords strict mode rejects; their meaning moves into the description so the model still sees it.
const strictUnsupported = [
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'default',
  'if',
  'then',
  'else',
  'not',
  'allOf',
  'dependentRequired',
  'dependentSchemas',
] as const

const strictMaxDepth = 10

function isNullable(node: JsonSchemaObject): boolean {
  if (node.type === 'null') return true
  if (Array.isArray(node.type) && node.type.includes('null')) return true
  return Array.isArray(node.anyOf) && node.anyOf.some((m) => (m as JsonSchemaObject).type === 'null')
}

/**
 * Rewrites a JSON Schema for OpenAI strict mode: every property required (optional ones become nullable),
 * `additionalProperties: false` on every object, `oneOf` → `anyOf`, unsupported keywords dropped with
 * their constraint restated in the description.
 */
export function toOpenAiStrictSchema(schema: JsonSchemaObject, toolName = 'tool'): JsonSchemaObject {
  const visit = (node: unknown, path: string, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((child, i) => visit(child, `${path}[${i}]`, depth))
    if (node === null || typeof node !== 'object') return node
    const source = node as JsonSchemaObject
    const out: JsonSchemaObject = {}
    const dropped: string[] = []
    for (const [key, value] of Object.entries(source)) {
      if ((strictUnsupported as ReadonlyArray<string>).includes(key)) {
        dropped.push(`${key} ${JSON.stringify(value)}`)
        continue
      }
      out[key === 'oneOf' ? 'anyOf' : key] = value
    }
    const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'))
    if (isObject) {
      if (depth > strictMaxDepth) {
        throw new LspError(
          'INVALID_ARGUMENT',
          `tool "${toolName}": ${path} nests objects deeper than OpenAI strict mode allows (${strictMaxDepth})`,
        )
      }
      const properties = (out.properties ?? {}) as Record<string, JsonSchemaObject>
      if (typeof out.additionalProperties === 'object') {
        throw new LspError(
          'INVALID_ARGUMENT',
          `tool "${toolName}": ${path} is a free-form map, which OpenAI strict mode cannot express; use strict: false`,
        )
      }
      const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : [])
      const nextProperties: Record<string, unknown> = {}
      for (const [name, property] of Object.entries(properties)) {
        const visited = visit(property, `${path}.${name}`, depth + 1) as JsonSchemaObject
        nextProperties[name] = required.has(name) || isNullable(visited) ? visited : { anyOf: [visited, { type: 'null' }] }
      }
      out.properties = nextProperties
      out.required = Object.keys(nextProperties)
      out.additionalProperties = false
    }
    for (const key of ['items', 'anyOf'] as const) {
      if (key in out) out[key] = visit(out[key], `${path}.${key}`, depth)
    }
    for (const key of ['$defs', 'definitions'] as const) {
      const definitions = out[key]
      if (definitions !== null && typeof definitions === 'object') {
        out[key] = Object.fromEntries(Object.entries(definitions).map(([n, d]) => [n, visit(d, `${path}/${key}/${n}`, depth)]))
      }
    }
    if (dropped.length > 0) {
      const note = `(constraints: ${dropped.join(', ')})`
      out.description = typeof out.description === 'string' ? `${out.description} ${note}` : note
    }
    return out
  }
  const result = visit(schema, '', 0) as JsonSchemaObject
  if (result.type !== 'object' || 'anyOf' in result) {
    throw new LspError('INVALID_ARGUMENT', `tool "${toolName}": OpenAI strict mode needs an object at the root`)
  }
  return result
}

/** The OpenAI function tool. Strict mode (default) rewrites the schema to strict-mode rules. */
export function toOpenAiTool(tool: AnyTool, options: OpenAiToolOptions = {}): OpenAiTool {
  const strict = options.strict ?? true
  const base = assertObjectRoot(tool, toJsonSchema(tool.input), 'input')
  const fn: OpenAiFunction = {
    name: tool.name,
    description: tool.description,
    parameters: strict ? toOpenAiStrictSchema(base, tool.name) : base,
    strict,
  }
  return options.api === 'responses' ? { type: 'function', ...fn } : { type: 'function', function: fn }
}

// ---------------------------------------------------------------------------------------------------------
// Anthropic

/** An Anthropic Messages API tool. */
export interface AnthropicTool {
  readonly name: string
  readonly description: string
  readonly input_schema: JsonSchemaObject
}

/** The Anthropic tool: draft 2020-12 input schema with an object root. */
export function toAnthropicTool(tool: AnyTool): AnthropicTool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: assertObjectRoot(tool, toJsonSchema(tool.input), 'input'),
  }
}
