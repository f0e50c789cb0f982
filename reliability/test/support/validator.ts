// ajv, compiled once per tool schema: the independent judge of which generated arguments are invalid.
import AjvModule from 'ajv'

import type { JsonSchema } from './schema-slots.js'

type AjvClass = typeof AjvModule.default
const Ajv = ((AjvModule as unknown as { default?: AjvClass }).default ?? AjvModule) as AjvClass

const ajv = new Ajv({ strict: false, allErrors: false })

/** A validator for one tool's input schema. */
export function schemaValidator(schema: JsonSchema): (value: unknown) => boolean {
  const validate = ajv.compile(schema as object)
  return (value) => validate(value) === true
}
