// Ways to break a valid tool call, as fast-check arbitraries driven by the tool's JSON Schema: wrong types,
// missing required fields, unknown fields, out-of-range numbers, values outside enums, arbitrary JSON.
// Shared by malformed-arguments.test.ts (fixed seed) and fuzz.test.ts (a seed per run).
import fc from 'fast-check'

import { nonNull, slotName, withSlot, type JsonSchema, type Slot } from './schema-slots.js'

/** Every property of a schema, at any depth, with its schema and whether its parent requires it. */
export function propertySlots(schema: JsonSchema, prefix: Slot = []): Array<{ slot: Slot; schema: JsonSchema; required: boolean }> {
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
export function malformed(base: Record<string, unknown>, schema: JsonSchema): fc.Arbitrary<[string, unknown]> {
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
