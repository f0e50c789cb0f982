// Malformed tool arguments generated from each tool's own JSON Schema with fast-check (fixed seed): wrong
// types, missing required fields, unknown fields, out-of-range numbers, values outside enums, and
// arbitrary JSON instead of an object. Every instance the schema rejects (checked with ajv) must be
// answered with INVALID_ARGUMENT naming the tool, never run, never crash, and never write.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { toMcpTool } from '@codeseam/tool-lsp'

import { createFixture, treeHashes, type Fixture } from './support/fixture.js'
import { finishSuite, ResultRecorder, tally } from './support/results.js'
import { nonNull, slotName, withSlot, type JsonSchema, type Slot } from './support/schema-slots.js'
import { openStack, type Stack } from './support/stack.js'
import { validCalls } from './support/valid-calls.js'
import { schemaValidator } from './support/validator.js'

const recorder = new ResultRecorder('malformed-arguments')
const seed = 20_261_129
const runsPerTool = 60
let fixture: Fixture
let stack: Stack

beforeAll(async () => {
  fixture = await createFixture('reliability-malformed-')
  stack = await openStack(fixture.root, { mutations: { autoApprove: true } })
}, 60_000)

afterAll(async () => {
  await stack?.dispose()
  await fixture?.dispose()
  await finishSuite(recorder)
}, 60_000)

/** Every property of a schema, at any depth, with its schema and whether its parent requires it. */
function propertySlots(schema: JsonSchema, prefix: Slot = []): Array<{ slot: Slot; schema: JsonSchema; required: boolean }> {
  const node = nonNull(schema)
  const out: Array<{ slot: Slot; schema: JsonSchema; required: boolean }> = []
  if (node.type === 'object' && node.properties !== undefined) {
    for (const [name, child] of Object.entries(node.properties)) {
      const slot = [...prefix, name]
      out.push({ slot, schema: child, required: node.required?.includes(name) ?? false }, ...propertySlots(child, slot))
    }
  } else if (node.type === 'array' && node.items !== undefined) {
    out.push(...propertySlots(node.items, [...prefix, 0]))
  }
  return out
}

function without(value: Record<string, unknown>, slot: Slot): Record<string, unknown> {
  const copy = structuredClone(value)
  let node: Record<string | number, unknown> = copy
  for (const key of slot.slice(0, -1)) {
    const next = node[key]
    if (next === null || typeof next !== 'object') return copy
    node = next as Record<string | number, unknown>
  }
  delete node[slot[slot.length - 1]!]
  return copy
}

/** Ways to break a valid call, as fast-check arbitraries of [strategy, arguments]. */
function malformed(base: Record<string, unknown>, schema: JsonSchema): fc.Arbitrary<[string, unknown]> {
  const slots = propertySlots(schema)
  const known = new Set(slots.map((s) => String(s.slot[s.slot.length - 1])))
  const strategies: Array<fc.Arbitrary<[string, unknown]>> = [
    fc.jsonValue().map((value) => ['arbitrary JSON instead of the arguments', value] as [string, unknown]),
    fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((name) => !known.has(name) && name !== '__proto__')
      .map((name) => ['unknown property', { ...base, [name]: 1 }] as [string, unknown]),
  ]
  if (slots.length > 0) {
    strategies.push(
      fc
        .tuple(fc.constantFrom(...slots), fc.jsonValue())
        .map(([s, value]) => [`wrong value at ${slotName(s.slot)}`, withSlot(base, s.slot, value)] as [string, unknown]),
    )
    const numeric = slots.filter((s) => nonNull(s.schema).type === 'integer')
    if (numeric.length > 0) {
      strategies.push(
        fc
          .tuple(
            fc.constantFrom(...numeric),
            fc.oneof(
              fc.integer({ min: -1_000_000, max: 0 }),
              fc.double({ noNaN: true, noDefaultInfinity: true }),
              fc.integer({ min: 11, max: 1_000_000 }),
            ),
          )
          .map(([s, value]) => [`out-of-range number at ${slotName(s.slot)}`, withSlot(base, s.slot, value)] as [string, unknown]),
      )
    }
    const enums = slots.filter((s) => nonNull(s.schema).enum !== undefined)
    if (enums.length > 0) {
      strategies.push(
        fc
          .tuple(fc.constantFrom(...enums), fc.string({ maxLength: 16 }))
          .map(([s, value]) => [`value outside the enum at ${slotName(s.slot)}`, withSlot(base, s.slot, value)] as [string, unknown]),
      )
    }
    const required = slots.filter((s) => s.required)
    if (required.length > 0) {
      strategies.push(
        fc.constantFrom(...required).map((s) => [`missing required ${slotName(s.slot)}`, without(base, s.slot)] as [string, unknown]),
      )
    }
  }
  return fc.oneof(...strategies)
}

describe('malformed tool arguments from the JSON Schemas (fast-check)', { timeout: 300_000 }, () => {
  it(`every schema-invalid call of every tool is refused with INVALID_ARGUMENT (${runsPerTool} generated calls per tool, seed ${seed})`, async () => {
    const before = treeHashes(fixture.root)
    const counts: Record<string, number> = {}
    const problems: string[] = []
    const strategies: string[] = []
    let rejectedBySchema = 0
    let acceptedBySchema = 0
    for (const [name, tool] of stack.tools) {
      const schema = toMcpTool(tool).inputSchema as JsonSchema
      const isValid = schemaValidator(schema)
      const base = validCalls[name] ?? {}
      await fc.assert(
        fc.asyncProperty(malformed(base, schema), async ([strategy, args]) => {
          // Only what the schema itself rejects counts: a random change can leave a valid call. A harness's
          // null arguments mean "none" (decodeToolInput's documented rule), so null is judged as {}.
          if (isValid(args === null ? {} : args)) {
            acceptedBySchema++
            return
          }
          rejectedBySchema++
          strategies.push(strategy.replace(/ at .*/, ''))
          const outcome = await stack.call(name, args)
          if (outcome.ok) problems.push(`${name} ran a schema-invalid call (${strategy}): ${JSON.stringify(args).slice(0, 160)}`)
          else if (outcome.error.code !== 'INVALID_ARGUMENT')
            problems.push(
              `${name} (${strategy}): ${outcome.error.code} instead of INVALID_ARGUMENT: ${outcome.error.message.slice(0, 160)}`,
            )
          else if (!outcome.error.message.includes(name))
            problems.push(`${name} (${strategy}): the error does not name the tool: ${outcome.error.message.slice(0, 160)}`)
          counts[name] = (counts[name] ?? 0) + 1
        }),
        { seed, numRuns: runsPerTool },
      )
    }
    recorder.record(
      'malformed arguments',
      'every call its JSON Schema rejects is answered with INVALID_ARGUMENT naming the tool; none runs, none crashes the stack, nothing is written',
      {
        tools: stack.tools.size,
        'generated calls': rejectedBySchema + acceptedBySchema,
        'schema-invalid calls sent': rejectedBySchema,
        'generated calls still valid (skipped)': acceptedBySchema,
        ...Object.fromEntries(Object.entries(tally(strategies)).map(([k, v]) => [`strategy: ${k}`, v])),
        'answered INVALID_ARGUMENT': Object.values(counts).reduce((a, b) => a + b, 0) - problems.length,
        problems: problems.length,
        ...Object.fromEntries(
          [...new Set(problems.map((p) => p.replace(/\).*/, ')')))].map((kind) => [
            `problem: ${kind}`,
            problems.filter((p) => p.startsWith(kind.slice(0, -1))).length,
          ]),
        ),
      },
    )
    expect(problems).toEqual([])
    expect(treeHashes(fixture.root), 'a malformed call changed a file').toEqual(before)
    // The stack still answers after hundreds of malformed calls.
    const alive = await stack.call('code_symbols', validCalls['code_symbols'])
    expect(alive.ok).toBe(true)
  })
})
