// ajv, compiled once per tool schema: the independent judge of which generated arguments are invalid.
import { Ajv } from 'ajv'

import type { JsonSchema } from './schema-slots.js'

const ajv = new Ajv({ strict: false, allErrors: false })

/** A validator for one tool's input schema. */
export function schemaValidator(schema: JsonSchema): (value: unknown) => boolean {
  const validate = ajv.compile(schema as object)
  return (value) => validate(value) === true
}
