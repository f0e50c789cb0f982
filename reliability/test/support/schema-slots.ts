// Walks a tool's input JSON Schema: where its path parameters are, and what each property accepts.

/** A JSON Schema node as the exporters emit it (plain objects, no $ref). */
export type JsonSchema = {
  readonly type?: string | ReadonlyArray<string>
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly items?: JsonSchema
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly enum?: ReadonlyArray<unknown>
  readonly minimum?: number
  readonly maximum?: number
  readonly minItems?: number
  readonly additionalProperties?: boolean
}

/** A location in an argument object: property names and array indexes. */
export type Slot = ReadonlyArray<string | number>

/** The non-null alternative of `anyOf: [T, null]`, or the node itself. */
export function nonNull(schema: JsonSchema): JsonSchema {
  return schema.anyOf?.find((s) => s.type !== 'null') ?? schema
}

/** Every string property named `path`, at any depth (array items at index 0). */
export function pathSlots(schema: JsonSchema, prefix: Slot = []): Slot[] {
  const node = nonNull(schema)
  const out: Slot[] = []
  if (node.type === 'object' && node.properties !== undefined) {
    for (const [name, child] of Object.entries(node.properties)) {
      const inner = nonNull(child)
      if (name === 'path' && inner.type === 'string') out.push([...prefix, name])
      else out.push(...pathSlots(inner, [...prefix, name]))
    }
  } else if (node.type === 'array' && node.items !== undefined) {
    out.push(...pathSlots(node.items, [...prefix, 0]))
  }
  return out
}

/** A deep copy of `value` with `slot` set to `replacement` (missing containers are created). */
export function withSlot(value: unknown, slot: Slot, replacement: unknown): Record<string, unknown> {
  const copy = structuredClone(value ?? {}) as Record<string, unknown>
  let node: Record<string | number, unknown> = copy
  slot.forEach((key, index) => {
    if (index === slot.length - 1) {
      node[key] = replacement
      return
    }
    const nextKey = slot[index + 1]
    if (node[key] === undefined || node[key] === null) node[key] = typeof nextKey === 'number' ? [] : {}
    node = node[key] as Record<string | number, unknown>
  })
  return copy
}

/** `a.b[0].c` */
export function slotName(slot: Slot): string {
  return slot.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('')
}
