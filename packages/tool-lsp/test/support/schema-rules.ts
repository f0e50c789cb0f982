import Ajv from 'ajv'

import type { JsonSchemaObject } from '../../src/index.js'

/** Keywords that exist only in draft 2019-09 / 2020-12; a draft-07 validator ignores or rejects them. */
const newerOnlyKeywords = [
  'prefixItems',
  '$defs',
  'dependentSchemas',
  'dependentRequired',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$dynamicAnchor',
  '$anchor',
  'minContains',
  'maxContains',
  'contentSchema',
  '$recursiveRef',
]

/** Every key used anywhere in a schema (as keyword, not as a property name). */
export function keywordsOf(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const child of node) keywordsOf(child, out)
    return out
  }
  if (node === null || typeof node !== 'object') return out
  for (const [key, value] of Object.entries(node)) {
    out.add(key)
    if (key === 'properties' || key === 'definitions' || key === '$defs') {
      for (const child of Object.values(value as object)) keywordsOf(child, out)
    } else keywordsOf(value, out)
  }
  return out
}

/** Problems a draft-07 consumer (the MCP SDK client's ajv) would have with a schema. */
export function draft07Problems(schema: JsonSchemaObject): string[] {
  const problems = [...keywordsOf(schema)].filter((k) => newerOnlyKeywords.includes(k)).map((k) => `uses ${k}`)
  const text = JSON.stringify(schema)
  for (const ref of text.matchAll(/"\$ref":"([^"]+)"/g)) {
    if (!ref[1]!.startsWith('#/definitions/')) problems.push(`unresolvable ref ${ref[1]}`)
  }
  try {
    new Ajv({ strict: true, allErrors: true }).compile(schema)
  } catch (error) {
    problems.push(`ajv draft-07: ${(error as Error).message}`)
  }
  return problems
}

/** Draft-07 validator for values (structuredContent, arguments). */
export function validateDraft07(schema: JsonSchemaObject, value: unknown): string[] {
  const ajv = new Ajv({ strict: true, allErrors: true })
  const validate = ajv.compile(schema)
  if (validate(value)) return []
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`)
}

const strictUnsupported = new Set([
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
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'default',
])

/**
 * OpenAI strict-mode rules, checked structurally: object root, every object closed with every property
 * required, no unsupported keywords. `optionalIn` lists properties the original schema did not require:
 * those must be nullable.
 */
export function openAiStrictProblems(schema: JsonSchemaObject): string[] {
  const problems: string[] = []
  if (schema.type !== 'object') problems.push('root is not an object')
  if ('anyOf' in schema) problems.push('root is an anyOf')
  const visit = (node: unknown, path: string) => {
    if (Array.isArray(node)) return node.forEach((c, i) => visit(c, `${path}[${i}]`))
    if (node === null || typeof node !== 'object') return
    const record = node as JsonSchemaObject
    for (const key of Object.keys(record)) if (strictUnsupported.has(key)) problems.push(`${path}: unsupported keyword ${key}`)
    if (record.type === 'object') {
      if (record.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`)
      const keys = Object.keys((record.properties ?? {}) as object)
      const required = (record.required ?? []) as string[]
      for (const key of keys) if (!required.includes(key)) problems.push(`${path}.${key}: not required`)
      for (const [key, child] of Object.entries((record.properties ?? {}) as object)) visit(child, `${path}.${key}`)
    }
    for (const key of ['items', 'anyOf', '$defs'] as const) if (key in record) visit(record[key], `${path}.${key}`)
  }
  visit(schema, '$')
  return problems
}

/** Whether a schema node accepts null. */
export function acceptsNull(node: JsonSchemaObject): boolean {
  return node.type === 'null' || (Array.isArray(node.anyOf) && node.anyOf.some((m) => (m as JsonSchemaObject).type === 'null'))
}

/** Paths of NaN/Infinity admissions anywhere. */
export function nonFiniteAdmissions(schema: unknown): string[] {
  return JSON.stringify(schema).match(/"(NaN|-?Infinity)"/g) ?? []
}
