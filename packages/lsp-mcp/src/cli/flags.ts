import { toJsonSchema, type AnyTool, type JsonSchemaObject } from '@codeseam/tool-lsp'

/**
 * Command-line flags derived from a tool's own input schema, so every tool gets a command without a table
 * to keep in sync: each top-level property becomes a `--kebab-case` flag; the `target` object becomes a
 * positional path plus `--symbol`, `--symbol-kind`, `--line`, `--column`, `--match`, `--root-id`. The CLI
 * converts flag text to the JSON type the schema names and lets the tool's own decoding judge the rest.
 */

/** How a flag's text becomes JSON. */
export type FlagType = 'string' | 'integer' | 'number' | 'boolean' | 'strings' | 'json'

/** One flag of a command. */
export interface FlagSpec {
  /** `--name`. */
  readonly flag: string
  /** Where the value goes in the tool input: `['kind']`, `['target', 'symbol']`. */
  readonly path: ReadonlyArray<string>
  readonly type: FlagType
  readonly description: string
  readonly choices?: ReadonlyArray<string>
  readonly required: boolean
}

/** A command derived from a tool. */
export interface ToolCommand {
  /** `navigate` for `code_navigate`, `inlay-hints` for `code_inlay_hints`. */
  readonly name: string
  readonly tool: AnyTool
  /** The input path the first positional argument fills (`target.path` or `path`), if any. */
  readonly positional?: { readonly path: ReadonlyArray<string>; readonly label: string; readonly required: boolean }
  readonly flags: ReadonlyArray<FlagSpec>
}

/** Friendlier flag names for input fields whose camelCase name reads badly on a command line. */
const flagAliases: Readonly<Record<string, string>> = {
  newName: 'to',
  matchText: 'match',
}

/** Target fields and their flags; `kind` of a target is `--symbol-kind` since `--kind` usually means the tool's own kind. */
const targetFlags: Readonly<Record<string, string>> = {
  symbol: 'symbol',
  kind: 'symbol-kind',
  line: 'line',
  column: 'column',
  matchText: 'match',
  rootId: 'root-id',
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
}

/** The command name of a tool: its name without the `code_` prefix, dashes for underscores. */
export function commandName(tool: AnyTool): string {
  return tool.name.replace(/^code_/, '').replace(/_/g, '-')
}

function resolveRef(root: JsonSchemaObject, node: JsonSchemaObject): JsonSchemaObject {
  const ref = node.$ref
  if (typeof ref !== 'string') return node
  const name = ref.replace(/^#\/(definitions|\$defs)\//, '')
  const definitions = (root.definitions ?? root.$defs ?? {}) as Record<string, JsonSchemaObject>
  return definitions[name] ?? node
}

/** The schema of a value without its `null` alternative (optional fields are nullable in the exported schema). */
function unwrap(root: JsonSchemaObject, node: JsonSchemaObject): JsonSchemaObject {
  const resolved = resolveRef(root, node)
  const members = resolved.anyOf
  if (Array.isArray(members)) {
    const nonNull = (members as JsonSchemaObject[]).filter((m) => m.type !== 'null')
    if (nonNull.length === 1 && nonNull[0] !== undefined) {
      return { ...unwrap(root, nonNull[0]), ...(typeof resolved.description === 'string' ? { description: resolved.description } : {}) }
    }
  }
  return resolved
}

function flagType(node: JsonSchemaObject): FlagType {
  switch (node.type) {
    case 'string':
      return 'string'
    case 'integer':
      return 'integer'
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'array': {
      const items = node.items as JsonSchemaObject | undefined
      return items?.type === 'string' ? 'strings' : 'json'
    }
    default:
      return 'json'
  }
}

function spec(root: JsonSchemaObject, node: JsonSchemaObject, flag: string, path: ReadonlyArray<string>, required: boolean): FlagSpec {
  const schema = unwrap(root, node)
  const choices = Array.isArray(schema.enum) ? (schema.enum as unknown[]).map(String) : undefined
  return {
    flag,
    path,
    type: flagType(schema),
    description: typeof schema.description === 'string' ? schema.description : '',
    required,
    ...(choices === undefined ? {} : { choices }),
  }
}

/** Derives the command of a tool from its input schema. */
export function toolCommand(tool: AnyTool): ToolCommand {
  const root = toJsonSchema(tool.input, { dialect: 'draft-07' })
  const properties = (root.properties ?? {}) as Record<string, JsonSchemaObject>
  const required = new Set((root.required ?? []) as string[])
  const flags: FlagSpec[] = []
  let positional: ToolCommand['positional']
  for (const [name, node] of Object.entries(properties)) {
    const schema = unwrap(root, node)
    const targetProperties = schema.type === 'object' ? ((schema.properties ?? {}) as Record<string, JsonSchemaObject>) : undefined
    if (name === 'target' && targetProperties !== undefined && 'path' in targetProperties) {
      positional = { path: ['target', 'path'], label: 'PATH', required: required.has(name) }
      for (const [field, flag] of Object.entries(targetFlags)) {
        const fieldNode = targetProperties[field]
        if (fieldNode !== undefined) flags.push(spec(root, fieldNode, flag, ['target', field], false))
      }
      continue
    }
    if (name === 'path' && positional === undefined && unwrap(root, node).type === 'string') {
      positional = { path: ['path'], label: 'PATH', required: required.has(name) }
      continue
    }
    flags.push(spec(root, node, flagAliases[name] ?? kebab(name), [name], required.has(name)))
  }
  return { name: commandName(tool), tool, ...(positional === undefined ? {} : { positional }), flags }
}
